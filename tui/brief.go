package tui

import (
	"strings"
	"unicode"

	"rewind/model"
	"rewind/theme"
)

// Rendering hints for the players pane, keyed by field key only: the TUI
// never looks inside a format, but a few keys mean the same thing in every
// decoder that uses them.

// stockKeys are the fields drawn as stock dots (●●●○).
var stockKeys = map[string]bool{"stocks": true, "stocksRemaining": true, "stocksLeft": true}

// startStockKeys say how many stocks a player started with.
var startStockKeys = map[string]bool{"stockStartCount": true, "startStocks": true, "stocksStart": true, "startingStocks": true}

// maxDots is the most stocks drawn as dots; more read better as a number.
const maxDots = 8

// startStocks is the player's starting stocks when a field tells, else 0.
func startStocks(fs []model.Field) int {
	for _, f := range fs {
		if startStockKeys[f.Key] {
			if n, ok := intOf(f.Value); ok && n > 0 {
				return int(n)
			}
		}
		if n := startStocks(f.Fields); n > 0 {
			return n
		}
	}
	return 0
}

func intOf(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case uint64:
		if x > 1<<31 {
			return 0, false
		}
		return int64(x), true
	case int:
		return int64(x), true
	case float64:
		if x == float64(int64(x)) && x >= -1<<31 && x <= 1<<31 {
			return int64(x), true
		}
	}
	return 0, false
}

// briefText is one brief field as the players pane shows it: stocks as
// dots, a value that does not say what it is after a short label
// ("shield 60.0", "workers 12"), anything else as its text ("10.0%",
// "WAIT", "(12.3, 0.0)").
func briefText(f model.Field, start int) string {
	if stockKeys[f.Key] {
		if n, ok := intOf(f.Value); ok && n >= 0 {
			total := start
			if total <= 0 {
				total = 4
			}
			total = max(total, int(n))
			if total <= maxDots {
				return strings.Repeat("●", int(n)) + strings.Repeat("○", total-int(n))
			}
		}
	}
	t := theme.Safe(f.Text())
	if b, ok := f.Value.(bool); ok && f.Name == "" {
		t = "no"
		if b {
			t = "yes"
		}
		return shortLabel(f) + " " + t
	}
	if t == "" || (speaks(t) && !vague[strings.ToLower(t)]) {
		return t
	}
	if l := shortLabel(f); l != "" {
		return l + " " + t
	}
	return t
}

// vague are names that do not say what they name: "keys none", "weapon
// no change" need their label.
var vague = map[string]bool{"none": true, "no change": true, "off": true, "on": true, "yes": true, "no": true,
	"true": true, "false": true, "unknown": true, "default": true, "n/a": true, "normal": true}

// speaks reports text that says what it is: a word ("WAIT", "no tee"), a
// percent, a coordinate pair. A bare number or a ratio ("12/14") does not.
func speaks(t string) bool {
	if strings.HasPrefix(t, "(") && strings.Contains(t, ",") {
		return true
	}
	for _, r := range t {
		if unicode.IsLetter(r) || r == '%' {
			return true
		}
	}
	return false
}

// shortLabel is the field's label made short and lower case: "Shield" ->
// "shield", "Checkpoints passed" -> "checkpoints", "Action State ID" ->
// "action"; acronyms keep their case.
func shortLabel(f model.Field) string {
	l := strings.TrimSpace(theme.Safe(f.Label))
	if l == "" {
		l = f.Key
	}
	words := strings.Fields(l)
	if len(words) == 0 {
		return ""
	}
	if len(l) > 12 {
		words = words[:1]
	}
	for i, w := range words {
		rs := []rune(w)
		if len(rs) > 1 && unicode.IsUpper(rs[0]) && !unicode.IsUpper(rs[1]) {
			rs[0] = unicode.ToLower(rs[0])
			words[i] = string(rs)
		}
	}
	s := strings.Join(words, " ")
	if len([]rune(s)) > 14 {
		s = string([]rune(s)[:13]) + "…"
	}
	return s
}
