// Package firstn keeps the first N of an order among items that come one
// at a time, holding a bounded number of them: the N biggest combos of a
// million replays (moments --limit, the TUI's moments view) without the
// matches of a million replays in memory.
package firstn

// Keeper decides which items are worth holding and when to cut what is
// held to the first N; the caller holds the items (in whatever list suits
// them) and sorts and cuts them when asked (the cut callback). An item
// is compared by its key; a tie goes to the item found first, so the kept
// items are the first N of a stable sort of all of them.
type Keeper[K any] struct {
	n, most int
	compare func(a, b *K) int
	cut     func(n int) K
	held    int
	full    bool // a cut kept n: bar is the last of them
	bar     K
}

// New keeps the first n items (n >= 1) by compare, cutting what is held
// to them whenever most (more than n) are held. cut sorts the items held,
// keeps the first n of them (all, when fewer are held) and returns the
// key of the last kept.
func New[K any](n, most int, compare func(a, b *K) int, cut func(n int) K) *Keeper[K] {
	return &Keeper[K]{n: n, most: max(most, n+1), compare: compare, cut: cut}
}

// Wants reports whether an item of key k can be among the first n: not
// once a cut kept n and k does not sort before the last of them (a later
// item that ties with it sorts after it). An item not wanted could only
// be cut again.
func (k *Keeper[K]) Wants(key *K) bool { return !k.full || k.compare(key, &k.bar) < 0 }

// Add counts n items the caller added (wanted ones); once most are held,
// it cuts them to the first N.
func (k *Keeper[K]) Add(n int) {
	k.held += n
	if k.held >= k.most {
		k.Cut()
	}
}

// Cut cuts what is held to the first N now (the caller's last step).
func (k *Keeper[K]) Cut() {
	if k.held == 0 {
		return
	}
	bar := k.cut(k.n)
	if k.held >= k.n {
		k.held, k.full, k.bar = k.n, true, bar
	}
}

// Held is how many items are held.
func (k *Keeper[K]) Held() int { return k.held }
