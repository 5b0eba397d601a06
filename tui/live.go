package tui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

// Following a file as it is written (rewind --follow): decoders.Tail
// reads and decodes in its own goroutine and keeps the latest update in a
// one-place mailbox; the view asks for the next one with a command, which
// prepares it (the pass over the replay that prepare makes) off the UI
// goroutine. Updates the view was too busy to take are skipped: only the
// newest counts.

// liveMsg is an update of the followed file, prepared for the view.
type liveMsg struct {
	u    decoders.Update
	p    *prepared
	err  error // following failed: the file cannot be followed any further
	done bool  // the last message: u is final, or err says why not
	feed *liveFeed
}

// liveFeed is the tailing goroutine and its mailbox.
type liveFeed struct {
	path   string
	box    chan liveMsg
	cancel context.CancelFunc
}

// startLive starts following path; idle 0 follows until the recording's
// own end (or until the view is closed).
func startLive(path string, idle time.Duration, poll time.Duration) *liveFeed {
	ctx, cancel := context.WithCancel(context.Background())
	lf := &liveFeed{path: path, box: make(chan liveMsg, 1), cancel: cancel}
	go func() {
		emit := func(u decoders.Update) {
			if !u.Final {
				lf.put(liveMsg{u: u})
			}
		}
		u, err := decoders.Tail(ctx, path, decoders.TailOptions{Idle: idle, Poll: poll}, emit)
		lf.put(liveMsg{u: u, err: err, done: true})
	}()
	return lf
}

// put replaces what the mailbox holds with m: the view wants the latest.
func (lf *liveFeed) put(m liveMsg) {
	for {
		select {
		case lf.box <- m:
			return
		default:
			select {
			case <-lf.box:
			default:
			}
		}
	}
}

// next waits for the next update and prepares it.
func (lf *liveFeed) next() tea.Cmd {
	return func() tea.Msg {
		m := <-lf.box
		m.feed = lf
		if m.u.Replay != nil {
			m.p = prepare(m.u.Replay)
		}
		return m
	}
}

// liveState is what the view shows of following: live or ended, and how
// far behind the last frame the cursor is.
type liveState struct {
	on     bool
	ended  string // why following ended; empty while live
	failed bool   // it ended with an error
}

// liveUpdate shows a newer replay of the followed file. A cursor on the
// last frame stays at the live edge; one the user moved away stays where
// it is (End rejoins the edge).
func (v *replayView) liveUpdate(r *model.Replay, p *prepared) {
	atEdge := v.frame >= v.count()-1
	v.swap(r, p)
	if v.diag >= len(r.Diagnostics) {
		v.diag = -1
	}
	v.prob = min(v.prob, max(len(r.Diagnostics)-1, 0))
	if v.ev >= len(r.Events) {
		v.ev = -1
	}
	switch {
	case atEdge && !v.playing:
		v.seek(v.count() - 1)
	case v.ev < 0:
		v.frame = v.tl.Clamp(v.frame)
		v.syncEvent()
	default:
		v.frame = v.tl.Clamp(v.frame)
	}
}

// swap puts another decode of the replay in the view (a grown snapshot, the
// full decode after the header): what is made of the replay once is made
// again; the cursors are the caller's to mend.
func (v *replayView) swap(r *model.Replay, p *prepared) {
	v.r, v.p = r, p
	v.tl, v.noTime = playTimeline(&r.Timeline)
	v.header = v.headerLines()
	v.headCur = min(v.headCur, max(len(v.header)-1, 0))
	v.stocks = v.stocks[:0]
	for _, pl := range r.Players {
		v.stocks = append(v.stocks, startStocks(pl.Fields))
	}
	v.applyEvents()
	v.applyMoments()
	v.barCache, v.fieldAt, v.statCache, v.chartLbl, v.footText = barCache{}, fieldCache{}, nil, nil, ""
}

// liveText is the timeline status's part about following: "● live", how
// far behind the cursor is, or why following ended.
func (v *replayView) liveText() string {
	p := v.paints
	switch {
	case !v.live.on:
		return ""
	case v.live.failed:
		return p.err.wrap("stopped: " + theme.Safe(v.live.ended))
	case v.live.ended != "":
		return p.dim.wrap("ended: " + theme.Safe(v.live.ended))
	}
	s := p.playing.wrap("● live")
	if behind := v.count() - 1 - v.frame; behind > 0 {
		s += p.dim.wrap(fmt.Sprintf(" %s %ss behind · end rejoins", model.FormatCount(int64(behind)), v.unit()))
	}
	return s
}
