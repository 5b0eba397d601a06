package tui

import (
	"fmt"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/library/diff"
	"rewind/model"
	"rewind/theme"
)

// RunDiff opens the split view of two decoded replays (`rewind diff A B` on
// a terminal) and compares their whole timelines in the background. It
// returns the comparison, or nil when the view was closed before it was
// done.
func RunDiff(cfg Config, a, b *model.Replay, opt diff.Options) (*diff.Result, error) {
	th, err := theme.Load(cfg.Theme)
	if err != nil {
		return nil, err
	}
	if th.NoColor {
		lipgloss.SetColorProfile(termenv.ANSI)
	}
	lipgloss.SetHasDarkBackground(th.Palette == theme.Dark)
	m := newDiffApp(a, b, opt, th)
	opts := []tea.ProgramOption{tea.WithAltScreen()}
	if cfg.Input != nil {
		opts = append(opts, tea.WithInput(cfg.Input))
	}
	if cfg.Output != nil {
		opts = append(opts, tea.WithOutput(cfg.Output))
	}
	p := tea.NewProgram(m, opts...)
	if cfg.Output != nil {
		go p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	}
	if _, err := p.Run(); err != nil {
		return nil, err
	}
	return m.dv.res, nil
}

// diffApp is the split view's program: the view and the comparison that
// runs beside it, whose progress a ticker shows.
type diffApp struct {
	dv          *diffView
	compare     tea.Cmd
	done, total atomic.Int64
}

// compareTickMsg redraws the comparison's progress.
type compareTickMsg struct{}

func compareTick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return compareTickMsg{} })
}

func newDiffApp(a, b *model.Replay, opt diff.Options, th *theme.Theme) *diffApp {
	va, vb := newReplayView(a, prepare(a), th), newReplayView(b, prepare(b), th)
	m := &diffApp{dv: newDiffView(va, vb, opt, th)}
	opt.Progress = func(done, total int64) {
		m.done.Store(done)
		m.total.Store(total)
	}
	m.compare = func() (msg tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				msg = compareDoneMsg{err: fmt.Errorf("the comparison failed: %v", p)}
			}
		}()
		res, err := diff.Compare(a, b, opt)
		return compareDoneMsg{res: res, err: err}
	}
	return m
}

func (m *diffApp) Init() tea.Cmd { return tea.Batch(m.compare, compareTick()) }

func (m *diffApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// a terminal may hand over several typed keys in one read: one at a time
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	if _, ok := msg.(compareTickMsg); ok {
		if m.dv.res != nil || m.dv.resErr != "" {
			return m, nil
		}
		if total := m.total.Load(); total > 0 {
			m.dv.progress = float64(m.done.Load()) / float64(total)
		}
		return m, compareTick()
	}
	return m, m.dv.Update(msg)
}

func (m *diffApp) View() string { return m.dv.View() }
