package osr

import (
	"testing"

	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// FuzzOSR holds the decoder to the contract on any input. Seeds: the
// smallest samples (Go's fuzzer minimises every new input it finds and
// crawls on inputs of kilobytes, whose frames decompress to tens of
// kilobytes), one cut inside its frames, and hand-built files of every
// mode, a lazer one, plain-text frames.
func FuzzOSR(f *testing.F) {
	for _, name := range []string{"minimal-version-0.osr", "taiko-lazer-score-info.osr"} {
		b := sampleBytes(f, name)
		f.Add(b)
		f.Add(b[:len(b)*2/3])
	}
	for mode := byte(0); mode < 4; mode++ {
		tf := newTestFile()
		tf.mode = mode
		f.Add(tf.bytes(f))
	}
	lazer := newTestFile()
	lazer.version = 30000016
	lazer.scoreInfo = sp(`{"rank":"A","mods":[{"acronym":"HD"}],"statistics":{"great":3}}`)
	f.Add(lazer.bytes(f))
	plain := newTestFile()
	plain.plainFrames = true
	f.Add(plain.bytes(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(data, opt)
			decodetest.Check(t, r, err, data, opt)
			if !opt.HeaderOnly {
				decodetest.NoEvents(t, Decode, data, r, err)
			}
			if r != nil && !opt.HeaderOnly {
				if a := r.Analysis(); a == nil {
					t.Fatal("no analysis")
				}
				Summarize(r)
			}
		}
	})
}
