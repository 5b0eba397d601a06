package tui

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"rewind/library"
	"rewind/library/watch"
)

// The live browser: the folders the browser shows are watched
// (library/watch: file notifications, polling where they do not come) while
// it is open. A replay that appears is read and listed; one being written
// is marked live and opens following it, as --follow does; one that is
// finished is read again and checked, so its row, the sets it joins and
// the stats view take in the game's result; one removed leaves the list.
// The list is sorted and filtered again as for any new row: the cursor
// stays on the row it was on, the filter and the scroll where they were.

// liveReadEvery is how often a row being written is read again.
const liveReadEvery = 2 * time.Second

// liveWatchMsg is one event of the watcher over the browser's folders.
type liveWatchMsg struct {
	gen int
	ev  watch.Event
	ok  bool // false: the watcher is closed
}

// liveReadMsg is the rows of files the watcher reported, read into the
// store (off the screen's goroutine).
type liveReadMsg struct {
	gen      int
	batch    []library.Scanned
	finished bool // the files are finished: check them, for their summaries
}

// watchFolders starts watching the browser's folders; nil when there are
// none (the built-in samples are never written to).
func (b *browser) watchFolders() tea.Cmd {
	if b.fsys != nil || len(b.roots) == 0 || b.watcher != nil {
		return nil
	}
	b.watcher = watch.New(watch.Options{})
	for _, root := range b.roots {
		b.watcher.Add(root) // a root that cannot be watched says so in a Problem event
	}
	return nextWatch(b.gen, b.watcher)
}

// nextWatch waits for the watcher's next event.
func nextWatch(gen int, w *watch.Watcher) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-w.Events()
		return liveWatchMsg{gen: gen, ev: ev, ok: ok}
	}
}

// onWatch takes an event of the watcher.
func (b *browser) onWatch(msg liveWatchMsg) tea.Cmd {
	if msg.gen != b.gen || !msg.ok {
		return nil
	}
	next := nextWatch(msg.gen, b.watcher)
	ev := msg.ev
	switch ev.Op {
	case watch.Appeared:
		return tea.Batch(next, b.readLive(ev.Path, false))
	case watch.Grew:
		if b.live == nil {
			b.live, b.liveRead = map[string]bool{}, map[string]time.Time{}
		}
		b.live[ev.Path] = true
		// the row's length follows the recording, read again every few
		// seconds (a header read; the index keeps the last)
		if time.Since(b.liveRead[ev.Path]) >= liveReadEvery {
			b.liveRead[ev.Path] = time.Now()
			return tea.Batch(next, b.readLive(ev.Path, false))
		}
		return next
	case watch.Finished:
		delete(b.live, ev.Path)
		delete(b.liveRead, ev.Path)
		return tea.Batch(next, b.readLive(ev.Path, true))
	case watch.Removed:
		delete(b.live, ev.Path)
		delete(b.liveRead, ev.Path)
		return tea.Batch(next, b.dropPath(ev.Path))
	}
	return next
}

// readLive reads a file the watcher named into the store, as the walk
// reads a new or changed file.
func (b *browser) readLive(path string, finished bool) tea.Cmd {
	gen, store, idx := b.gen, b.store, b.index
	return func() tea.Msg {
		var got []library.Scanned
		opt := library.ScanOptions{Index: idx}
		library.ScanRows(context.Background(), library.Paths([]string{path}), opt, store, func(ss []library.Scanned) bool {
			got = append(got, ss...)
			return true
		})
		return liveReadMsg{gen: gen, batch: got, finished: finished}
	}
}

// onLiveRead lists what readLive read; a finished file goes to the checker
// first, for its summary (outcomes, stats, moments).
func (b *browser) onLiveRead(msg liveReadMsg) tea.Cmd {
	if msg.gen != b.gen {
		return nil
	}
	for i := range msg.batch {
		msg.batch[i].Read = true // read again: its row's values changed
		b.confirmed.set(msg.batch[i].ID)
	}
	cmd := b.scanned(msg.batch)
	if msg.finished && b.checker != nil {
		ids := make([]library.RowID, 0, len(msg.batch))
		for _, s := range msg.batch {
			b.checker.Forget(s.ID) // checked before it was finished, if at all
			ids = append(ids, s.ID)
		}
		b.checker.Add(ids)
		for _, id := range ids {
			b.checker.Prefer(id)
			if b.awaitCheck == nil {
				b.awaitCheck = map[library.RowID]bool{}
			}
			b.awaitCheck[id] = true
		}
	}
	if b.index != nil {
		idx := b.index
		cmd = tea.Batch(cmd, func() tea.Msg { idx.Flush(); return nil })
	}
	// the stats view reads the rows again once a finished game's check
	// has landed (applyChecks), not at each read of a growing file
	return cmd
}

// dropPath takes a removed file's row off the list.
func (b *browser) dropPath(path string) tea.Cmd {
	id, ok := b.store.Lookup(path)
	if !ok || !b.listed.has(id) {
		return nil
	}
	b.all = slices.DeleteFunc(b.all, func(r library.RowID) bool { return r == id })
	b.listed = nil
	for _, r := range b.all {
		b.listed.set(r)
	}
	b.epoch++
	return tea.Batch(b.refresh(false), b.liveChanged())
}

// liveChanged tells whoever shows the browser's rows that they changed (the
// stats view reads them again).
func (b *browser) liveChanged() tea.Cmd {
	return func() tea.Msg { return rowsChangedMsg{} }
}

// rowsChangedMsg says the browser's rows changed while the person looks at
// a view made of them.
type rowsChangedMsg struct{}

// isLive reports whether the row's file is being written.
func (b *browser) isLive(h *library.Header) bool { return b.live[h.Path] }
