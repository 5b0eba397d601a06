package corpus

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that notes a skip or a failure instead of
// ending the real test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func run(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// With ../shared present a missing name fails (a renamed corpus file must
// not turn a test into a pass); without it the test skips with NotFound.
func TestMissingFiles(t *testing.T) {
	_, shared := Shared(t)
	for name, f := range map[string]func(testing.TB){
		"file":   func(tb testing.TB) { File(tb, "slp", "no-such-project/renamed.slp") },
		"folder": func(tb testing.TB) { Dir(tb, "no-such-format") },
	} {
		r := run(t, f)
		switch {
		case shared && (r.failed == "" || r.skipped != ""):
			t.Errorf("%s: with ../shared present, a missing %s gave failure %q, skip %q; want a failure", name, name, r.failed, r.skipped)
		case !shared && !strings.HasPrefix(r.skipped, NotFound):
			t.Errorf("%s: without ../shared, skip %q, failure %q; want a skip starting %q", name, r.skipped, r.failed, NotFound)
		}
	}
	if shared {
		r := run(t, func(tb testing.TB) { File(tb, "slp", "project-slippi__slippi-js/slp__rollbackFrameTest.slp") })
		if r.failed != "" || r.skipped != "" {
			t.Errorf("a corpus file that is there: failure %q, skip %q", r.failed, r.skipped)
		}
	}
}
