package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/theme"
)

// TestLiveBrowser: over a folder the browser shows, a replay copied in is
// listed without a key pressed and the cursor stays on its row; one being
// written in chunks is marked live, and once its recorder has finished it
// shows its date and is checked; one removed leaves the list. The real
// watcher runs (library/watch); nothing here waits on a clock but for
// what the screen shows.
func TestLiveBrowser(t *testing.T) {
	t.Setenv("REWIND_CACHE", t.TempDir())
	dir := t.TempDir()
	samples := filepath.Join("..", "testdata", "samples", "slippi")
	copyInto := func(name, as string) {
		b, err := os.ReadFile(filepath.Join(samples, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, as), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyInto("tests__data__v3.16.slp", "a.slp")
	copyInto("tests__data__v3.12.slp", "b.slp")
	a := newApp(Config{Paths: []string{dir}}, theme.New(false))
	defer a.br.close()
	a.Update(tea.WindowSizeMsg{Width: 140, Height: 20})
	cmd := a.Init()
	// each runApp picks up the commands the last left waiting
	msgs := make(chan tea.Msg, 64)
	drive := func(what string, cond func() bool) {
		t.Helper()
		pending := cmd
		cmd = nil
		runAppWith(t, a, pending, msgs, what, cond)
	}
	drive("the first walk and checks", func() bool { return a.br.done && a.br.checked == 2 })
	a.Update(keyMsg("j")) // the person's cursor: on b.slp (older, second)
	sel := func() string { h := a.br.store.Header(a.br.shown[a.br.cur]); return filepath.Base(h.Path) }
	if sel() != "b.slp" {
		t.Fatalf("the cursor is on %s", sel())
	}

	copyInto("tests__data__v3.18.slp", "copied.slp")
	drive("the copy listed", func() bool { return len(a.br.all) == 3 && a.br.checked == 3 })
	if sel() != "b.slp" {
		t.Errorf("a new row moved the cursor to %s", sel())
	}

	// a recording: the raw length 0 until the end, as Dolphin writes it
	src, _ := os.ReadFile(filepath.Join(samples, "tests__data__netplay.slp"))
	live := filepath.Join(dir, "live.slp")
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		data := append([]byte(nil), src...)
		copy(data[11:15], []byte{0, 0, 0, 0})
		f, err := os.Create(live)
		if err != nil {
			return
		}
		for i := 0; i < len(data); i += 8192 {
			f.Write(data[i:min(i+8192, len(data))])
			time.Sleep(150 * time.Millisecond)
		}
		f.WriteAt(src[11:15], 11)
		f.Close()
	}()
	drive("the recording shown live", func() bool { return strings.Contains(ansi.Strip(a.View()), "● live") })
	<-wrote
	drive("the recording finished and checked", func() bool {
		h, ok := a.br.byPath(live)
		return ok && !h.Start.IsZero() && h.Check != nil && !strings.Contains(ansi.Strip(a.View()), "● live")
	})
	if sel() != "b.slp" {
		t.Errorf("the recording moved the cursor to %s", sel())
	}

	os.Remove(filepath.Join(dir, "copied.slp"))
	drive("the removed file gone", func() bool { return len(a.br.all) == 3 })
	if _, ok := a.br.byPath(filepath.Join(dir, "copied.slp")); ok && strings.Contains(ansi.Strip(a.View()), "copied.slp") {
		t.Errorf("copied.slp still shown")
	}
	checkScreen(t, a.View(), 140, 20)
}

// BenchmarkLiveBrowserAppears: the time from a replay copied into a folder
// the browser shows to its row being listed (the issue asks for under a
// second; measured here, never asserted). -benchtime 20x is plenty.
func BenchmarkLiveBrowserAppears(b *testing.B) {
	b.Setenv("REWIND_CACHE", b.TempDir())
	dir := b.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "slippi", "tests__data__v3.16.slp"))
	if err != nil {
		b.Fatal(err)
	}
	a := newApp(Config{Paths: []string{dir}}, theme.New(false))
	defer a.br.close()
	a.Update(tea.WindowSizeMsg{Width: 140, Height: 20})
	msgs := make(chan tea.Msg, 64)
	runAppWith(b, a, a.Init(), msgs, "the empty folder listed", func() bool { return a.br.done })
	var worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("copy%d.slp", i)), src, 0o644); err != nil {
			b.Fatal(err)
		}
		runAppWith(b, a, nil, msgs, "the copy listed", func() bool { return len(a.br.all) == i+1 })
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
}
