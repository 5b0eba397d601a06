package teehistorian

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// dump writes a decoded file for people: its summary line, header fields,
// players, events, diagnostics and a few frames' player states.
func dump(w io.Writer, r *model.Replay) {
	fmt.Fprintf(w, "%s %s %q %q %v %v %q partial=%v count=%d\n", r.FormatName, r.Version, r.Title, r.Mode, r.Start, r.Duration, r.Result, r.Partial, r.Timeline.Count)
	for _, f := range r.Header {
		if len(f.Fields) > 0 {
			fmt.Fprintf(w, "  %s (%s) %d children @%v\n", f.Key, f.Label, len(f.Fields), f.Span)
			continue
		}
		fmt.Fprintf(w, "  %s = %s [%s] @%v+%d\n", f.Key, f.Text(), f.Raw(), f.Span, f.Span.Len)
	}
	for _, p := range r.Players {
		fmt.Fprintf(w, "player %s client %d %q %q %q\n", p.Slot, clientID(p), p.Name, p.Character, p.Team)
	}
	for i, e := range expand(r) {
		fmt.Fprintf(w, "event %5d p%d %-8s %s @%v\n", e.Frame, e.Player, e.Kind, r.EventSummary(i), e.Span)
	}
	for _, d := range r.Diagnostics {
		fmt.Fprintln(w, d.String())
	}
	if r.State == nil {
		return
	}
	for f := 0; f < r.Timeline.Count; f += r.Timeline.Count/10 + 1 {
		for p := range r.Players {
			st := r.PlayerState(f, p)
			fmt.Fprintf(w, "frame %d p%d present=%v", f, p, st.Present)
			for _, b := range st.Brief {
				fmt.Fprintf(w, " %s=%s", b.Key, b.Text())
			}
			fmt.Fprintln(w)
		}
	}
}

// TestDump dumps every sample and holds the dump to what it must say: a
// line per player and per event, every event with its summary. To read a
// file's dump: TH_DUMP=path go test -run TestDump -v ./decoders/teehistorian
// (or `rewind dump path`).
func TestDump(t *testing.T) {
	paths := corpus.SampleFiles(t, "teehistorian", "*.teehistorian")
	if p := os.Getenv("TH_DUMP"); p != "" {
		paths = []string{p}
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(data, model.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			dump(&b, r)
			if os.Getenv("TH_DUMP") != "" {
				fmt.Print(b.String())
			}
			lines := strings.Split(b.String(), "\n")
			var players, events int
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "player P"):
					players++
				case strings.HasPrefix(l, "event "):
					events++
					if f := strings.Fields(l); len(f) < 6 {
						t.Errorf("event without a summary: %q", l)
					}
				}
			}
			if players != len(r.Players) || events != len(r.Events) {
				t.Errorf("%d player lines for %d players, %d event lines for %d events", players, len(r.Players), events, len(r.Events))
			}
		})
	}
}
