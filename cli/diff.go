package cli

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"rewind/library/diff"
	"rewind/model"
	"rewind/theme"
	"rewind/tui"

	"github.com/spf13/cobra"
)

const diffAbout = `Compare two replays. On a terminal a split view opens: both replays on one
cursor, the differing fields marked, d and D jump to the next and previous
difference, x switches the file the inspector shows. Elsewhere, or with
--json, the comparison is written out.

Two files of the same game (two players' recordings of one netplay game, a
file and its repaired copy, two recorder builds' files) are walked frame by
frame, aligned by the format's frame numbers: the first frame where the game
state differs (which player, which field, both values), how many frames and
fields differ and the differing frames as ranges. A frame's state is every
player's state and the frame's events (kind, player and fields; where an
event's bytes are in the file does not count), and how the headers say the
game ended (result, length, each player's result) is compared too. Frames
only one file has are reported as such: "B ends early at frame 788".

The files are one game when the headers agree: the same format, title (stage,
map, song, course) and players (characters, and codes where both files name
them), frames that overlap, and starts no more than 2 minutes apart, or, when
the starts are further apart (a repair estimates the start), when the first and
middle frames both files have agree field for field. --as overrides this.
Some values record the recording rather than the game (how far a netplay
client had confirmed the inputs, in Slippi's Frame Bookend): --ignore leaves
out fields by key and events by kind.

Two different games (a build order against a pro's, two plays of one song)
are compared side by side: the stats tables with the same key, the players
paired (by code, name, character, then slot; --pair sets pairs), lists such as
a build order aligned by item with how much later B is, and the charts at
round game times with where the two part for good.
`

const diffNotes = `Output with --json: one object {"identical", "sameGame", "why", "a", "b",
"unit", "first", "differingFrames", "differingFields", "compared", "ranges",
"onlyA", "onlyB", "differences", "end", "limit", "more"} and, for different
games, "pairs", "tables", "charts", "unmatched" (the README shows one).

Exit status: 0 identical, 1 they differ (different games always do), 2 they
cannot be compared (different formats, a path that cannot be read or is no
replay) or the command line is wrong.
`

// diffFlags are rewind diff's flags.
type diffFlags struct {
	json     bool
	limit    int
	as, pair string
	ignore   string
}

func diffCommand() *cobra.Command {
	o := &diffFlags{}
	cmd := &cobra.Command{
		Use:                   "diff [--json] [--limit N] [--as same|different] [--pair A=B] [--ignore KEY] A B",
		Short:                 "compare two replays: where one game's files first differ, or two games side by side",
		Long:                  diffAbout,
		Annotations:           map[string]string{notesKey: diffNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object")
	f.IntVar(&o.limit, "limit", 20, "list at most `N` differences (and list rows); 0 lists every one")
	f.StringVar(&o.as, "as", "auto", "compare as the `same` game, as `different` games, or decide (auto)")
	f.StringVar(&o.pair, "pair", "", "pair players of different games, `A=B,...` by slot number, e.g. 1=2")
	f.StringVar(&o.ignore, "ignore", "", "leave out fields by key and events by kind, `KEY,...`, e.g. latestFinalizedFrame")
	return cmd
}

func (o *diffFlags) run(c *call, paths []string) int {
	opt, err := diffOptions(o.as, o.pair, o.limit)
	if err != nil {
		return c.errorf("%v", err)
	}
	for _, k := range strings.Split(o.ignore, ",") {
		if k = strings.TrimSpace(k); k != "" {
			opt.Ignore = append(opt.Ignore, k)
		}
	}
	if len(paths) != 2 {
		return c.errorf("compares two replay files, and %d were given", len(paths))
	}
	a, b, code := decodePair(c, paths)
	if a == nil {
		return code
	}
	if !o.json && isTerminal(c.stdout) && c.stdout == os.Stdout {
		res, err := runDiffTUI(a, b, opt)
		if err != nil {
			return c.errorf("%v", err)
		}
		fmt.Fprintln(c.stdout, theme.Safe(diffVerdict(res)))
		return diffStatus(res)
	}
	res, err := diff.Compare(a, b, opt)
	if err != nil {
		return c.errorf("cannot compare %s with %s: %v", c.epath(paths[0]), c.epath(paths[1]), err)
	}
	w := c.output()
	defer w.Flush()
	if o.json {
		if err := writeJSON(w, res.JSON(o.limit)); err != nil {
			return c.errorf("%v", err)
		}
	} else {
		res.WriteText(w, o.limit)
	}
	return diffStatus(res)
}

// diffOptions reads --as, --pair and --limit.
func diffOptions(as, pair string, limit int) (diff.Options, error) {
	opt := diff.Options{Limit: limit}
	if limit <= 0 {
		opt.Limit = -1
	}
	switch as {
	case "auto", "":
	case "same":
		opt.Mode = diff.Same
	case "different":
		opt.Mode = diff.Different
	default:
		return opt, fmt.Errorf("--as takes same, different or auto, not %q", as)
	}
	for _, p := range strings.Split(pair, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		l, r, ok := strings.Cut(p, "=")
		x, err1 := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(l)), "P"))
		y, err2 := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(r)), "P"))
		if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 {
			return opt, fmt.Errorf("--pair takes A's slot = B's slot, like 1=2 or P1=P2, not %q", p)
		}
		opt.Pairs = append(opt.Pairs, [2]int{x - 1, y - 1})
	}
	return opt, nil
}

// decodePair decodes A and B side by side (one core each); a path that
// cannot be read ends the command with its sentence and status 2.
func decodePair(c *call, paths []string) (a, b *model.Replay, code int) {
	var rs [2]*model.Replay
	var errs [2]error
	var wg sync.WaitGroup
	for i, p := range paths {
		inputs := collect([]string{p}, nil)
		if len(inputs) != 1 || inputs[0].Name != p {
			return nil, nil, c.errorf("%s is a folder; diff compares two replay files", c.epath(p))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs[i], errs[i] = decodeInput(inputs[0], model.DecodeOptions{})
		}()
	}
	wg.Wait()
	for i, p := range paths {
		if errs[i] != nil && rs[i] == nil {
			return nil, nil, c.errorf("%s: %s", c.epath(p), reason(p, errs[i]))
		}
	}
	if rs[0].Format != rs[1].Format {
		_, err := diff.Compare(rs[0], rs[1], diff.Options{})
		return nil, nil, c.errorf("cannot compare %s with %s: %v", c.epath(paths[0]), c.epath(paths[1]), err)
	}
	return rs[0], rs[1], 0
}

func diffStatus(res *diff.Result) int {
	if res.Identical {
		return 0
	}
	return 1
}

// diffVerdict is the line left on the terminal when the split view closes.
func diffVerdict(res *diff.Result) string {
	var b strings.Builder
	res.WriteText(&b, 1)
	lines := strings.Split(b.String(), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "First difference: ") || strings.HasPrefix(l, "Identical: ") {
			return l
		}
	}
	if len(lines) > 2 {
		return lines[2]
	}
	return ""
}

// runDiffTUI opens the split view; it returns the comparison (finished
// if the view closed before it was).
func runDiffTUI(a, b *model.Replay, opt diff.Options) (*diff.Result, error) {
	cfg := tui.Config{Input: tuiIO.in, Output: tuiIO.out}
	res, err := tui.RunDiff(cfg, a, b, opt)
	if err != nil {
		return nil, err
	}
	if res == nil {
		if res, err = diff.Compare(a, b, opt); err != nil {
			return nil, errors.New(err.Error())
		}
	}
	return res, nil
}
