package decodetest

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"rewind/model"
)

// Cuts are the places a file is fed to a Follower in pieces: ends of the
// pieces, ascending, the last one len(data).

// WholeCuts feeds the file in one piece.
func WholeCuts(n int) []int { return []int{n} }

// RandomCuts feeds the file in pieces of 1 to max bytes, as a recorder's
// writes and a poller's reads fall.
func RandomCuts(n, most int, seed int64) []int {
	rng := rand.New(rand.NewSource(seed))
	var cuts []int
	for p := 0; p < n; {
		p = min(n, p+1+rng.Intn(most))
		cuts = append(cuts, p)
	}
	return cuts
}

// ByteCuts feeds the bytes in [lo, hi) one at a time (the places where a
// decoder must wait for the rest of a header or a record), the rest in
// pieces of up to most bytes.
func ByteCuts(n, lo, hi, most int) []int {
	var cuts []int
	for p := 0; p < n; {
		switch {
		case p >= lo && p < hi:
			p++
		case p < lo:
			p = min(lo, p+most) // stop where the bytes one at a time begin
		default:
			p = min(n, p+most)
		}
		if p > 0 {
			cuts = append(cuts, p)
		}
	}
	return cuts
}

// Followed is what a Follower gave along the way.
type Followed struct {
	Final     *model.Replay
	Err       error
	Snapshots []*model.Replay // the distinct snapshots handed out, in order
	Prints    []uint64        // each snapshot's events as they were when it was handed out (digest)
	EndedAt   []string        // Ended() after each piece
}

// digest is a digest of what a snapshot's events say, to tell whether a
// later piece changed a snapshot already handed out.
func digest(r *model.Replay) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for i := range r.Events {
		e := &r.Events[i]
		mix(uint64(e.Frame))
		mix(uint64(e.Player))
		mix(uint64(e.Off))
		mix(uint64(e.Len))
		mix(uint64(e.Kind))
		mix(uint64(e.Stream))
		mix(uint64(e.Flags))
		mix(uint64(e.Ref))
	}
	mix(uint64(r.Timeline.Count))
	return h
}

// Follow feeds data to f in the pieces cuts gives, taking a snapshot after
// every piece (every few pieces when there are thousands), then finishes.
func Follow(f model.Follower, data []byte, cuts []int) Followed {
	var out Followed
	every := max(1, len(cuts)/100)
	var last *model.Replay
	for i, c := range cuts {
		f.Feed(data[:c])
		out.EndedAt = append(out.EndedAt, f.Ended())
		if i%every == 0 || i == len(cuts)-1 {
			if r := f.Replay(); r != nil && r != last {
				out.Snapshots = append(out.Snapshots, r)
				out.Prints = append(out.Prints, digest(r))
				last = r
			}
		}
	}
	out.Final, out.Err = f.Finish()
	return out
}

// SameReplay reports how got differs from want, a decode of the same bytes
// as a whole, "" when it does not: the summary values, header, players,
// timeline, every event (summary and fields too), diagnostics, charts,
// moments and stats, and state and scenes at a spread of frames.
func SameReplay(got, want *model.Replay) string {
	if (got == nil) != (want == nil) {
		return fmt.Sprintf("replay %v, whole decode %v", got != nil, want != nil)
	}
	if got == nil {
		return ""
	}
	type summary struct {
		Format                     model.Format
		FormatName, Version, Title string
		Mode, Result               string
		Size                       int64
		Start                      string
		Duration                   int64
		Partial                    bool
		First                      int64
		Count                      int
		Rate                       float64
		Unit                       string
	}
	sum := func(r *model.Replay) summary {
		return summary{r.Format, r.FormatName, r.Version, r.Title, r.Mode, r.Result, r.Size, r.Start.String(),
			int64(r.Duration), r.Partial, r.Timeline.First, r.Timeline.Count, r.Timeline.Rate, r.Timeline.Unit}
	}
	if g, w := sum(got), sum(want); g != w {
		return fmt.Sprintf("summary\n got %+v\nwant %+v", g, w)
	}
	if s := Diff(got.Header, want.Header); s != "" {
		return "header" + s
	}
	if s := Diff(got.Players, want.Players); s != "" {
		return "players" + s
	}
	if len(got.Diagnostics) != len(want.Diagnostics) {
		return fmt.Sprintf("%d diagnostics, whole decode %d:\n got %v\nwant %v", len(got.Diagnostics), len(want.Diagnostics), got.Diagnostics, want.Diagnostics)
	}
	for i := range got.Diagnostics {
		if got.Diagnostics[i] != want.Diagnostics[i] {
			return fmt.Sprintf("diagnostic %d\n got %#v\nwant %#v", i, got.Diagnostics[i], want.Diagnostics[i])
		}
	}
	if len(got.Events) != len(want.Events) {
		return fmt.Sprintf("%d events, whole decode %d", len(got.Events), len(want.Events))
	}
	// every event; what the decoder says of them (summaries and fields,
	// decoded from the bytes on demand) for a spread of 3,000 and every
	// partial one
	every := max(1, len(got.Events)/3000)
	for i := range got.Events {
		deep := i%every == 0 || got.EventFlag(i) != ""
		if s := sameEvent(got, want, i, i, deep); s != "" {
			return s
		}
	}
	// frames: a spread of them (a timeline may have millions), the
	// events' frames being compared above
	step := max(1, got.Timeline.Count/512)
	for i := 0; i < got.Timeline.Count; i += step {
		if got.Timeline.Label(i) != want.Timeline.Label(i) {
			return fmt.Sprintf("frame %d is labelled %q, whole decode %q", i, got.Timeline.Label(i), want.Timeline.Label(i))
		}
		if lo, hi := got.EventRange(i); true {
			if wlo, whi := want.EventRange(i); lo != wlo || hi != whi {
				return fmt.Sprintf("frame %d holds events %d..%d, whole decode %d..%d", i, lo, hi, wlo, whi)
			}
		}
	}
	if s := Diff(got.Charts, want.Charts); s != "" {
		return "charts" + s
	}
	if s := Diff(got.Analysis(), want.Analysis()); s != "" {
		return "analysis" + s
	}
	n := got.Timeline.Count
	prev := -1
	for k := range 64 {
		f := k * n / 64
		if f >= n {
			break
		}
		if f == prev {
			continue // a timeline shorter than 64 frames: each frame once
		}
		prev = f
		for p := range got.Players {
			if s := Diff(got.PlayerState(f, p), want.PlayerState(f, p)); s != "" {
				return fmt.Sprintf("player %d at frame %d: state%s", p, f, s)
			}
		}
		if s := Diff(got.SceneAt(f), want.SceneAt(f)); s != "" {
			return fmt.Sprintf("scene at frame %d: %s", f, s)
		}
	}
	return ""
}

// sameEvent compares event i of got with event j of want and, with deep,
// what the decoder says of them (summary, fields).
func sameEvent(got, want *model.Replay, i, j int, deep bool) string {
	g, w := &got.Events[i], &want.Events[j]
	if g.Frame != w.Frame || slot(got, int(g.Player)) != slot(want, int(w.Player)) || got.EventKind(i) != want.EventKind(j) ||
		got.EventSpan(i) != want.EventSpan(j) || got.EventNotable(i) != want.EventNotable(j) || got.EventFlag(i) != want.EventFlag(j) ||
		g.Ref != w.Ref {
		return fmt.Sprintf("event %d\n got %+v\nwant %+v", i, *g, *w)
	}
	if !deep {
		return ""
	}
	if gs, ws := got.EventSummary(i), want.EventSummary(j); gs != ws {
		return fmt.Sprintf("event %d summary\n got %q\nwant %q", i, gs, ws)
	}
	if s := DiffFields(got.EventFields(i), want.EventFields(j)); s != "" {
		return fmt.Sprintf("event %d fields%s", i, s)
	}
	return ""
}

// slot names player p of r: events are compared by whom they name, as a
// snapshot may list fewer players than the final replay (teehistorian's
// players are in client id order, and a client with a lower id may join
// later).
func slot(r *model.Replay, p int) string {
	if p == -1 {
		return "none"
	}
	if p < 0 || p >= len(r.Players) {
		return fmt.Sprintf("player %d", p)
	}
	return r.Players[p].Slot
}

// Prefix reports how snap, a snapshot taken while the file was written,
// is not the start of final: every frame it has must hold in final the
// events it holds (an event cut off by the end of the data, which final
// adds at the end of a frame, aside), and the players it names exist.
// What the decoder says of the events (summaries, fields) is compared
// from frame from on: a test passes the frames no earlier snapshot had,
// so that a run of snapshots costs about one comparison of the replay.
func Prefix(snap, final *model.Replay, from int) string {
	n := snap.Timeline.Count
	if n > final.Timeline.Count || (n > 0 && snap.Timeline.First != final.Timeline.First) {
		return fmt.Sprintf("snapshot frames %d+%d, final %d+%d", snap.Timeline.First, n, final.Timeline.First, final.Timeline.Count)
	}
	if len(snap.Players) > len(final.Players) {
		return fmt.Sprintf("snapshot has %d players, final %d", len(snap.Players), len(final.Players))
	}
	// the final replay's events of those frames, less the cut-off ones,
	// pair up with the snapshot's
	j := 0
	for i := range snap.Events {
		for j < len(final.Events) && final.EventPartial(j) {
			j++
		}
		if j >= len(final.Events) || int(final.Events[j].Frame) >= n {
			return fmt.Sprintf("the snapshot has event %d at frame %d, which the final replay has not", i, snap.Events[i].Frame)
		}
		if s := sameEvent(snap, final, i, j, int(snap.Events[i].Frame) >= from); s != "" {
			return fmt.Sprintf("frame %d: %s", snap.Events[i].Frame, s)
		}
		j++
	}
	for ; j < len(final.Events) && int(final.Events[j].Frame) < n; j++ {
		if !final.EventPartial(j) {
			return fmt.Sprintf("the final replay has event %d at frame %d, which the snapshot has not", j, final.Events[j].Frame)
		}
	}
	return ""
}

// CheckFollow feeds data to a new Follower in the pieces cuts gives and
// holds the result to what following promises: Finish equals decode of
// the whole data, every snapshot is the start of it (checked when it is
// a digest of its events taken when it was handed out must still hold at
// the end: a later piece never changes a snapshot), and the snapshots'
// frames only grow.
func CheckFollow(t testing.TB, what string, follow func(model.DecodeOptions) model.Follower,
	decode func([]byte, model.DecodeOptions) (*model.Replay, error), data []byte, cuts []int) Followed {
	t.Helper()
	return checkFollow(t, what, follow, decode, data, cuts, false)
}

// CheckFollowAny is CheckFollow for any bytes (fuzz targets): no panic,
// Finish equals a whole decode, and no snapshot changes once handed out.
// That the snapshots are the start of the final replay holds for real
// recordings only: a damaged file may number or complete its frames in a
// way that only its later bytes decide (Slippi: a frame number below the
// first one seen, a frame sent again after the frames beyond it were
// complete), and a follower that meets that decodes the file again.
func CheckFollowAny(t testing.TB, what string, follow func(model.DecodeOptions) model.Follower,
	decode func([]byte, model.DecodeOptions) (*model.Replay, error), data []byte, cuts []int) Followed {
	t.Helper()
	return checkFollow(t, what, follow, decode, data, cuts, true)
}

func checkFollow(t testing.TB, what string, follow func(model.DecodeOptions) model.Follower,
	decode func([]byte, model.DecodeOptions) (*model.Replay, error), data []byte, cuts []int, damaged bool) Followed {
	t.Helper()
	want, werr := decode(data, model.DecodeOptions{})
	fw := Follow(follow(model.DecodeOptions{}), data, cuts)
	if (werr == nil) != (fw.Err == nil) {
		t.Fatalf("%s: finish gave error %v, whole decode %v", what, fw.Err, werr)
	}
	if werr != nil {
		if fw.Err.Error() != werr.Error() {
			t.Fatalf("%s: finish refused with %q, whole decode %q", what, fw.Err, werr)
		}
		return fw
	}
	if s := SameReplay(fw.Final, want); s != "" {
		t.Fatalf("%s: finish differs from the whole decode: %s", what, s)
	}
	prev := 0
	for k, s := range fw.Snapshots {
		from := prev
		if damaged {
			if digest(s) != fw.Prints[k] {
				t.Fatalf("%s: snapshot %d changed after it was handed out", what, k)
			}
			Check(t, s, nil, s.Data, model.DecodeOptions{}) // a replay like any other
			continue
		}
		if s.Timeline.Count < prev {
			t.Fatalf("%s: snapshot %d has %d frames, the one before %d", what, k, s.Timeline.Count, prev)
		}
		prev = s.Timeline.Count
		if digest(s) != fw.Prints[k] {
			t.Fatalf("%s: snapshot %d changed after it was handed out", what, k)
		}
		if msg := Prefix(s, fw.Final, from); msg != "" {
			t.Fatalf("%s: snapshot %d is not the start of the replay: %s", what, k, msg)
		}
	}
	return fw
}

// SortedCuts returns cuts sorted, deduplicated, inside (0, n] and ending
// at n.
func SortedCuts(n int, cuts ...int) []int {
	var out []int
	sort.Ints(cuts)
	for _, c := range cuts {
		if c > 0 && c < n && (len(out) == 0 || out[len(out)-1] != c) {
			out = append(out, c)
		}
	}
	return append(out, n)
}

// BenchFollow measures following the file data (named name) against one
// decode of it: pieces of 4 KiB (a poller reading a growing netplay game
// every 100 ms) and of 256 bytes, each with and without a snapshot after
// every piece, as the TUI takes them. Following must cost about one
// decode, not one per piece.
func BenchFollow(b *testing.B, name string, data []byte, follow func(model.DecodeOptions) model.Follower,
	decode func([]byte, model.DecodeOptions) (*model.Replay, error)) {
	b.Run(name+"/decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := decode(data, model.DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, piece := range []int{4096, 256} {
		cuts := RandomCuts(len(data), 2*piece, 1) // piece bytes on average
		for _, snap := range []bool{false, true} {
			what := "follow"
			if snap {
				what += "+snapshots"
			}
			b.Run(fmt.Sprintf("%s/%s-%dB", name, what, piece), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					f := follow(model.DecodeOptions{})
					for _, c := range cuts {
						f.Feed(data[:c])
						if snap {
							f.Replay()
						}
					}
					if _, err := f.Finish(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(cuts)), "pieces")
			})
		}
	}
}
