package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"rewind/theme"
)

// paint is a style reduced to the escape sequences around its text. Hot
// paths (hex bytes, timeline cells, chart cells) wrap runs with it instead
// of calling lipgloss for every piece, which keeps View well under a
// millisecond.
type paint struct{ pre, suf string }

func paintOf(st lipgloss.Style) paint {
	const mark = "\x00"
	s := st.Render(mark)
	i := strings.Index(s, mark)
	if i < 0 {
		return paint{}
	}
	return paint{pre: s[:i], suf: s[i+len(mark):]}
}

func (p paint) wrap(s string) string {
	if s == "" || p.pre == "" {
		return s
	}
	return p.pre + s + p.suf
}

func (p paint) write(b *strings.Builder, s string) {
	if s == "" {
		return
	}
	b.WriteString(p.pre)
	b.WriteString(s)
	b.WriteString(p.suf)
}

// paints are the theme's styles as paints.
type paints struct {
	plain, dim, bold, label, cursor, match             paint
	err, warn, info, notable, flag                     paint
	barDone, barRest, barHead, chartMark               paint
	hexOff, hexSpan, hexCur, hexProb, hexSkip, hexZero paint
	playing, paused                                    paint
	rule, status, helpKey, helpDesc, helpSep           paint
	players, trails                                    [theme.Players]paint
}

func newPaints(t *theme.Theme) *paints {
	p := &paints{
		plain: paint{}, dim: paintOf(t.Dim), bold: paintOf(t.Bold), label: paintOf(t.Label),
		cursor: paintOf(t.Cursor), match: paintOf(t.Match),
		err: paintOf(t.Error), warn: paintOf(t.Warning), info: paintOf(t.Info),
		notable: paintOf(t.Notable), flag: paintOf(t.Flag),
		barDone: paintOf(t.BarDone), barRest: paintOf(t.BarRest), barHead: paintOf(t.BarHead),
		chartMark: paintOf(t.ChartMark),
		hexOff:    paintOf(t.HexOffset), hexSpan: paintOf(t.HexSpan), hexCur: paintOf(t.HexCursor),
		hexProb: paintOf(t.HexProblem), hexSkip: paintOf(t.HexSkipped), hexZero: paintOf(t.HexZero),
		playing: paintOf(t.Playing), paused: paintOf(t.Paused),
		rule: paintOf(t.Rule), status: paintOf(t.Status),
		helpKey: paintOf(t.HelpKey), helpDesc: paintOf(t.HelpDesc), helpSep: paintOf(t.HelpSep),
	}
	for i := range p.players {
		p.players[i] = paintOf(t.Player(i))
		p.trails[i] = paintOf(t.PlayerTrail(i))
	}
	return p
}

func (p *paints) player(i int) paint { return playerPaint(&p.players, i, p.plain) }

// trail is the quieter paint of a player's recent positions.
func (p *paints) trail(i int) paint { return playerPaint(&p.trails, i, p.dim) }

// playerPaint picks player i's paint, the last one for players past it,
// none for i < 0.
func playerPaint(ps *[theme.Players]paint, i int, none paint) paint {
	if i < 0 {
		return none
	}
	return ps[min(i, len(ps)-1)]
}

func (p *paints) severity(s int) paint {
	switch {
	case s >= 2:
		return p.err
	case s == 1:
		return p.warn
	default:
		return p.info
	}
}
