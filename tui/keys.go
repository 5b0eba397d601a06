package tui

import "github.com/charmbracelet/bubbles/key"

// replayKeys is the replay view's key map. The footer shows the keys of
// the focused pane (footerKeys) and `?` all of them (FullHelp), both drawn
// by bubbles/help from these bindings.
type replayKeys struct {
	Left, Right           key.Binding
	SecBack, SecFwd       key.Binding
	PageBack, PageFwd     key.Binding
	Home, End             key.Binding
	Up, Down              key.Binding
	Goto                  key.Binding
	Play                  key.Binding
	Slower, Faster        key.Binding
	Search                key.Binding
	NextMatch, PrevMatch  key.Binding
	NextProblem, PrevProb key.Binding
	NextMoment, PrevMom   key.Binding
	Moments               key.Binding
	Filter                key.Binding
	Stats                 key.Binding
	Clock                 key.Binding
	Focus, FocusBack      key.Binding
	Enter                 key.Binding
	Stage                 key.Binding
	Scenes                key.Binding
	Back                  key.Binding
	Help                  key.Binding
	Quit                  key.Binding
	ForceQuit             key.Binding
}

func newReplayKeys() replayKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return replayKeys{
		Left:        b([]string{"left", "h"}, "←/h", "−1 frame"),
		Right:       b([]string{"right", "l"}, "→/l", "+1 frame"),
		SecBack:     b([]string{"shift+left", "H"}, "⇧←/H", "−1s"),
		SecFwd:      b([]string{"shift+right", "L"}, "⇧→/L", "+1s"),
		PageBack:    b([]string{"pgup"}, "pgup", "−10s"),
		PageFwd:     b([]string{"pgdown"}, "pgdn", "+10s"),
		Home:        b([]string{"home"}, "home", "first frame"),
		End:         b([]string{"end"}, "end", "last frame"),
		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		Goto:        b([]string{"g"}, "g", "go to frame/time"),
		Play:        b([]string{" "}, "space", "play"),
		Slower:      b([]string{"<"}, "<", "slower"),
		Faster:      b([]string{">"}, ">", "faster"),
		Search:      b([]string{"/"}, "/", "search; kind: player: filter"),
		NextMatch:   b([]string{"n"}, "n", "next match"),
		PrevMatch:   b([]string{"N"}, "N", "prev match"),
		NextProblem: b([]string{"e"}, "e", "next problem"),
		PrevProb:    b([]string{"E"}, "E", "prev problem"),
		NextMoment:  b([]string{"]"}, "]", "next moment"),
		PrevMom:     b([]string{"["}, "[", "prev moment"),
		Moments:     b([]string{"m"}, "m", "moments ⇄ events"),
		Filter:      b([]string{"f"}, "f", "filter by kind/player"),
		Stats:       b([]string{"s"}, "s", "stats"),
		Clock:       b([]string{"c"}, "c", "game clock ⇄ real time"),
		Focus:       b([]string{"tab"}, "tab", "next pane"),
		FocusBack:   b([]string{"shift+tab"}, "⇧tab", "prev pane"),
		Enter:       b([]string{"enter"}, "enter", "expand/jump"),
		Stage:       b([]string{"v"}, "v", "stage ⇄ inspector"),
		Scenes:      b([]string{"V"}, "V", "more scenes"),
		Back:        b([]string{"esc"}, "esc", "clear/back"),
		Help:        b([]string{"?"}, "?", "help"),
		Quit:        b([]string{"q"}, "q", "quit"),
		ForceQuit:   b([]string{"ctrl+c"}, "ctrl+c", "quit"),
	}
}

// hint is one entry of the footer: the keys and what they do there.
func hint(k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc))
}

// FullHelp is the `?` screen, in columns: moving in time, what happened,
// finding, panes (the inspector's own keys are inspectorHelp).
func (k replayKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Left, k.Right, k.SecBack, k.SecFwd, k.PageBack, k.PageFwd, k.Home, k.End},
		{k.Goto, k.Play, k.Slower, k.Faster, k.Moments, k.NextMoment, k.PrevMom, k.Stats, k.Clock},
		{k.Search, k.NextMatch, k.PrevMatch, k.Filter, k.NextProblem, k.PrevProb, k.Back},
		{k.Focus, k.FocusBack, k.Up, k.Down, k.Enter, k.Stage, k.Scenes, k.Help, k.Quit},
	}
}

// inspectorHelp is what the keys do while the inspector has the focus;
// shown in the full help so the byte cursor can be found.
func inspectorHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "byte (inspector)")),
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "row (inspector)")),
		key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/dn", "page (inspector)")),
		key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "offset (inspector)")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "owning event")),
		key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "container ⇄ decoded bytes")),
		key.NewBinding(key.WithKeys("click"), key.WithHelp("click", "focus, select, seek")),
		key.NewBinding(key.WithKeys("wheel"), key.WithHelp("wheel", "scroll the pane")),
	}
}

// browserKeys is the browser's key map.
type browserKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Open, Filter, Clear, Help, Quit       key.Binding
}

func newBrowserKeys() browserKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return browserKeys{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown"}, "pgdn", "page down"),
		Home:     b([]string{"home", "g"}, "home", "first"),
		End:      b([]string{"end", "G"}, "end", "last"),
		Open:     b([]string{"enter"}, "enter", "open"),
		Filter:   b([]string{"/"}, "/", "filter"),
		Clear:    b([]string{"esc"}, "esc", "clear filter"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

func (k browserKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Clear, k.Help, k.Quit}
}

func (k browserKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}, {k.Open, k.Filter, k.Clear, k.Help, k.Quit}}
}
