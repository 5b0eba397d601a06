package diff

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
)

// WriteText writes the comparison for people. limit bounds how many
// differences (same game) or list rows (different games) are listed; 0
// lists every one.
func (res *Result) WriteText(w io.Writer, limit int) {
	t := &textOut{w: w}
	t.files(res)
	if res.SameGame {
		t.line("Same game: %s.", res.Why)
		t.sameGame(res, limit)
	} else {
		t.line("Different games: %s. Compared side by side.", res.Why)
		t.differentGames(res, limit)
	}
	t.stops(res)
}

type textOut struct{ w io.Writer }

func (t *textOut) line(format string, args ...any) {
	fmt.Fprintf(t.w, format+"\n", args...)
}

// files names A and B with what their headers say.
func (t *textOut) files(res *Result) {
	na, nb := Safe(res.A.Path), Safe(res.B.Path)
	w := max(utf8.RuneCountInString(na), utf8.RuneCountInString(nb))
	for _, f := range []struct {
		name, path string
		r          *model.Replay
	}{{"A", na, res.A}, {"B", nb, res.B}} {
		pad := strings.Repeat(" ", w-utf8.RuneCountInString(f.path))
		t.line("%s  %s%s  %s", f.name, f.path, pad, Describe(f.r))
	}
}

// Describe is a replay in one line: format and version, title, start,
// length and players.
func Describe(r *model.Replay) string {
	var parts []string
	if s := strings.TrimSpace(r.FormatName + " " + r.Version); s != "" {
		parts = append(parts, Safe(s))
	}
	if r.Title != "" {
		parts = append(parts, Safe(r.Title))
	}
	if !r.Start.IsZero() {
		parts = append(parts, r.Start.UTC().Format("2006-01-02 15:04"))
	}
	if tl := &r.Timeline; tl.Count > 0 {
		parts = append(parts, fmt.Sprintf("%s %s..%s", unitOf(tl), strconv.FormatInt(tl.First, 10), strconv.FormatInt(tl.Number(tl.Count-1), 10)))
	}
	var ps []string
	for i := range r.Players {
		ps = append(ps, PlayerName(r, i))
	}
	if len(ps) > 0 {
		parts = append(parts, strings.Join(ps, " vs "))
	}
	return strings.Join(parts, " · ")
}

// PlayerName is "P1 Fox", "P1 firebat (Terran)": the slot as JSON names
// it, then who.
func PlayerName(r *model.Replay, i int) string {
	if i < 0 || i >= len(r.Players) {
		return Player(i)
	}
	p := &r.Players[i]
	s := Player(i)
	switch {
	case p.Name != "" && p.Character != "":
		s += " " + p.Name + " (" + p.Character + ")"
	case p.Name != "":
		s += " " + p.Name
	case p.Character != "":
		s += " " + p.Character
	}
	return Safe(s)
}

func unitOf(tl *model.Timeline) string {
	if tl.Unit == "" {
		return "frames"
	}
	return tl.Unit + "s"
}

func (t *textOut) sameGame(res *Result, limit int) {
	unit := strings.TrimSuffix(unitOf(&res.A.Timeline), "s")
	if res.Identical {
		n := res.Overlap.To - res.Overlap.From + 1
		t.line("Identical: %s %s in every player's state and every event, and the headers end the game alike.",
			model.FormatCount(n), plural(int(n), unit+" agrees", unit+"s agree"))
		return
	}
	if d := res.First; d != nil {
		t.line("")
		t.line("First difference: %s", t.oneLine(res, *d))
	}
	if len(res.Differences) > 0 {
		shown := res.Differences
		if limit > 0 && len(shown) > limit {
			shown = shown[:limit]
		}
		t.line("")
		var rows [][]string
		rows = append(rows, []string{unit, "time", "player", "what", "A", "B"})
		for _, d := range shown {
			rows = append(rows, t.row(res, d))
		}
		grid(t.w, rows, "  ")
		total := res.DifferingFields + len(res.OnlyA) + len(res.OnlyB)
		if more := total - len(shown); more > 0 {
			t.line("  … and %s more (--limit 0 lists every one)", model.FormatCount(int64(more)))
		}
	}
	t.line("")
	compared := res.Overlap.To - res.Overlap.From + 1
	if res.Overlap.To < res.Overlap.From {
		compared = 0
	}
	switch {
	case compared == 0:
		t.line("No %s in common: nothing compared frame by frame.", unit)
	case res.DifferingFrames == 0:
		t.line("All %s %ss both files have agree (%s..%s).", model.FormatCount(compared), unit,
			strconv.FormatInt(res.Overlap.From, 10), strconv.FormatInt(res.Overlap.To, 10))
	default:
		t.line("%s of %s %ss %s (%s..%s compared), %s %s.", model.FormatCount(int64(res.DifferingFrames)),
			model.FormatCount(compared), unit, plural(res.DifferingFrames, "differs", "differ"),
			strconv.FormatInt(res.Overlap.From, 10), strconv.FormatInt(res.Overlap.To, 10),
			model.FormatCount(int64(res.DifferingFields)), plural(res.DifferingFields, "field", "fields"))
		t.line("Differing %ss: %s", unit, rangesText(res.Ranges, limit))
	}
	for _, s := range t.outside(res, unit) {
		t.line("%s", s)
	}
	if len(res.End) > 0 {
		t.line("")
		t.line("How the game ended, where the headers disagree:")
		rows := [][]string{{"", "A", "B"}}
		for _, d := range res.End {
			what := d.Field
			if d.Player >= 0 {
				what = Player(d.Player) + " " + what
			}
			rows = append(rows, []string{what, orDash(valueText(d.A, "")), orDash(valueText(d.B, ""))})
		}
		grid(t.w, rows, "  ")
	}
}

// outside says which frames only one file has: "B ends early at frame 788;
// A goes on to 1437 (649 frames only in A)".
func (t *textOut) outside(res *Result, unit string) []string {
	var out []string
	say := func(file, other string, rs []Range, r *model.Replay) {
		for _, g := range rs {
			n := model.FormatCount(g.To - g.From + 1)
			switch {
			case res.Overlap.To < res.Overlap.From:
				out = append(out, fmt.Sprintf("%s has %s %ss, %s..%s, none of them in %s.", file, n, unit, fmtNum(g.From), fmtNum(g.To), other))
			case g.From > res.Overlap.To:
				out = append(out, fmt.Sprintf("%s ends early at %s %s; %s goes on to %s (%s %s only in %s).",
					other, unit, fmtNum(res.Overlap.To), file, fmtNum(g.To), n, plural(int(g.To-g.From+1), unit, unit+"s"), file))
			default:
				out = append(out, fmt.Sprintf("%s starts late at %s %s; %s starts at %s (%s %s only in %s).",
					other, unit, fmtNum(res.Overlap.From), file, fmtNum(g.From), n, plural(int(g.To-g.From+1), unit, unit+"s"), file))
			}
		}
	}
	say("A", "B", res.OnlyA, res.A)
	say("B", "A", res.OnlyB, res.B)
	return out
}

func fmtNum(n int64) string { return strconv.FormatInt(n, 10) }

// oneLine is a difference in a sentence.
func (t *textOut) oneLine(res *Result, d Difference) string {
	r := t.row(res, d)
	s := fmt.Sprintf("%s %s (%s)", strings.TrimSuffix(unitOf(&res.A.Timeline), "s"), r[0], r[1])
	if r[2] != "" {
		s += " " + r[2]
	}
	s += " " + r[3]
	switch {
	case d.Kind == KindFrames:
	case d.Only == "A":
		s += " only in A: " + r[4]
	case d.Only == "B":
		s += " only in B: " + r[5]
	default:
		s += ": " + r[4] + " in A, " + r[5] + " in B"
	}
	return s
}

// row is a difference as a row of the differences table: frame, time,
// player, what, A's value, B's value.
func (t *textOut) row(res *Result, d Difference) []string {
	frame := fmtNum(d.Frame)
	if d.Kind == KindFrames && d.To != d.Frame {
		frame += ".." + fmtNum(d.To)
	}
	player := ""
	if d.Player >= 0 {
		player = Player(d.Player)
	}
	var what string
	switch d.Kind {
	case KindState:
		what = "state " + d.Field
	case KindEvent:
		what = "event " + Safe(d.Event)
		if d.Field != "" {
			what += " " + d.Field
		}
	case KindFrames:
		what = "frames only in " + d.Only
	}
	a, b := valueText(d.A, d.AName), valueText(d.B, d.BName)
	if d.Kind == KindEvent && d.Field == "" {
		a, b = cut(a, 48), cut(b, 48)
	}
	if d.Kind == KindFrames {
		a, b = "", ""
	}
	return []string{frame, model.FormatDuration(d.Time), player, what, a, b}
}

// valueText writes a value with its name: "29 FALL", "—" for none.
func valueText(v any, name string) string {
	if v == nil && name == "" {
		return "—"
	}
	s := model.FormatValue(v)
	if d, ok := v.(time.Duration); ok {
		s = model.FormatDuration(d)
	}
	if name != "" && name != s {
		if s == "" {
			s = name
		} else {
			s += " " + name
		}
	}
	return Safe(s)
}

// rangesText lists ranges, at most limit of them (0: all).
func rangesText(rs []Range, limit int) string {
	var parts []string
	for i, r := range rs {
		if limit > 0 && i >= limit {
			parts = append(parts, fmt.Sprintf("… %s more", model.FormatCount(int64(len(rs)-i))))
			break
		}
		if r.From == r.To {
			parts = append(parts, fmtNum(r.From))
		} else {
			parts = append(parts, fmtNum(r.From)+".."+fmtNum(r.To))
		}
	}
	return strings.Join(parts, ", ")
}

// stops says which file did not decode whole.
func (t *textOut) stops(res *Result) {
	unit := strings.TrimSuffix(unitOf(&res.A.Timeline), "s")
	for _, s := range []struct {
		name string
		st   *Stop
	}{{"A", res.StopA}, {"B", res.StopB}} {
		if s.st == nil {
			continue
		}
		t.line("")
		if s.st.Partial {
			t.line("%s is partial: it was compared as far as it goes, to %s %d. %s", s.name, unit, s.st.Frame, Safe(s.st.Reason))
		} else {
			t.line("%s has problems; it was compared as decoded. First: %s", s.name, Safe(s.st.Reason))
		}
	}
}

func (t *textOut) differentGames(res *Result, limit int) {
	a, b := res.A, res.B
	var ps []string
	for _, p := range res.Pairs {
		ps = append(ps, "A "+PlayerName(a, p[0])+" with B "+PlayerName(b, p[1]))
	}
	if len(ps) > 0 {
		t.line("Players: %s.", strings.Join(ps, "; "))
	}
	for _, td := range res.Tables {
		t.line("")
		if td.List {
			t.listTable(res, td, limit)
		} else {
			t.sideTable(res, td)
		}
	}
	for _, cd := range res.Charts {
		t.line("")
		t.chart(res, cd)
	}
	if len(res.Unmatched) > 0 {
		t.line("")
		t.line("Not compared: %s.", strings.Join(res.Unmatched, "; "))
	}
}

// sideTable writes a table with the players (or the same headings) side by
// side: per column pair A's value, B's and the difference.
func (t *textOut) sideTable(res *Result, td TableDiff) {
	// the title on a line of its own: as the first column's heading it
	// set that column's width, and the table's, past 80 columns
	t.line("%s", Safe(td.TitleA))
	head := []string{""}
	for _, c := range td.Columns {
		head = append(head, "A "+colName(td, c, true), "B "+colName(td, c, false), "Δ")
	}
	rows := [][]string{head}
	for _, r := range td.Rows {
		label := r.Label
		if label == "" {
			label = r.Key
		}
		line := []string{Safe(label)}
		for _, c := range td.Columns {
			ca, cb := Cell(r.A, c.A), Cell(r.B, c.B)
			d, ok := Delta(ca, cb)
			line = append(line, cellText(ca), cellText(cb), deltaText(d, ok, decimals(ca, cb)))
		}
		rows = append(rows, line)
	}
	grid(t.w, dropEmpty(rows), "  ")
}

// dropEmpty leaves out the columns that are empty in every row but the
// heading (a Δ beside names, which have none).
func dropEmpty(rows [][]string) [][]string {
	if len(rows) < 2 {
		return rows
	}
	keep := make([]bool, len(rows[0]))
	for _, r := range rows[1:] {
		for i, c := range r {
			if i < len(keep) && c != "" {
				keep[i] = true
			}
		}
	}
	out := make([][]string, len(rows))
	for k, r := range rows {
		for i, c := range r {
			if i < len(keep) && keep[i] {
				out[k] = append(out[k], c)
			}
		}
	}
	return out
}

// colName names a column of a side-by-side table: the player's slot when
// the columns are the players, else the heading.
func colName(td TableDiff, c ColumnPair, isA bool) string {
	col := c.B
	if isA {
		col = c.A
	}
	switch {
	case col < 0:
		return "—"
	case td.ByPlayer:
		return Player(col)
	}
	return Safe(c.Name)
}

// listTable writes a list of A's player beside B's player's, aligned by
// item, the time of each and how much later B is.
func (t *textOut) listTable(res *Result, td TableDiff, limit int) {
	t.line("%s: A %s against B %s", Safe(td.Key), PlayerName(res.A, td.PlayerA), PlayerName(res.B, td.PlayerB))
	rows := [][]string{{"", "A", "B", "B − A"}}
	shown := 0
	for _, r := range td.Rows {
		if limit > 0 && shown >= limit {
			break
		}
		shown++
		ta, tb := "—", "—"
		if r.A != nil {
			ta = timeCell(r.TimeA, r.A)
		}
		if r.B != nil {
			tb = timeCell(r.TimeB, r.B)
		}
		delta := ""
		switch {
		case r.HasTimes():
			delta = signedSeconds(math.Round((r.TimeB-r.TimeA).Seconds()*10) / 10)
		case r.A == nil:
			delta = "only in B"
		case r.B == nil:
			delta = "only in A"
		}
		rows = append(rows, []string{"  " + Safe(r.Key), ta, tb, delta})
	}
	grid(t.w, rows, "  ")
	if more := len(td.Rows) - shown; more > 0 {
		t.line("  … and %s more rows (--limit 0 lists every one)", model.FormatCount(int64(more)))
	}
}

// timeCell is when a list row happens, as the format labels it ("0:32"),
// or by the clock when it has no label.
func timeCell(d time.Duration, row *model.StatRow) string {
	if row.Label != "" || d < 0 {
		return Safe(row.Label)
	}
	return clockText(d)
}

// chart writes a chart's series compared part by part: the values at the
// end of each part, where they part for good and the largest gap.
func (t *textOut) chart(res *Result, cd ChartDiff) {
	t.line("Chart %s, at each time and over the part before it (mean):", Safe(cd.Title))
	for _, s := range cd.Series {
		who := Safe(s.Label)
		if s.PlayerA >= 0 {
			who = "A " + Player(s.PlayerA) + " / B " + Player(s.PlayerB)
		}
		head := []string{"  " + who}
		at := []string{"    at: A"}
		atB := []string{"        B"}
		mA := []string{"    mean: A"}
		mB := []string{"          B"}
		for _, p := range s.Parts {
			head = append(head, clockText(p.To))
			at = append(at, num(p.AtA))
			atB = append(atB, num(p.AtB))
			mA = append(mA, num(p.MeanA))
			mB = append(mB, num(p.MeanB))
		}
		grid(t.w, [][]string{head, at, atB, mA, mB}, "  ")
		switch s.Higher {
		case "":
			t.line("    they end level; the largest gap, B − A = %s, is at %s", signed(s.Gap), clockText(s.GapAt))
		default:
			t.line("    %s is higher from %s to the end; the largest gap, B − A = %s, is at %s", s.Higher,
				clockText(s.Apart), signed(s.Gap), clockText(s.GapAt))
		}
	}
}

func cellText(f *model.Field) string {
	if f == nil {
		return "—"
	}
	return Safe(f.Text())
}

// deltaText writes B − A: "+12", "−0.5", "+1:05" for times, per name for
// named numbers; dec is how many decimals to show (-1: as many as needed).
func deltaText(d any, ok bool, dec int) string {
	if !ok {
		return ""
	}
	switch x := d.(type) {
	case time.Duration:
		if dec == 0 {
			x = x.Round(time.Second)
		}
		switch {
		case x > 0:
			return "+" + clockText(x)
		case x < 0:
			return "−" + clockText(-x)
		}
		return "0"
	case float64:
		if dec >= 0 {
			x = math.Round(x*math.Pow10(dec)) / math.Pow10(dec)
		}
		return signed(x)
	case map[string]float64:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+" "+signed(x[k]))
		}
		return strings.Join(parts, " · ")
	}
	return ""
}

// decimals is how many decimals the two cells show as text (the format
// rounds APM to a whole number: a difference of raw values would show
// digits neither cell has); -1 when a text is no plain number.
func decimals(a, b *model.Field) int {
	dec := 0
	for _, f := range []*model.Field{a, b} {
		if f == nil {
			return -1
		}
		t := strings.TrimSpace(f.Text())
		if t == "" || strings.Trim(t, "0123456789:.-") != "" {
			return -1 // no plain number or time
		}
		if i := strings.IndexByte(t, '.'); i >= 0 {
			dec = max(dec, len(t)-i-1)
		}
	}
	return dec
}

// clockText is a game time, without hundredths when it has none: "6:00",
// "1:12.50".
func clockText(d time.Duration) string {
	return strings.TrimSuffix(model.FormatDuration(d), ".00")
}

// num writes a chart value: up to 3 significant decimals.
func num(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(roundTo(x), 'f', -1, 64)
}

func roundTo(x float64) float64 {
	switch ax := math.Abs(x); {
	case ax >= 100:
		return math.Round(x)
	case ax >= 1:
		return math.Round(x*100) / 100
	}
	return math.Round(x*1000) / 1000
}

func signed(x float64) string {
	switch {
	case x > 0:
		return "+" + num(x)
	case x < 0:
		return "−" + num(-x)
	}
	return "0"
}

func signedSeconds(x float64) string {
	if x == 0 {
		return "0s"
	}
	return signed(x) + "s"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func cut(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// grid writes rows of cells padded to each column's widest, without
// trailing spaces.
func grid(w io.Writer, rows [][]string, sep string) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], ansi.StringWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-ansi.StringWidth(c)))
				b.WriteString(sep)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// Safe makes text from a file safe for a terminal: control characters
// become visible escapes (\x1b), so a hostile name cannot move the cursor
// or restyle the screen.
func Safe(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
