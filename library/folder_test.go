package library

import (
	"slices"
	"strings"
	"testing"

	"rewind/decoders"
)

// TestReplayExtAsTheRegistry holds the walk's fast extension test to
// decoders.HasReplayExt, the registry's own, on names a folder may hold.
func TestReplayExtAsTheRegistry(t *testing.T) {
	names := []string{"a.slp", "A.SLP", "game.Slp", "x.sc2replay", "x.SC2Replay", "s.bsor", "s.BSORTEMP",
		"t.teehistorian", "e.gci", "o.osr", "plain", ".slp", "a.slp.bak", "a.md", "a.", "a.ſlp", "a.SLP\\x",
		"dir.slp/x", "x." + strings.Repeat("s", 40), "a.teehistorianX", "ünïcode.slp", "a.ｓlp"}
	for _, f := range decoders.Formats {
		for _, e := range f.Exts {
			names = append(names, "n"+e, "n"+strings.ToUpper(e))
		}
	}
	for _, n := range names {
		if got, want := replayExt(n), decoders.HasReplayExt(n); got != want {
			t.Errorf("replayExt(%q) = %v, the registry says %v", n, got, want)
		}
	}
	if !slices.ContainsFunc(names, replayExt) {
		t.Fatal("no name taken as a replay")
	}
}
