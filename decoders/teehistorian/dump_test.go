package teehistorian

import (
	"fmt"
	"os"
	"testing"

	"rewind/model"
)

// TestDump prints a decoded file for people: TH_DUMP=path go test -run TestDump -v
func TestDump(t *testing.T) {
	p := os.Getenv("TH_DUMP")
	if p == "" {
		t.Skip("set TH_DUMP to a file to print it")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s %s %q %q %v %v %q partial=%v count=%d\n", r.FormatName, r.Version, r.Title, r.Mode, r.Start, r.Duration, r.Result, r.Partial, r.Timeline.Count)
	for _, f := range r.Header {
		if len(f.Fields) > 0 {
			fmt.Printf("  %s (%s) %d children @%v\n", f.Key, f.Label, len(f.Fields), f.Span)
			continue
		}
		fmt.Printf("  %s = %s [%s] @%v+%d\n", f.Key, f.Text(), f.Raw(), f.Span, f.Span.Len)
	}
	for _, p := range r.Players {
		fmt.Printf("player %s %q %q %q\n", p.Slot, p.Name, p.Character, p.Team)
	}
	for i, e := range r.Events {
		fmt.Printf("%5d p%d %-8s %s @%v\n", e.Frame, e.Player, e.Kind, r.EventSummary(i), e.Span)
	}
	for _, d := range r.Diagnostics {
		fmt.Println(d.String())
	}
	if r.State != nil {
		for f := 0; f < r.Timeline.Count; f += r.Timeline.Count/10 + 1 {
			for p := range r.Players {
				st := r.PlayerState(f, p)
				fmt.Printf("frame %d p%d present=%v", f, p, st.Present)
				for _, b := range st.Brief {
					fmt.Printf(" %s=%s", b.Key, b.Text())
				}
				fmt.Println()
			}
		}
	}
}
