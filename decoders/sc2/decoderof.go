package sc2

import (
	"runtime"
	"sync"
	"weak"

	"rewind/model"
)

// Summarize is handed a replay, not its decoder, and the replay's analysis
// (Replay.Analysis) is the one people read: every moment with its summary
// line and fields, the stats tables, the charts. A summary needs none of
// those, so Summarize walks the streams itself, lean, with the decoder
// this table finds: for test10 (240 KB) the summary then leaves 0.6 MB
// live instead of 6.5 and allocates 9 MB instead of 18, and a one-file
// check peaks at 32.4 MB RSS instead of 40.5.
//
// Both sides are weak: the replay holds its decoder (its closures do), so
// an entry keeps neither alive, and it goes when the replay does.
var replayDecoders sync.Map // weak.Pointer[model.Replay] -> weak.Pointer[decoder]

// remember lets decoderOf find d from its replay.
func remember(d *decoder) {
	k := weak.Make(d.r)
	replayDecoders.Store(k, weak.Make(d))
	runtime.AddCleanup(d.r, func(k weak.Pointer[model.Replay]) { replayDecoders.Delete(k) }, k)
}

// decoderOf is the decoder that made r; nil when there is none (a replay
// of another format, or one this package did not decode in full).
func decoderOf(r *model.Replay) *decoder {
	v, ok := replayDecoders.Load(weak.Make(r))
	if !ok {
		return nil
	}
	return v.(weak.Pointer[decoder]).Value()
}
