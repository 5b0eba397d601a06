package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

// realReplays are real files of each format from testdata/samples (one
// broken), with the keys that bring each to a moment worth seeing.
var realReplays = []struct {
	name, path string
	keys       []string
}{
	{"slippi", "slippi/tests__data__ics.slp", []string{"L", "L", "L"}},
	{"slippi_corrupt", "slippi/tests__data__corrupt.slp", []string{"e"}},
	{"bsor", "bsor/walls-heights-pauses-clip.bsor", []string{"pgdown"}},
	{"fzgx", "fzgx/time-attack.gci", []string{"pgdown", "pgdown"}},
	{"sc2", "sc2/hots-2.0.8-tracker.SC2Replay", []string{"pgdown", "pgdown", "pgdown"}},
	{"teehistorian", "teehistorian/two_players_chat_kill_spec_rcon_vote_dummy.teehistorian", []string{"pgdown"}},
}

func openSample(t testing.TB, path string) *model.Replay {
	t.Helper()
	r, err := decoders.Open(filepath.Join("..", "testdata", "samples", filepath.FromSlash(path)), model.DecodeOptions{})
	if r == nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// TestGoldenReal draws real replays of every format at 80x24 and 160x48
// in both palettes, with the colour profile pinned to 256 colours so the
// golden files hold the colours too, and the stage view of each at
// 160x48. Run with -update after a deliberate change of the look (or of
// a decoder's labels) and read the diff.
func TestGoldenReal(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, rr := range realReplays {
		r := openSample(t, rr.path)
		p := prepare(r)
		for _, pal := range []theme.Palette{theme.Dark, theme.Light} {
			th := theme.For(pal, false)
			for _, sz := range [][2]int{{80, 24}, {160, 48}} {
				t.Run(rr.name+"_"+itoa(sz[0])+"x"+itoa(sz[1])+"_"+pal.String(), func(t *testing.T) {
					v := newReplayView(r, p, th)
					v.setSize(sz[0], sz[1])
					press(v, rr.keys...)
					out := v.View()
					checkScreen(t, out, sz[0], sz[1])
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
		if r.Scenes == nil || strings.HasSuffix(rr.name, "_corrupt") {
			continue
		}
		t.Run(rr.name+"_stage_160x48_dark", func(t *testing.T) {
			v := newReplayView(r, p, theme.For(theme.Dark, false))
			v.setSize(160, 48)
			press(v, append(append([]string{}, rr.keys...), "v")...)
			out := v.View()
			checkScreen(t, out, 160, 48)
			if !strings.Contains(out, "stage") {
				t.Error("no stage view")
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
