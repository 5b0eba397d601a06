package cli

import (
	"bytes"
	"strings"
	"testing"

	"rewind/library"
)

// Over the index, the moments are read from it as the scan chooses the
// replays; without it (--no-cache), from the scan's own summaries: the
// two write the same bytes, say the same and exit alike in every order,
// with and without --limit, as lines and as JSON (each order in two of
// those), for a query with moment and replay terms and for none.
func TestMomentsOverIndexSameAsWithout(t *testing.T) {
	paths := []string{"testdata/samples"}
	// the corpus's formats but Slippi's (the samples have it), which
	// would take most of the time
	for _, f := range []string{"bsor", "fzgx", "osr", "teehistorian"} {
		if dir := "../shared/corpus/" + f; fileExists(dir) {
			paths = append(paths, dir)
		}
	}
	t.Setenv(library.CacheEnv, t.TempDir())
	moments := func(args ...string) (string, string, int) {
		t.Helper()
		var out, errb bytes.Buffer
		code := run(append([]string{"moments"}, args...), &out, &errb)
		return out.String(), errb.String(), code
	}
	extras := [][]string{nil, {"--json", "--limit", "7"}, {"--limit", "300"}, {"--json"}}
	n := 0
	for _, query := range []string{"", "kind:combo,kill,stock,lap -kill -format:osr"} {
		for _, by := range []string{"damage", "length", "date"} {
			args := append(append([]string{"--sort", by}, extras[n%len(extras)]...), paths...)
			args = append(args, query)
			n++
			want, wantErr, wantCode := moments(append([]string{"--no-cache"}, args...)...)
			if strings.Count(want, "\n") < 7 || wantCode != 0 && wantCode != 2 {
				t.Fatalf("moments --no-cache %q: %d bytes, exit %d", args, len(want), wantCode)
			}
			got, gotErr, code := moments(args...)
			if got != want || code != wantCode {
				t.Errorf("moments %q over the index: %d lines (exit %d), without %d (exit %d)", args, strings.Count(got, "\n"), code, strings.Count(want, "\n"), wantCode)
			}
			if gotErr != wantErr {
				t.Errorf("moments %q over the index says\n%s\nwithout\n%s", args, gotErr, wantErr)
			}
		}
	}
}
