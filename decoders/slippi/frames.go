package slippi

import (
	"encoding/binary"
	"math"
	"sync"
)

// The frames slippi-js's stats see, taken from the decoder's kept copies.
//
// slippi-js (9.1.2) computes stats lazily, when getStats() is called after
// the whole file was read. Its parser keeps one object per frame number and
// overwrites a player's pre- or post-frame update whenever the frame is sent
// again (an online rollback), so the stats see the last copy of every frame:
// the same copy the decoder keeps in d.pre and d.post. What the parser adds
// is which frames count: a frame is "finalized" (handed to the stats) only
// when the stream has moved far enough past it, and the stats then run from
// frame -123 for as long as every player has a post-frame update.
// walkLikeSlippiJS replays that bookkeeping over the event stream; the
// values come from the decoder's arrays.

const (
	firstFrame    = -123 // the first frame of every game (slippi-js Frames.FIRST)
	firstPlayable = -39  // the first frame players can act (Frames.FIRST_PLAYABLE)
	maxRollback   = 7    // slippi-js MAX_ROLLBACK_FRAMES: frames a bookend finalizes behind itself
)

// sjsWalk is what slippi-js's parser ends up with after reading the stream.
type sjsWalk struct {
	settings  bool  // the settings were complete, so getStats() returns stats
	latest    int64 // the frame number of the last pre- or post-frame update
	hasLatest bool
	finalized int64 // the last frame handed to the stats (frames -123..finalized)
	gameEnd   bool  // a Game End event was read
	// byNumber maps frame number - firstFrame to the decoder's frame index
	// for frames numbered by arrival (training mode); nil otherwise.
	byNumber []int32
}

// walkLikeSlippiJS follows slippi-js's SlpParser through the event stream:
// when its settings are complete, the frame number it calls latest, and up
// to which frame it finalizes frames for the stats.
func (d *decoder) walkLikeSlippiJS() sjsWalk {
	w := sjsWalk{finalized: firstFrame - 1}
	data, size := d.data, &d.size
	// Frames exist in the parser once any event names them; only frames
	// from -123 on matter, and at most d.count distinct numbers can follow
	// it without a gap.
	created := make([]bool, d.count)
	if d.sequential {
		w.byNumber = make([]int32, d.count)
		for i := range w.byNumber {
			w.byNumber[i] = -1
		}
	}
	finalize := func(target int64) {
		for w.finalized < target {
			k := w.finalized + 1 - firstFrame
			if k < 0 || k >= int64(len(created)) || !created[k] {
				return // a frame not received yet cannot be finalized
			}
			w.finalized++
		}
	}
	gameStart, online := false, false
	perUpdate := d.version <= ver(2, 2, 0) // before bookends: finalize on every frame update
	seq, curNum := -1, int64(math.MinInt64)
	for p := d.from; p < d.stop; {
		c := data[p]
		n := 1 + int(size[c])
		if n < 1 {
			break // cannot happen: the scan stopped before any unlisted code
		}
		if !hasFrame(c) || n < 5 {
			switch c {
			case cmdStart:
				// slippi-js completes the settings at Game Start from 1.6.0
				// on; before, the first post-frame update after frame -123
				// completes them (it may change Zelda to Sheik).
				gameStart = true
				w.settings = w.settings || d.version >= ver(1, 6, 0)
				online = n > 0x1A4 && data[p+0x1A4] == 8
			case cmdEnd:
				if w.hasLatest && w.latest != w.finalized {
					finalize(w.latest)
				}
				w.gameEnd = true
			}
			p += n
			continue
		}
		f := int64(int32(binary.BigEndian.Uint32(data[p+1:])))
		if k := f - firstFrame; k >= 0 && k < int64(len(created)) {
			created[k] = true
			if w.byNumber != nil {
				if f != curNum || c == cmdFrame {
					seq++
				}
				w.byNumber[k] = int32(seq)
			}
		} else if w.byNumber != nil && (f != curNum || c == cmdFrame) {
			seq++
		}
		curNum = f
		switch c {
		case cmdPre, cmdPost:
			if c == cmdPost && gameStart && f > firstFrame {
				w.settings = true
			}
			w.latest, w.hasLatest = f, true
			if perUpdate && w.settings {
				finalize(f - 1)
			}
		case cmdBookend:
			// Online games say which frame is final (3.7.0); otherwise a
			// frame is final once the game is maxRollback frames past it.
			target := f - maxRollback
			if online && n >= 9 {
				if lf := int64(int32(binary.BigEndian.Uint32(data[p+5:]))); lf >= firstFrame {
					target = lf
				}
			}
			finalize(target)
		}
		p += n
	}
	return w
}

// index is the decoder's frame index of a frame number, -1 when it has none.
func (d *decoder) index(w *sjsWalk, num int64) int {
	if w.byNumber != nil {
		k := num - firstFrame
		if k < 0 || k >= int64(len(w.byNumber)) {
			return -1
		}
		return int(w.byNumber[k])
	}
	fi := num - d.first
	if fi < 0 || fi >= int64(d.count) {
		return -1
	}
	return int(fi)
}

// postVals are the post-frame values the stats read. A field the payload
// is too short for is "absent" the way JavaScript's undefined behaves in the
// comparisons slippi-js makes (NaN for floats it compares, -1 for ids).
// Floats stay float32 to keep a frame small; slippi-js widens them to
// float64 (exactly) before any arithmetic or comparison, and so must every
// use here.
type postVals struct {
	action  int32   // action state id
	char    int16   // internal character id
	attack  int16   // last attack landed (the move id of the attacker's last hit)
	stocks  int16   // stocks remaining
	lcancel int16   // L-cancel status: 1 success, 2 failure
	hitBy   int16   // the port that last hit this player
	percent float32 // 0 when absent (slippi-js reads `percent ?? 0`)
	x, y    float32 // y is 0 when absent (`positionY ?? 0`)
	facing  float32
	counter float32 // action state frame counter
}

// preVals are what the input counts read of a pre-frame update: the
// physical buttons, the region each stick is in and whether each analog
// trigger is pressed past the threshold (or below it: an absent value is
// neither, as undefined compares false in slippi-js).
type preVals struct {
	ok               bool // the frame has a pre-frame update for the player
	buttons          uint16
	joystick, cstick uint8 // stickRegion
	lOn, lOff        bool  // the L trigger at least triggerOn, below it
	rOn, rOff        bool
}

// reader reads typed values from one payload, absent past its end.
type reader struct {
	b []byte
}

func (r reader) has(off, n int) bool { return off+n <= len(r.b) }

func (r reader) f32(off int, absent float32) float32 {
	if !r.has(off, 4) {
		return absent
	}
	return math.Float32frombits(binary.BigEndian.Uint32(r.b[off:]))
}

func (r reader) u8(off int) int {
	if !r.has(off, 1) {
		return -1
	}
	return int(r.b[off])
}

func (r reader) u16(off int) int {
	if !r.has(off, 2) {
		return -1
	}
	return int(binary.BigEndian.Uint16(r.b[off:]))
}

// payload is the event at a kept offset (0 = none).
func (d *decoder) payload(off int32, code byte) reader {
	if off == 0 {
		return reader{}
	}
	return reader{d.data[off : int(off)+1+int(d.size[code])]}
}

// Offsets in a post-frame update of the fields a stock count follows.
const (
	postPercent = 0x16
	postStocks  = 0x21
)

func (d *decoder) postAt(fi, port int) (v postVals, ok bool) {
	return v, d.postInto(&v, fi, port)
}

// postInto is postAt writing into v, field by field: a postVals returned
// and then copied into an array is read back with wide loads right after
// its narrow stores, which stall (store forwarding fails) for most of
// processedFrames' time.
func (d *decoder) postInto(v *postVals, fi, port int) bool {
	r := d.payload(d.post[fi*d.slots+port], cmdPost)
	if r.b == nil {
		*v = postVals{}
		return false
	}
	v.action = int32(r.u16(0x8))
	v.char = int16(r.u8(0x7))
	v.x = r.f32(0xA, nan)
	v.y = r.f32(0xE, 0)
	v.facing = r.f32(0x12, nan)
	v.percent = r.f32(postPercent, 0)
	v.attack = int16(r.u8(0x1E))
	v.hitBy = int16(r.u8(0x20))
	v.stocks = int16(r.u8(postStocks))
	v.counter = r.f32(0x22, nan)
	v.lcancel = int16(r.u8(0x33))
	return true
}

// stocksOf is the stock count and percent of the port's kept post-frame
// update at frame index fi, as postAt reads them, without the rest; ok is
// false when the frame has none.
func (d *decoder) stocksOf(fi, port int) (stocks int16, percent float32, ok bool) {
	r := d.payload(d.post[fi*d.slots+port], cmdPost)
	if r.b == nil {
		return 0, 0, false
	}
	return int16(r.u8(postStocks)), r.f32(postPercent, 0), true
}

// preInto reads what the input counts need of the port's kept pre-frame
// update at frame index fi into v, field by field (see postInto).
func (d *decoder) preInto(v *preVals, fi, port int) {
	r := d.payload(d.pre[fi*d.slots+port], cmdPre)
	if r.b == nil {
		*v = preVals{}
		return
	}
	v.ok = true
	v.joystick = stickRegion(r.f32(0x19, nan), r.f32(0x1D, nan))
	v.cstick = stickRegion(r.f32(0x21, nan), r.f32(0x25, nan))
	lt, rt := float64(r.f32(0x33, nan)), float64(r.f32(0x37, nan))
	v.lOn, v.lOff = lt >= triggerOn, lt < triggerOn
	v.rOn, v.rOff = rt >= triggerOn, rt < triggerOn
	v.buttons = 0
	if b := r.u16(0x31); b >= 0 { // physical buttons (1.2.0)
		v.buttons = uint16(b)
	}
}

var nan = float32(math.NaN())

// sjsFrames are the frames slippi-js's stat computers process: numbers
// -123 .. -123+len-1, per player in Game Start order; no frames unless the
// game has two players. The pre-frame updates are read once, in order, by
// the input counts (countInputs), which keep no frame.
type sjsFrames struct {
	ports  []int        // the players' ports (slippi-js settings.players)
	post   [][]postVals // [player][frame - firstFrame]
	inputs [][5]int     // [player], for two-player games
}

// processedFrames collects the frames the stats process: the finalized
// ones from -123 on, while every player has a post-frame update.
func (d *decoder) processedFrames(w *sjsWalk) sjsFrames {
	var s sjsFrames
	for port := 0; port < 4; port++ {
		if d.ports[port].used {
			s.ports = append(s.ports, port)
		}
	}
	s.post = make([][]postVals, len(s.ports))
	if len(s.ports) != 2 || d.post == nil {
		return s // slippi-js computes frame stats for two-player games only
	}
	n := 0
	if w.finalized >= firstFrame {
		n = int(min(w.finalized-firstFrame+1, int64(d.count)))
	}
	for i := range s.ports {
		s.post[i] = postBuf(n)
	}
	s.inputs = make([][5]int, len(s.ports))
	pres := make([][2]preVals, len(s.ports)) // per player the frame's and the one before, by k's parity
frames:
	for k := 0; k < n; k++ {
		fi := d.index(w, int64(k+firstFrame))
		if fi < 0 {
			break
		}
		for _, port := range s.ports {
			if d.post[fi*d.slots+port] == 0 {
				break frames
			}
		}
		for i, port := range s.ports {
			s.post[i] = s.post[i][:k+1]
			d.postInto(&s.post[i][k], fi, port)
			cur := &pres[i][k&1]
			d.preInto(cur, fi, port)
			if k > 0 {
				countInputs(&s.inputs[i], k, cur, &pres[i][(k-1)&1])
			}
		}
	}
	return s
}

// postBufs keeps the processed frames' arrays from one analysis for the
// next (release): stats over a folder analyse replay after replay, each
// needing arrays as long as its game, which were most of what an analysis
// allocated.
var postBufs sync.Pool // of *[]postVals

// postBuf is an empty array of room for n frames.
func postBuf(n int) []postVals {
	if b, ok := postBufs.Get().(*[]postVals); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]postVals, 0, n)
}

// release hands the arrays back once the stats are computed: nothing
// computed keeps a pointer into them.
func (s *sjsFrames) release() {
	for i, b := range s.post {
		if cap(b) > 0 {
			postBufs.Put(&b)
		}
		s.post[i] = nil
	}
}
