package sc2

import (
	"fmt"
	"sync"

	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// streams decompresses the archive's files when something first reads
// them, once each, from any goroutine: the decoder asks for the streams it
// decodes, the hex view later for any other (smartcam, sync, the battle
// lobby), through Replay.LoadStream.
type streams struct {
	arc *mpq.Archive
	mu  sync.Mutex
	m   map[string]*lazyStream
}

type lazyStream struct {
	once sync.Once
	bi   int
	data []byte
	err  error
}

func newStreams(arc *mpq.Archive, names []string) *streams {
	s := &streams{arc: arc, m: map[string]*lazyStream{}}
	for _, n := range names {
		s.m[n] = &lazyStream{bi: arc.FindBlock(n)}
	}
	return s
}

// has reports whether the archive lists the file.
func (s *streams) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[name]
	return ok
}

// get decompresses a file (once). On damage it returns the whole sectors
// before it together with the error.
func (s *streams) get(name string) ([]byte, error) {
	s.mu.Lock()
	ls, ok := s.m[name]
	s.mu.Unlock()
	if !ok {
		return nil, nil
	}
	ls.once.Do(func() {
		ls.data, ls.err = s.arc.ReadBlock(name, ls.bi)
	})
	return ls.data, ls.err
}

// load is Replay.LoadStream: the bytes of any file of the archive, read
// on first use.
func (s *streams) load(name string) []byte {
	b, _ := s.get(name)
	return b
}

// read gets a stream for a decoder: a read error becomes an error
// diagnostic in out (the bytes before the damage are still decoded).
func (d *decoder) read(name string, out *[]model.Diagnostic) ([]byte, bool) {
	if !d.st.has(name) {
		return nil, false
	}
	data, err := d.st.get(name)
	d.readError(name, len(data), err, out)
	if data == nil {
		return nil, false
	}
	if d.opt.Progress != nil {
		d.progress(name)
	}
	return data, true
}

// readOutside is read for a stream the decode is done with when it calls
// release, which is not kept (mpq.Archive.ReadBlockOutside): nothing may
// hold the bytes, or anything sliced from them, afterwards.
func (d *decoder) readOutside(name string, out *[]model.Diagnostic) (data []byte, release func(), ok bool) {
	if !d.st.has(name) {
		return nil, func() {}, false
	}
	data, release, err := d.arc.ReadBlockOutside(name, d.arc.FindBlock(name))
	d.readError(name, len(data), err, out)
	if data == nil {
		release()
		return nil, func() {}, false
	}
	if d.opt.Progress != nil {
		d.progress(name)
	}
	return data, release, true
}

// readError records a file that did not read whole as an error: where
// the damage is and how much of the file came out before it.
func (d *decoder) readError(name string, got int, err error, out *[]model.Diagnostic) {
	if err == nil {
		return
	}
	bi := d.arc.FindBlock(name)
	size := uint32(0)
	if bi >= 0 {
		size = d.arc.Block[bi].FileSize
	}
	*out = append(*out, diagnostic(model.Error, model.Span{Off: errOff(err)}, name, errMsg(err), "",
		fmt.Sprintf("%d of %d bytes", got, size)))
}

// progress reports the archive bytes behind the streams read so far.
func (d *decoder) progress(name string) {
	bi := d.arc.FindBlock(name)
	if bi < 0 {
		return
	}
	d.progressMu.Lock()
	defer d.progressMu.Unlock()
	d.progressDone += int64(d.arc.Block[bi].CompressedSize)
	d.opt.Progress(min(d.progressDone, int64(len(d.data))), int64(len(d.data)))
}

// keptStream is a decoded stream's bytes as its events point into them:
// data, or, once a check gave data back (readOutside), the stream read
// again through reload when something asks.
type keptStream struct {
	data   []byte
	reload func() []byte
}

// span is the stream's bytes from off to end; nil when they are not there.
func (k *keptStream) span(off, end int32) []byte {
	b := k.data
	if b == nil && k.reload != nil {
		b = k.reload()
	}
	if int(end) > len(b) || off > end {
		return nil
	}
	return b[off:end]
}
