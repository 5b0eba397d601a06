// Package decodetest holds the checks every decoder's tests share: the
// contract a decode keeps on any input (Check), and the budget's promise: what a
// decode allocated, and the diagnostic a refusal must leave.
package decodetest

import (
	"runtime"
	"strings"
	"testing"

	"rewind/model"
)

// Allocated runs f and returns the bytes the process allocated meanwhile
// (runtime.MemStats.TotalAlloc, which counts garbage too, so it bounds the
// peak from above). It measures the whole process: callers do not run in
// parallel.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Refused checks that r is the partial replay of a decode the budget
// stopped: partial, never clean, with one error diagnostic that names what
// asked (a substring of its subject), says by how much, and points inside
// the data.
func Refused(t testing.TB, r *model.Replay, what string) model.Diagnostic {
	t.Helper()
	if r == nil {
		t.Fatal("no replay: a decode the budget stopped keeps what it decoded before")
	}
	if !r.Partial {
		t.Error("a decode the budget stopped is not marked partial")
	}
	var found []model.Diagnostic
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, "decode budget") {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d budget diagnostics, want 1: %v", len(found), r.Diagnostics)
	}
	d := found[0]
	if d.Severity != model.Error {
		t.Errorf("budget diagnostic is a %s, want an error: %v", d.Severity, d)
	}
	if !strings.Contains(d.Subject, what) {
		t.Errorf("budget diagnostic names %q, want %q", d.Subject, what)
	}
	if !strings.HasPrefix(d.Found, "a claim of ") || !strings.HasPrefix(d.Expected, "at most ") {
		t.Errorf("budget diagnostic does not say by how much: expected %q, found %q", d.Expected, d.Found)
	}
	if d.Span.Stream == "" && (d.Span.Off < 0 || d.Span.End() > r.Size) {
		t.Errorf("budget diagnostic at %v+%d outside the %d bytes of the file", d.Span, d.Span.Len, r.Size)
	}
	if r.Problems() == 0 {
		t.Error("a decode the budget stopped is reported clean")
	}
	return d
}

// Budgeted decodes data under the limits lim (zero fields: the default
// budget), measures what the decode allocated, and holds the result to the
// contract (Check). A decode the budget stops must still come back as a
// replay, never as a refusal.
func Budgeted(t testing.TB, decode func([]byte, model.DecodeOptions) (*model.Replay, error), data []byte, lim model.Limits) (*model.Replay, uint64) {
	t.Helper()
	var r *model.Replay
	var err error
	opt := model.DecodeOptions{Limits: lim}
	alloc := Allocated(func() { r, err = decode(data, opt) })
	if err != nil {
		t.Fatalf("refused outright: %v (a decode the budget stops keeps its partial replay)", err)
	}
	Check(t, r, err, data, opt)
	r.Data, r.Size = data, int64(len(data))
	return r, alloc
}
