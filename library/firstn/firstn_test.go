package firstn

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
)

type item struct{ key, found int }

// A keeper's kept items are the first n of a stable sort of all offered
// (ties keep the order found), whatever the order they come in, however
// often it cuts, and it never holds more than most of them.
func TestKeeper(t *testing.T) {
	sequences := map[string][]int{
		"ascending":  {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
		"descending": {20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1},
		"all tied":   {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7},
		"few keys":   {3, 1, 2, 3, 1, 1, 2, 3, 3, 2, 1, 2, 2, 3, 1, 3, 1, 2, 2, 1, 3, 3, 1, 2, 1, 1},
		"ties late":  {5, 9, 1, 9, 9, 1, 5, 5, 1, 0, 0, 9, 1, 5, 0, 1, 1, 0, 5, 9, 9, 0},
		"one":        {4},
		"none":       {},
	}
	for name, keys := range sequences {
		for _, n := range []int{1, 2, 3, 5, 10, len(keys), len(keys) + 4} {
			if n < 1 {
				continue
			}
			for _, most := range []int{n + 1, 2 * n, 3*n + 7} {
				t.Run(fmt.Sprintf("%s/n=%d/most=%d", name, n, most), func(t *testing.T) {
					var held []item
					compare := func(a, b *item) int { return cmp.Compare(a.key, b.key) }
					cuts := 0
					k := New(n, most, compare, func(n int) item {
						cuts++
						slices.SortStableFunc(held, func(a, b item) int { return compare(&a, &b) })
						held = held[:min(n, len(held))]
						return held[len(held)-1]
					})
					for i, key := range keys {
						it := item{key, i}
						if !k.Wants(&it) {
							continue
						}
						held = append(held, it)
						k.Add(1)
						if len(held) >= max(most, n+1) || k.Held() != len(held) {
							t.Fatalf("after item %d: holding %d (keeper says %d), most %d", i, len(held), k.Held(), most)
						}
					}
					k.Cut()
					all := make([]item, len(keys))
					for i, key := range keys {
						all[i] = item{key, i}
					}
					slices.SortStableFunc(all, func(a, b item) int { return cmp.Compare(a.key, b.key) })
					want := all[:min(n, len(all))]
					if !slices.Equal(held, want) {
						t.Errorf("kept %v, want %v (%d cuts)", held, want, cuts)
					}
				})
			}
		}
	}
}

// A keeper that has not cut wants everything; after a cut that kept n it
// wants only what sorts before the last kept, not a tie with it.
func TestKeeperWants(t *testing.T) {
	held := []int{5, 3, 8, 1}
	k := New(2, 4, func(a, b *int) int { return cmp.Compare(*a, *b) }, func(n int) int {
		slices.Sort(held)
		held = held[:n]
		return held[n-1]
	})
	for _, v := range []int{100, -1, 3} {
		if !k.Wants(&v) {
			t.Errorf("before a cut: %d not wanted", v)
		}
	}
	k.Add(4) // cuts: keeps 1, 3
	for v, want := range map[int]bool{0: true, 2: true, 3: false, 4: false, 100: false} {
		if got := k.Wants(&v); got != want {
			t.Errorf("after the cut to %v: Wants(%d) = %v", held, v, got)
		}
	}
}
