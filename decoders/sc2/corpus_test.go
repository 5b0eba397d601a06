package sc2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func corpusFiles(t testing.TB) []string {
	dir := corpus.Dir(t, "sc2")
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		l := strings.ToLower(p)
		if strings.Contains(l, ".sc2replay") || strings.HasSuffix(l, ".replay") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// TestCorpusAll decodes every real file: none may panic; count outcomes.
func TestCorpusAll(t *testing.T) {
	var ok, partial, refused, withTracker, withChat int
	for _, p := range corpusFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			refused++
			t.Logf("%s: refused: %v", filepath.Base(p), err)
			continue
		}
		if r.Partial {
			partial++
		} else {
			ok++
		}
		kinds := map[string]int{}
		for _, e := range r.Events {
			kinds[e.Kind]++
		}
		if kinds["born"] > 0 {
			withTracker++
		}
		if kinds["chat"] > 0 {
			withChat++
		}
		if testing.Verbose() {
			var ds []string
			for _, d := range r.Diagnostics {
				if d.Severity >= model.Warning {
					ds = append(ds, d.String())
				}
			}
			t.Logf("%s: %s base %d %q %q %s players %d events %d %v %v", filepath.Base(p), r.Version, 0, r.Title, r.Mode, r.Duration, len(r.Players), len(r.Events), kinds, ds)
		}
	}
	t.Logf("%d complete, %d partial, %d refused; %d with tracker units, %d with chat", ok, partial, refused, withTracker, withChat)
	if ok+partial+refused == 0 {
		t.Fatal("no corpus files")
	}
}
