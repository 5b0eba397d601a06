package diff

import (
	"fmt"
	"strings"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// startSlack is how far apart two files of one game may say it started:
// two players' machines write their own clocks, and a recorder may stamp
// the start a few seconds late. Two games of one set are further apart
// than this (a game and the menus between take more), and a copy whose
// start was made up (a repair estimates it) is recognised by its frames.
const startSlack = 2 * time.Minute

// sameGame decides from the headers whether a and b (of one format) are
// files of one game, and says why in a sentence: the same title, the same
// players (characters, and codes where both files name them), frames that
// overlap, and starts no more than startSlack apart. A file whose start is
// unknown counts as starting with the other; a file that says it started
// long before or after the other is still the same game when the first and
// the middle frame both files have agree in every field (a repaired copy,
// whose start the repair estimated).
func sameGame(a, b *model.Replay, c *frameCmp) (bool, string) {
	title := titleWord(a)
	if ta, tb := norm(a.Title), norm(b.Title); ta != "" && tb != "" && ta != tb {
		return false, fmt.Sprintf("different %ss: %s and %s", title, a.Title, b.Title)
	}
	if len(a.Players) != len(b.Players) {
		return false, fmt.Sprintf("A has %d players and B %d", len(a.Players), len(b.Players))
	}
	for i := range a.Players {
		pa, pb := &a.Players[i], &b.Players[i]
		if ca, cb := norm(pa.Character), norm(pb.Character); ca != "" && cb != "" && ca != cb {
			return false, fmt.Sprintf("%s is %s in A and %s in B", Player(i), pa.Character, pb.Character)
		}
		if ca, cb := norm(pa.Code), norm(pb.Code); ca != "" && cb != "" && ca != cb {
			return false, fmt.Sprintf("%s is %s in A and %s in B", Player(i), pa.Code, pb.Code)
		}
	}
	ov, ok := overlap(a, b)
	if !ok {
		return false, "their frames do not overlap"
	}
	what := "same format, " + title + " and players"
	switch {
	case a.Start.IsZero() && b.Start.IsZero():
		return true, what + " (neither file says when it started)"
	case a.Start.IsZero():
		return true, what + " (A does not say when it started)"
	case b.Start.IsZero():
		return true, what + " (B does not say when it started)"
	}
	apart := a.Start.Sub(b.Start).Abs()
	if apart <= startSlack {
		return true, fmt.Sprintf("%s, started %s apart", what, roundApart(apart))
	}
	// a start made up by a repair, or a clock set wrong: the frames decide
	mid := ov.From + (ov.To-ov.From)/2
	if len(c.frame(ov.From)) == 0 && len(c.frame(mid)) == 0 {
		return true, fmt.Sprintf("%s; the files say they started %s apart, but the first and middle frames agree field for field (a copy or a repair?)", what, roundApart(apart))
	}
	return false, fmt.Sprintf("%s, but started %s apart", what, roundApart(apart))
}

// overlap is the range of frame numbers both replays have.
func overlap(a, b *model.Replay) (Range, bool) {
	if a.Timeline.Count == 0 || b.Timeline.Count == 0 {
		return Range{}, false
	}
	from := max(a.Timeline.First, b.Timeline.First)
	to := min(a.Timeline.Number(a.Timeline.Count-1), b.Timeline.Number(b.Timeline.Count-1))
	return Range{from, to}, from <= to
}

// roundApart writes a time between two starts for people: "3 s", "5 min",
// "2 days".
func roundApart(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// formatName is the format's name for people: "Slippi replay".
func formatName(r *model.Replay) string {
	if f := decoders.ByID(r.Format); f != nil {
		return f.Name
	}
	if r.FormatName != "" {
		return r.FormatName + " replay"
	}
	return string(r.Format)
}

// titleWord is what the format's title names: "stage", "map", "song".
func titleWord(r *model.Replay) string {
	if f := decoders.ByID(r.Format); f != nil && f.Title != "" {
		return f.Title
	}
	return "title"
}

// pairPlayers puts each player of A beside one of B: the pairs asked for
// first, then by code, by name, by character and last by slot order, each
// player used once. A player left over (B has fewer) is not paired.
func pairPlayers(a, b *model.Replay, asked [][2]int) [][2]int {
	usedA := make([]bool, len(a.Players))
	usedB := make([]bool, len(b.Players))
	var pairs [][2]int
	add := func(i, j int) {
		usedA[i], usedB[j] = true, true
		pairs = append(pairs, [2]int{i, j})
	}
	for _, p := range asked {
		if p[0] >= 0 && p[0] < len(usedA) && p[1] >= 0 && p[1] < len(usedB) && !usedA[p[0]] && !usedB[p[1]] {
			add(p[0], p[1])
		}
	}
	for _, key := range []func(model.Player) string{
		func(p model.Player) string { return norm(p.Code) },
		func(p model.Player) string { return norm(p.Name) },
		func(p model.Player) string { return norm(p.Character) },
		func(model.Player) string { return "any" },
	} {
		for i := range a.Players {
			if usedA[i] {
				continue
			}
			ka := key(a.Players[i])
			if ka == "" {
				continue
			}
			for j := range b.Players {
				if !usedB[j] && key(b.Players[j]) == ka {
					add(i, j)
					break
				}
			}
		}
	}
	// in A's player order, as tables list them
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && pairs[j][0] < pairs[j-1][0]; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	return pairs
}
