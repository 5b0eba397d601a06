package budget

import (
	"errors"
	"math"
	"slices"
	"sync"
	"testing"

	"rewind/model"
)

func TestDefaultGrowsWithTheFile(t *testing.T) {
	tests := []struct {
		size        int64
		bytes, step int64
	}{
		{0, BaseBytes, BaseSteps},
		{1000, BaseBytes + 1000*BytesPerByte, BaseSteps + 1000*StepsPerByte},
		{math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{-5, BaseBytes, BaseSteps},
	}
	for _, tt := range tests {
		got := Default(tt.size)
		if got.Bytes != tt.bytes || got.Steps != tt.step {
			t.Errorf("Default(%d) = %+v, want bytes %d steps %d", tt.size, got, tt.bytes, tt.step)
		}
	}
}

func TestRefusalIsStickyAndSaysWhatAsked(t *testing.T) {
	b := New(0, model.Limits{Bytes: 100, Steps: 10})
	if err := b.Alloc("names", 60); err != nil {
		t.Fatal(err)
	}
	err := b.Items("replay.details: player structs", 5, 10)
	var be *model.BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("Items over the budget = %v, want a BudgetError", err)
	}
	if be.What != "replay.details: player structs" || be.Wanted != 50 || be.Left != 40 || be.Limit != 100 || be.Unit != "bytes" {
		t.Errorf("error = %+v", be)
	}
	// later claims, even small ones, fail with the first refusal
	if err := b.Alloc("anything", 1); err != be {
		t.Errorf("after a refusal Alloc = %v, want the first refusal", err)
	}
	if err := b.Step("loop", 1); err != be {
		t.Errorf("after a refusal Step = %v, want the first refusal", err)
	}
	d := b.Diagnostic("sc2", model.Span{Stream: "replay.details", Off: 3}, -1)
	if d.Severity != model.Error || d.Subject != be.What || d.Found != "a claim of 50 bytes" {
		t.Errorf("diagnostic = %+v", d)
	}
}

func TestOverflowingClaimsAreRefused(t *testing.T) {
	for name, claim := range map[string]func(*Budget) error{
		"count×size overflows": func(b *Budget) error { return b.Items("x", math.MaxInt64/2, 4) },
		"negative count":       func(b *Budget) error { return b.Items("x", -1, 4) },
		"negative bytes":       func(b *Budget) error { return b.Alloc("x", -1) },
		"negative steps":       func(b *Budget) error { return b.Step("x", -1) },
	} {
		if err := claim(New(1<<20, model.Limits{})); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestConcurrentClaimsNeverOverspend(t *testing.T) {
	b := New(0, model.Limits{Bytes: 1000, Steps: 1})
	var wg sync.WaitGroup
	var mu sync.Mutex
	paid := int64(0)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if b.Alloc("x", 3) == nil {
					mu.Lock()
					paid += 3
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if paid > 1000 {
		t.Errorf("paid %d bytes from a budget of 1000", paid)
	}
	if !b.Exhausted() {
		t.Error("800 claims of 3 bytes did not exhaust a budget of 1000")
	}
}

func TestMakePaysFirst(t *testing.T) {
	b := New(0, model.Limits{Bytes: 1000, Steps: 1})
	s, err := Make[int64](b, "values", 100)
	if err != nil || len(s) != 100 || b.Left().Bytes != 200 {
		t.Fatalf("Make 100 int64 = len %d, %v, %d bytes left", len(s), err, b.Left().Bytes)
	}
	if s, err := Make[int64](b, "more values", 26); err == nil || s != nil {
		t.Fatalf("Make past the budget = %d values, %v", len(s), err)
	}
	if e := b.Err(); e == nil || e.What != "more values" || e.Wanted != 208 || e.Left != 200 {
		t.Errorf("refusal = %+v", e)
	}
}

func TestGrowPaysForEachMove(t *testing.T) {
	b := New(0, model.Limits{Bytes: 1 << 20, Steps: 1})
	var s []int32
	for i := 0; i < 1000; i++ {
		var err error
		if s, err = Grow(b, "ticks", s, 1); err != nil {
			t.Fatal(err)
		}
		s = append(s, int32(i))
	}
	// a slice built by appending has paid for every array it had, as
	// append grew it
	var want int64
	var r []int32
	for i := 0; i < 1000; i++ {
		if len(r) == cap(r) {
			r = slices.Grow(r, 1)
			want += 4 * int64(cap(r))
		}
		r = append(r, 0)
	}
	if paid := 1<<20 - b.Left().Bytes; paid != want || cap(s) != cap(r) {
		t.Errorf("paid %d bytes for %d values (cap %d), want %d (cap %d)", paid, len(s), cap(s), want, cap(r))
	}
	for i, v := range s {
		if v != int32(i) {
			t.Fatalf("s[%d] = %d after growing", i, v)
		}
	}
	small := New(0, model.Limits{Bytes: 100, Steps: 1})
	s2 := make([]int64, 10)
	if got, err := Grow(small, "big", s2, 100); err == nil || len(got) != 10 {
		t.Errorf("Grow past the budget = len %d, %v", len(got), err)
	}
	// room that is there already costs nothing
	if got, err := Grow(small, "none needed", s2[:0], 5); err != nil || cap(got) != 10 {
		t.Errorf("Grow within capacity = cap %d, %v", cap(got), err)
	}
}

func TestPromise(t *testing.T) {
	if Promise(0) != 64<<20 || Promise(1<<20) != 64<<20+32<<20 || Promise(math.MaxInt64) != math.MaxInt64 {
		t.Errorf("Promise = %d, %d", Promise(0), Promise(1<<20))
	}
	// the default allowance sits under the promise, with room for Go's own
	// overhead and the bytes of the file
	for _, n := range []int64{0, 1 << 10, 1 << 20, 100 << 20} {
		if d := Default(n); d.Bytes+n > Promise(n) {
			t.Errorf("Default(%d) = %d bytes, over the promise %d", n, d.Bytes, Promise(n))
		}
	}
}
