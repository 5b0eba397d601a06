package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
)

// fit cuts or pads s (which may hold ANSI styles) to exactly w cells, so no
// text leaves its pane.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// cut truncates plain or styled text to w cells without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// width is ansi.StringWidth with a fast path for what the views are made
// of: ASCII, SGR escape sequences, and the one-cell symbols of the panes
// (box drawing, blocks, braille). Anything else (a player name in CJK, an
// emoji) goes to ansi.StringWidth, which measures grapheme clusters.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			// CSI: ESC [ parameters final-byte
			if i+1 < len(s) && s[i+1] == '[' {
				j := i + 2
				for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
					j++
				}
				i = j + 1
				continue
			}
			return ansi.StringWidth(s)
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			n++
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrow(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		}
	}
	return n
}

// narrow reports the symbols known to take one cell.
func narrow(r rune) bool {
	switch {
	case r >= 0xa0 && r < 0x300: // Latin-1 and Latin Extended (·, ×, é)
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2500 && r <= 0x25ff: // box drawing, blocks, geometric shapes
		return true
	case r >= 0x2800 && r <= 0x28ff: // braille
		return true
	}
	switch r {
	case '…', '•', '❚', '⇧', '−', '◆':
		return true
	}
	return false
}

// scrollTo is the first row to show so that row cur is among the rows
// shown from it: top moved as little as possible.
func scrollTo(cur, top, rows int) int {
	if rows <= 0 {
		return top
	}
	if cur < top {
		top = cur
	}
	if cur >= top+rows {
		top = cur - rows + 1
	}
	return max(top, 0)
}

// block turns lines into exactly h lines of exactly w cells.
func block(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// pane draws a titled pane of w×h cells: a title line with a rule, then the
// content lines, each cut to the width.
func (v *replayView) pane(title string, focused bool, w, h int, lines []string) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	st := v.th.Title
	if focused {
		st = v.th.TitleFocused
	}
	t := cut(" "+title+" ", w)
	head := st.Render(t)
	if rest := w - ansi.StringWidth(t); rest > 0 {
		rule := "─"
		if focused {
			rule = "━"
		}
		head += v.th.Rule.Render(strings.Repeat(rule, rest))
	}
	out := []string{head}
	// one cell of margin on the left keeps text off the separator
	for _, l := range block(lines, w-1, h-1) {
		out = append(out, " "+l)
	}
	return out
}

// hjoin puts blocks of equal height side by side with a separator column.
func hjoin(sep string, cols ...[]string) []string {
	h := 0
	for _, c := range cols {
		h = max(h, len(c))
	}
	out := make([]string, h)
	for i := range out {
		var b strings.Builder
		for j, c := range cols {
			if j > 0 {
				b.WriteString(sep)
			}
			if i < len(c) {
				b.WriteString(c[i])
			}
		}
		out[i] = b.String()
	}
	return out
}

// humanSize is a file size for people.
func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1f MB", float64(n)/1024/1024)
	default:
		return fmt.Sprintf("%.1f GB", float64(n)/1024/1024/1024)
	}
}

// thousands writes an integer with thousands separators: 28,800.
func thousands(n int64) string { return model.FormatCount(n) }
