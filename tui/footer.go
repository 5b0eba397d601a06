package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"rewind/theme"
)

// footer is the last line: the text field while one is open, else the
// status (why the last key did nothing) or the focused pane's name and
// keys; `? help` and `q quit` always end it.
func (v *replayView) footer() string {
	if v.inputMode != inputNone {
		return v.input.View(v.w)
	}
	if v.status != "" {
		// the status, and the two keys that always work when they fit
		st := v.paints.status.wrap(theme.Safe(v.status))
		if tail := v.keyText(v.essentials()); width(st)+3+width(tail) <= v.w {
			return fit(st+"   "+tail, v.w)
		}
		return fit(st, v.w)
	}
	// the keys change with the state, not with the frame: lay them out
	// again only when what they depend on changes
	st := v.footState()
	if v.footAt == st && v.footText != "" {
		return v.footText
	}
	name, keys := v.footerKeys()
	v.footAt = st
	v.footText = fit(v.fitKeys(name, keys), v.w)
	return v.footText
}

// footState is everything footerKeys reads.
type footState struct {
	w                                  int
	focus, next                        paneID
	list                               listMode
	stage, help, choosing, stats, more bool
	matches, filtered                  bool
}

func (v *replayView) footState() footState {
	return footState{
		w: v.w, focus: v.focus, next: v.nextFocus(1), list: v.list,
		stage: v.stage, help: v.showHelp, choosing: v.chooser != nil, stats: v.showStats,
		more: v.stage && v.moreScenesToShow(), matches: len(v.matches) > 0, filtered: v.curFilter().active(),
	}
}

// fitKeys lays the footer out in the width: the pane's keys in order of
// importance, dropped from the end until the line fits with the
// essentials; then the pane's name; then the essentials lose their words.
// Nothing is ever cut in the middle of a word.
func (v *replayView) fitKeys(name string, keys []key.Binding) string {
	ess := v.essentials()
	label := v.th.TitleFocused.Render(" " + name + " ")
	for n := len(keys); n >= 0; n-- {
		line := label + " " + v.keyText(append(append([]key.Binding{}, keys[:n]...), ess...))
		if width(line) <= v.w {
			return line
		}
	}
	if line := v.keyText(ess); width(line) <= v.w {
		return line
	}
	short := v.paints.helpKey.wrap("?") + " " + v.paints.helpKey.wrap("q")
	if width(short) <= v.w {
		return short
	}
	return ""
}

// essentials are the keys every footer ends with.
func (v *replayView) essentials() []key.Binding {
	if v.showHelp {
		return []key.Binding{hint("?/esc", "close"), v.keys.Quit}
	}
	return []key.Binding{v.keys.Help, v.keys.Quit}
}

// keyText draws bindings as bubbles/help's short help does: key, then
// what it does, separated by dots.
func (v *replayView) keyText(keys []key.Binding) string {
	p := v.paints
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(p.helpSep.wrap(" · "))
		}
		h := k.Help()
		b.WriteString(p.helpKey.wrap(h.Key))
		if h.Desc != "" {
			b.WriteString(" ")
			b.WriteString(p.helpDesc.wrap(h.Desc))
		}
	}
	return b.String()
}

// footerKeys are the focused pane's name and its keys, most important
// first. Keys that have nothing to act on here are left out (V when every
// scene fits, n without a search, e without problems).
func (v *replayView) footerKeys() (string, []key.Binding) {
	k := v.keys
	switch {
	case v.showHelp:
		return "help", nil
	case v.chooser != nil:
		return "filter", []key.Binding{hint("↑↓", "move"), hint("space", "tick"), hint("a", "all/none"),
			hint("o", "only this"), hint("enter", "apply"), hint("esc", "cancel")}
	case v.showStats:
		return "stats", []key.Binding{hint("↑↓", "scroll"), hint("enter", "go to the row's time"), hint("s/esc", "close")}
	}
	tab := hint("tab", "→ "+v.paneName(v.nextFocus(1)))
	frames := hint("←→", v.unit())
	var keys []key.Binding
	add := func(ok bool, b ...key.Binding) {
		if ok {
			keys = append(keys, b...)
		}
	}
	searching := len(v.matches) > 0
	hasMoments := len(v.p.moments) > 0
	momentKeys := hint("[ ]", "moment")
	if !hasMoments {
		momentKeys = hint("[ ]", "notable")
	}
	name := v.paneName(v.focus)
	switch v.focus {
	case paneEvents:
		if v.list == listMoments {
			keys = append(keys, hint("↑↓", "moment"), momentKeys, tab, hint("enter", "details"))
			add(searching, hint("n/N", "match"))
			keys = append(keys, hint("m", "raw events"), frames, k.Play, hint("f", "filter"), hint("/", "search"))
		} else {
			keys = append(keys, hint("↑↓", "event"), frames, tab, hint("enter", "fields"))
			add(searching, hint("n/N", "match"))
			add(hasMoments, hint("m", "moments"))
			keys = append(keys, k.Play, hint("/", "search"), hint("f", "filter"), momentKeys)
		}
		add(v.curFilter().active() || searching, hint("esc", "clear"))
	case paneProblems:
		keys = append(keys, hint("↑↓", "problem"), hint("enter", "show bytes"), tab, hint("e/E", "next/prev"), frames)
	case paneInspector:
		if v.stage {
			keys = append(keys, frames, k.Play, tab, hint("v", "inspector"))
			add(v.moreScenesToShow(), hint("V", "more scenes"))
			keys = append(keys, momentKeys)
		} else {
			keys = append(keys, hint("←→", "byte"), hint("↑↓", "row"), tab, hint("enter", "owning event"), hint("g", "offset"))
			add(len(v.r.Regions) > 0, hint("o", "archive ⇄ decoded"))
			add(v.r.Scenes != nil, hint("v", "stage"))
		}
	case paneHeader:
		keys = append(keys, hint("↑↓", "field"), hint("enter", "show bytes"), tab, frames)
	}
	if len(v.r.Diagnostics) > 0 && v.focus != paneProblems {
		// a file with notes only: e walks the notes
		if v.r.Problems() > 0 {
			keys = append(keys, hint("e", "problem"))
		} else {
			keys = append(keys, hint("e", "note"))
		}
	}
	add(len(v.p.stats) > 0, hint("s", "stats"))
	add(v.hand != nil && canWatch(v.r.Format), watchKey)
	return name, keys
}

// moreScenesToShow reports whether V has a page of scenes to turn to.
func (v *replayView) moreScenesToShow() bool {
	return v.sceneN > v.scenesFit(v.layout().inspW)
}
