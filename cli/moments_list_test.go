package cli

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"rewind/library/aggregate"
	"rewind/library/firstn"
	"rewind/model"
)

// The records a momentList keeps millions of hold no pointer: the
// collector then has nothing to follow in them.
func TestMomentListHoldsNoPointers(t *testing.T) {
	var pointers func(reflect.Type) bool
	pointers = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
			return true
		case reflect.Struct:
			for i := range ty.NumField() {
				if pointers(ty.Field(i).Type) {
					return true
				}
			}
		case reflect.Array:
			return pointers(ty.Elem())
		}
		return false
	}
	for _, v := range []any{foundMoment{}, foundGame{}, foundPlayer{}} {
		if ty := reflect.TypeOf(v); pointers(ty) {
			t.Errorf("%v holds a pointer", ty)
		}
	}
	// the README says a moment takes under a hundred bytes
	if n := reflect.TypeOf(foundMoment{}).Size(); n >= 100 {
		t.Errorf("a foundMoment is %d bytes", n)
	}
}

// A moment reads back from the list as it went in, with its replay's
// path, players and start in its own zone (or none); the order is the
// command's; and a list cut as moments come keeps what a list of all of
// them shows first, in every order.
func TestMomentList(t *testing.T) {
	zone := time.FixedZone("", -5*3600)
	var games []aggregate.Game
	for i := range 40 {
		g := aggregate.Game{Path: fmt.Sprintf("dir/%02d/game.slp", i), Format: "slippi", Partial: i%7 == 3,
			Players: []aggregate.Player{{Slot: "P1", Name: "A", Code: "AA#1", Character: "Fox"}, {Slot: "P2", Name: fmt.Sprint("B", i%3), Character: "Marth", Team: "red"}},
			Summary: &model.Summary{Last: int64(1000 + i)}}
		switch i % 4 {
		case 0: // no start
		case 1:
			g.Start = time.Date(2024, 3, 1+i%5, 18, 0, 0, 123, zone)
		default:
			g.Start = time.Date(2024, 3, 1+i%5, 18, 0, 0, 0, time.UTC)
		}
		for j := range i % 5 {
			g.Summary.Moments = append(g.Summary.Moments, model.MomentRecord{Kind: model.MomentCombo, Frame: int64(10 * j), End: int64(10*j + 5),
				Time: float64(j), EndTime: float64(j) + float64(i%3), By: j % 3, On: 1 - j%2,
				Facts: model.MomentFacts{Damage: float64((i * j) % 17), Hits: j, Kill: j == 2, Move: []string{"", "up smash", "jab"}[j%3], StartPercent: 1.5, EndPercent: 2.5}})
		}
		games = append(games, g)
	}
	var all momentList
	type ref struct{ g, m int }
	var refs []ref
	for gi := range games {
		if len(games[gi].Summary.Moments) > 0 {
			all.add(&games[gi], nil)
		}
		for mi := range games[gi].Summary.Moments {
			refs = append(refs, ref{gi, mi})
		}
	}
	if all.len() != len(refs) {
		t.Fatalf("%d moments, want %d", all.len(), len(refs))
	}
	var v gameView
	for i, r := range refs {
		g, want := &games[r.g], games[r.g].Summary.Moments[r.m]
		if want.By == 2 {
			want.By = -1 // no such player
		}
		got := all.record(uint32(i), &v)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("moment %d: %+v, want %+v", i, got, want)
		}
		if v.path != g.Path || v.format != g.Format || !v.start.Equal(g.Start) || v.start.Format(time.RFC3339Nano) != g.Start.Format(time.RFC3339Nano) ||
			v.start.IsZero() != g.Start.IsZero() || !reflect.DeepEqual(v.players, g.Players) || v.last != g.Summary.Last || v.partial != g.Partial {
			t.Errorf("moment %d's replay: %+v, want %+v", i, v, *g)
		}
	}
	for _, by := range []string{"date", "damage", "length"} {
		// the command's order: a stable sort of the moments as found
		want := slices.Clone(refs)
		slices.SortStableFunc(want, func(a, b ref) int {
			ma, mb := games[a.g].Summary.Moments[a.m], games[b.g].Summary.Moments[b.m]
			switch by {
			case "damage":
				return cmp.Compare(mb.Facts.Damage, ma.Facts.Damage)
			case "length":
				return cmp.Compare(mb.EndTime-mb.Time, ma.EndTime-ma.Time)
			}
			return games[a.g].Start.Compare(games[b.g].Start)
		})
		order := all.order(by)
		for i, n := range order {
			if refs[n] != want[i] {
				t.Fatalf("by %s: %d is %v, want %v", by, i, refs[n], want[i])
			}
		}
		for _, n := range []int{1, 5, 13} {
			var some momentList
			keep := firstn.New(n, 2*n, func(a, b *momentKey) int { return compareKeys(by, *a, *b) },
				func(n int) momentKey { return some.cut(by, n) })
			for gi := range games {
				if len(games[gi].Summary.Moments) > 0 {
					keep.Add(some.add(&games[gi], keep))
				}
			}
			got := some.order(by)[:n]
			var gv gameView
			for i, k := range got {
				m := some.record(k, &gv)
				wm := all.record(order[i], &v)
				if !reflect.DeepEqual(m, wm) || gv.path != v.path || !gv.start.Equal(v.start) || !reflect.DeepEqual(gv.players, v.players) {
					t.Errorf("by %s, cut to %d: %d is %s %+v, want %s %+v", by, n, i, gv.path, m, v.path, wm)
				}
			}
		}
	}
}
