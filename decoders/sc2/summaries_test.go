package sc2

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/model"
)

var updateSummaries = flag.Bool("update-summaries", false, "rewrite testdata/summaries.golden from the summaries as they are")

// summariesGolden holds, per sample and corpus file, how many game and
// tracker event summaries it has and a SHA-256 of them all: the summaries
// are written from the event bits by hand-tuned code (an arena, appends),
// and this holds every one of them (1.6 million over the corpus) to what
// the general, value-by-value code wrote when the digests were made.
const summariesGolden = "testdata/summaries.golden"

// summaryDigest is the count and digest of a replay's stream summaries.
func summaryDigest(t *testing.T, p string) (int, string) {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decode(data, model.DecodeOptions{})
	if err != nil {
		return 0, "refused"
	}
	h := sha256.New()
	n := 0
	for i := range d.r.Events {
		if s := d.r.Events[i].Stream; s != sGame && s != sTracker {
			continue
		}
		n++
		fmt.Fprintf(h, "%d %s\n", i, d.r.EventSummary(i))
	}
	return n, hex.EncodeToString(h.Sum(nil))
}

func TestSummariesGolden(t *testing.T) {
	files := samplesAndCorpus(t)
	want := map[string]string{}
	if f, err := os.Open(summariesGolden); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if name, rest, ok := strings.Cut(sc.Text(), "\t"); ok {
				want[name] = rest
			}
		}
		f.Close()
	} else if !*updateSummaries {
		t.Fatal(err)
	}
	got := map[string]string{}
	total := 0
	for _, p := range files {
		n, sum := summaryDigest(t, p)
		total += n
		name := filepath.Base(p)
		got[name] = fmt.Sprintf("%d\t%s", n, sum)
		if !*updateSummaries && want[name] != got[name] {
			t.Errorf("%s: summaries %q, golden %q (go test -run TestSummariesGolden -update-summaries rewrites it after a deliberate change)", name, got[name], want[name])
		}
	}
	if *updateSummaries {
		var lines []string
		for name, v := range got {
			lines = append(lines, name+"\t"+v)
		}
		sort.Strings(lines)
		if err := os.WriteFile(summariesGolden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d summaries of %d files", total, len(files))
}

// TestSummariesConcurrent: a replay is shared once decoded (the TUI, an
// export's workers), and the summaries and fields read event bodies into
// pooled arenas: goroutines asking at once must each get what one alone
// gets (run under -race by .ci/run).
func TestSummariesConcurrent(t *testing.T) {
	data, err := os.ReadFile(samples(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range samples(t) {
		if strings.Contains(p, "winter-madness") {
			if data, err = os.ReadFile(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(r.Events))
	for i := range r.Events {
		want[i] = r.EventSummary(i) + fmt.Sprintf("%v", r.EventFields(i))
	}
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			for i := g; i < len(r.Events); i += 3 {
				if got := r.EventSummary(i) + fmt.Sprintf("%v", r.EventFields(i)); got != want[i] {
					errs <- fmt.Sprintf("event %d: %q, alone %q", i, got, want[i])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
