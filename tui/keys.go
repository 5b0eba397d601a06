package tui

import "github.com/charmbracelet/bubbles/key"

// replayKeys is the replay view's key map; bubbles/help draws it.
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
		SecBack:     b([]string{"shift+left", "H"}, "⇧←", "−1s"),
		SecFwd:      b([]string{"shift+right", "L"}, "⇧→", "+1s"),
		PageBack:    b([]string{"pgup"}, "pgup", "−10s"),
		PageFwd:     b([]string{"pgdown"}, "pgdn", "+10s"),
		Home:        b([]string{"home"}, "home", "start"),
		End:         b([]string{"end"}, "end", "end"),
		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		Goto:        b([]string{"g"}, "g", "goto"),
		Play:        b([]string{" "}, "space", "play"),
		Slower:      b([]string{"["}, "[", "slower"),
		Faster:      b([]string{"]"}, "]", "faster"),
		Search:      b([]string{"/"}, "/", "search"),
		NextMatch:   b([]string{"n"}, "n", "next match"),
		PrevMatch:   b([]string{"N"}, "N", "prev match"),
		NextProblem: b([]string{"e"}, "e", "next problem"),
		PrevProb:    b([]string{"E"}, "E", "prev problem"),
		Focus:       b([]string{"tab"}, "tab", "focus"),
		FocusBack:   b([]string{"shift+tab"}, "⇧tab", "focus back"),
		Enter:       b([]string{"enter"}, "enter", "expand/jump"),
		Stage:       b([]string{"v"}, "v", "stage view"),
		Scenes:      b([]string{"V"}, "V", "more scenes"),
		Back:        b([]string{"esc"}, "esc", "back"),
		Help:        b([]string{"?"}, "?", "help"),
		Quit:        b([]string{"q"}, "q", "quit"),
		ForceQuit:   b([]string{"ctrl+c"}, "ctrl+c", "quit"),
	}
}

// ShortHelp is the help line under the replay view.
func (k replayKeys) ShortHelp() []key.Binding {
	return []key.Binding{shortFrames, shortSeconds, k.Play, k.Search, k.Goto, k.NextProblem, k.Focus, k.Stage, k.Help, k.Quit}
}

// shortFrames and shortSeconds only label pairs of keys in the help line.
var (
	shortFrames  = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←→", "frame"))
	shortSeconds = key.NewBinding(key.WithKeys("shift+left", "shift+right"), key.WithHelp("⇧←→", "±1s"))
)

// FullHelp is the `?` screen, in columns.
func (k replayKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Left, k.Right, k.SecBack, k.SecFwd, k.PageBack, k.PageFwd, k.Home, k.End},
		{k.Goto, k.Play, k.Slower, k.Faster, k.Stage, k.Scenes},
		{k.Search, k.NextMatch, k.PrevMatch, k.NextProblem, k.PrevProb},
		{k.Focus, k.Up, k.Down, k.Enter, k.Back, k.Help, k.Quit},
	}
}

// inspectorKeys are what the arrows do while the inspector has the focus;
// shown in the full help so the byte cursor can be found.
func inspectorHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "byte (inspector)")),
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "row (inspector)")),
		key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "offset (inspector)")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "owning event")),
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
