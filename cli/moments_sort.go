package cli

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/model"
)

// momentSorter puts the moments of an archive in an order in bounded
// memory: a run of them is kept in a momentList, and a run that reaches
// runBytes is sorted and written to a temporary file; at the end the
// runs are merged. A sort that fits in one run writes no file.
//
// The runs are sections of one file, removed from its folder as soon as
// it is made where the system allows (it then goes with the process,
// however that ends) and otherwise on close. A tie goes to the moment
// found first, as in the list's own order: within a run the sort keeps
// them in the order found, and every moment of a run was found before
// those of the runs after it.
type momentSorter struct {
	by       string
	runBytes int
	dir      string // where the file goes
	list     momentList
	file     *os.File
	name     string // the file's name while it is still in its folder
	w        *bufio.Writer
	written  int64
	runs     []runSection
	buf      []byte
}

// runSection is a sorted run: n bytes of the file from off.
type runSection struct{ off, n int64 }

// momentRunBytes is the memory a run of moments may take before it is
// written out: what the run holds comes on top of the index's rows, and
// the heap grows past it while a written run's memory waits for the
// collector. Smaller runs cost next to nothing in time, each read back
// through its share of mergeMemory: the million's combos by damage peak
// at 331 MB with runs of 8 MB and at 354 MB with runs of 32 MB, in 23 s
// either way. It is a variable so tests can make it small.
var momentRunBytes = 8 << 20

// spillDir is where a sort's file goes: the cache folder the index is in
// (REWIND_CACHE, else the user's cache directory), else the temporary
// folder. A temporary folder is often memory (tmpfs), which a sort that
// spills to stay within memory must not use when it has a choice.
func spillDir() string {
	if p, err := library.DefaultIndexPath(); err == nil {
		dir := filepath.Dir(p)
		if os.MkdirAll(dir, 0o755) == nil {
			return dir
		}
	}
	return os.TempDir()
}

func newMomentSorter(by string) *momentSorter {
	return &momentSorter{by: by, runBytes: momentRunBytes, dir: spillDir()}
}

// add keeps g's moments, writing the run out when it is full.
func (s *momentSorter) add(g *aggregate.Game) error {
	s.list.add(g, nil)
	if s.list.bytes() >= s.runBytes {
		return s.spill()
	}
	return nil
}

// spill sorts the run and writes it to the file, leaving the list empty.
func (s *momentSorter) spill() error {
	if s.list.len() == 0 {
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, "rewind-moments-*.tmp")
		if err != nil {
			return fmt.Errorf("sorting the moments: %w", err)
		}
		s.file, s.name = f, f.Name()
		if os.Remove(s.name) == nil {
			s.name = "" // gone from the folder; the file lives while it is open
		}
		s.w = bufio.NewWriterSize(f, 256<<10)
	}
	start := s.written
	prev := ^uint32(0)
	for _, i := range s.list.order(s.by) {
		m := s.list.moments.At(int(i))
		b := s.buf[:0]
		if m.game != prev {
			prev = m.game
			g := s.list.games.At(int(m.game))
			b = append(b, 1)
			b = appendGame(b, g, s.list.paths.get(g.chunk, g.off, g.n), func(j uint32) *foundPlayer { return s.list.players.At(int(g.player + j)) })
		} else {
			b = append(b, 0)
		}
		b = appendMoment(b, m)
		s.buf = b
		n, err := s.w.Write(b)
		s.written += int64(n)
		if err != nil {
			return fmt.Errorf("sorting the moments: %w", err)
		}
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sorting the moments: %w", err)
	}
	s.runs = append(s.runs, runSection{start, s.written - start})
	s.list.reset()
	return nil
}

// each hands the moments to yield in order until it returns false or ctx
// ends.
func (s *momentSorter) each(ctx context.Context, yield func(g *gameView, m *model.MomentRecord) bool) error {
	if len(s.runs) == 0 {
		var g gameView
		for k, i := range s.list.order(s.by) {
			if k%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			m := s.list.record(i, &g)
			if !yield(&g, &m) {
				return nil
			}
		}
		return nil
	}
	if err := s.spill(); err != nil {
		return err
	}
	return s.merge(ctx, yield)
}

// close lets go of the file (and removes it, when it is still in its
// folder).
func (s *momentSorter) close() {
	if s.file != nil {
		s.file.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
		s.file = nil
	}
}

// runReader reads a run back: its current moment and replay.
type runReader struct {
	sec     *io.SectionReader
	r       *bufio.Reader
	run     int // the run's place: a tie goes to the earlier run
	m       foundMoment
	g       foundGame
	path    []byte
	players []foundPlayer
	changed bool // g is new since the view was made
	view    gameView
	key     momentKey
}

// mergeMemory is what the runs read ahead, together: each reads ahead
// its share of it, between 4 and 64 KB.
const mergeMemory = 16 << 20

// merge hands the moments of the runs to yield in order: the first of
// the runs' next ones, each time.
func (s *momentSorter) merge(ctx context.Context, yield func(g *gameView, m *model.MomentRecord) bool) error {
	var heads []*runReader
	ahead := min(max(mergeMemory/len(s.runs), 4<<10), 64<<10)
	for i, r := range s.runs {
		sec := io.NewSectionReader(s.file, r.off, r.n)
		rr := &runReader{sec: sec, r: bufio.NewReaderSize(sec, ahead), run: i}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heads = append(heads, rr)
		}
	}
	less := func(a, b *runReader) bool {
		if c := compareKeys(s.by, a.key, b.key); c != 0 {
			return c < 0
		}
		return a.run < b.run
	}
	h := runHeap{heads, less}
	h.init()
	for n := 0; len(h.rs) > 0; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rr := h.rs[0]
		if rr.changed {
			s.list.view(&rr.view, &rr.g, rr.path, func(j uint32) *foundPlayer { return &rr.players[j] })
			rr.changed = false
		}
		m := s.list.moment(&rr.m)
		if !yield(&rr.view, &m) {
			return nil
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			h.fix()
		} else {
			h.pop()
		}
	}
	return nil
}

// runHeap is a heap of the runs by their next moments.
type runHeap struct {
	rs   []*runReader
	less func(a, b *runReader) bool
}

func (h *runHeap) init() {
	for i := len(h.rs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// fix puts the first run, whose moment changed, in its place.
func (h *runHeap) fix() { h.down(0) }

// pop drops the first run.
func (h *runHeap) pop() {
	last := len(h.rs) - 1
	h.rs[0] = h.rs[last]
	h.rs = h.rs[:last]
	h.down(0)
}

func (h *runHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h.rs) {
			return
		}
		c := l
		if r := l + 1; r < len(h.rs) && h.less(h.rs[r], h.rs[l]) {
			c = r
		}
		if !h.less(h.rs[c], h.rs[i]) {
			return
		}
		h.rs[i], h.rs[c] = h.rs[c], h.rs[i]
		i = c
	}
}

// The file's records: a byte that says whether a replay follows (1) or the
// moment is of the replay before (0), the replay, the moment. Numbers are
// varints, reals their 8 bytes; strings are numbers into the sorter's
// names, which stay in memory.

func appendGame(b []byte, g *foundGame, path []byte, player func(j uint32) *foundPlayer) []byte {
	b = binary.AppendUvarint(b, uint64(len(path)))
	b = append(b, path...)
	b = binary.AppendUvarint(b, uint64(g.format))
	b = binary.AppendVarint(b, g.sec)
	b = binary.AppendVarint(b, int64(g.nsec))
	b = binary.AppendUvarint(b, uint64(g.zone))
	b = binary.AppendVarint(b, g.last)
	b = appendBool(b, g.partial)
	b = binary.AppendUvarint(b, uint64(g.nPlayers))
	for j := range g.nPlayers {
		p := player(j)
		for _, s := range [...]uint32{p.slot, p.name, p.code, p.character, p.team} {
			b = binary.AppendUvarint(b, uint64(s))
		}
	}
	return b
}

func appendMoment(b []byte, m *foundMoment) []byte {
	b = binary.AppendUvarint(b, uint64(m.kind))
	b = binary.AppendUvarint(b, uint64(m.move))
	b = binary.AppendVarint(b, int64(m.by))
	b = binary.AppendVarint(b, int64(m.on))
	b = binary.AppendVarint(b, m.frame)
	b = binary.AppendVarint(b, m.end)
	for _, f := range [...]float64{m.time, m.endTime, m.damage, m.startPercent, m.endPercent} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendVarint(b, int64(m.hits))
	return appendBool(b, m.kill)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// errRun is a run that does not read back as it was written.
var errRun = errors.New("sorting the moments: a temporary file reads back damaged")

// next reads the run's next moment (and its replay, when it has one);
// false at the end of the run.
func (rr *runReader) next() (bool, error) {
	tag, err := rr.r.ReadByte()
	if err == io.EOF {
		if at, _ := rr.sec.Seek(0, io.SeekCurrent); at != rr.sec.Size() {
			return false, errRun // the file ends before the run
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	d := runDecoder{r: rr.r}
	switch tag {
	case 0:
	case 1:
		n := d.uvarint()
		if d.err == nil && n > 1<<20 {
			return false, errRun
		}
		rr.path = d.bytes(rr.path, int(n))
		rr.g = foundGame{format: uint32(d.uvarint()), sec: d.varint(), nsec: int32(d.varint()), zone: uint32(d.uvarint()),
			last: d.varint(), partial: d.bool()}
		rr.g.nPlayers = uint32(d.uvarint())
		if d.err == nil && rr.g.nPlayers > 1<<16 {
			return false, errRun
		}
		rr.players = rr.players[:0]
		for range rr.g.nPlayers {
			rr.players = append(rr.players, foundPlayer{uint32(d.uvarint()), uint32(d.uvarint()), uint32(d.uvarint()),
				uint32(d.uvarint()), uint32(d.uvarint())})
		}
		rr.changed = true
	default:
		return false, errRun
	}
	rr.m = foundMoment{kind: uint32(d.uvarint()), move: uint32(d.uvarint()), by: int32(d.varint()), on: int32(d.varint()),
		frame: d.varint(), end: d.varint(), time: d.float(), endTime: d.float(), damage: d.float(),
		startPercent: d.float(), endPercent: d.float(), hits: int(d.varint()), kill: d.bool()}
	if d.err != nil {
		if d.err == io.EOF || d.err == io.ErrUnexpectedEOF {
			return false, errRun
		}
		return false, d.err
	}
	rr.key = momentKey{rr.m.damage, rr.m.endTime - rr.m.time, instant{rr.g.sec, rr.g.nsec}}
	return true, nil
}

// runDecoder reads a record's fields, keeping the first error.
type runDecoder struct {
	r   *bufio.Reader
	err error
}

func (d *runDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(d.r)
	d.err = err
	return v
}

func (d *runDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, err := binary.ReadVarint(d.r)
	d.err = err
	return v
}

func (d *runDecoder) float() float64 {
	var b [8]byte
	if d.err == nil {
		_, d.err = io.ReadFull(d.r, b[:])
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
}

func (d *runDecoder) bool() bool {
	if d.err != nil {
		return false
	}
	c, err := d.r.ReadByte()
	d.err = err
	return c == 1
}

func (d *runDecoder) bytes(dst []byte, n int) []byte {
	if d.err != nil {
		return dst
	}
	dst = slices.Grow(dst[:0], n)[:n]
	_, d.err = io.ReadFull(d.r, dst)
	return dst
}
