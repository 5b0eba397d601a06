package dolphin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The frames of a queue item follow the comm spec's rules: widened by lead
// and trail, never before -123, never past the replay's last frame.
func TestQueueFrames(t *testing.T) {
	at := time.Date(2023, 4, 1, 18, 30, 5, 0, time.UTC)
	tests := []struct {
		name             string
		clip             Clip
		lead, trail      int64
		wantStart, wantE int64
	}{
		{"inside", Clip{Path: "a.slp", Start: 1000, End: 1200, Last: 9000}, DefaultLead, DefaultTrail, 760, 1380},
		{"near the start", Clip{Path: "a.slp", Start: 10, End: 50, Last: 9000}, DefaultLead, DefaultTrail, -123, 230},
		{"near the end", Clip{Path: "a.slp", Start: 8900, End: 8990, Last: 9000}, DefaultLead, DefaultTrail, 8660, 9000},
		{"no widening", Clip{Path: "a.slp", Start: 100, End: 200, Last: 9000}, 0, 0, 100, 200},
	}
	for _, tt := range tests {
		tt.clip.StartAt = at
		c, err := Queue([]Clip{tt.clip}, tt.lead, tt.trail)
		if err != nil {
			t.Fatal(err)
		}
		it := c.Queue[0]
		if it.StartFrame != tt.wantStart || it.EndFrame != tt.wantE {
			t.Errorf("%s: frames %d..%d, want %d..%d", tt.name, it.StartFrame, it.EndFrame, tt.wantStart, tt.wantE)
		}
		if !filepath.IsAbs(it.Path) || filepath.Base(it.Path) != "a.slp" {
			t.Errorf("%s: path %q is not absolute", tt.name, it.Path)
		}
		if it.GameStartAt != "2023-04-01 18:30:05" {
			t.Errorf("%s: gameStartAt %q", tt.name, it.GameStartAt)
		}
	}
}

// The written file is the comm spec's queue object, with a command id new
// each time.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "queue.json")
	c1, _ := Queue([]Clip{{Path: "/r/a.slp", Start: 0, End: 10, Last: 100}}, DefaultLead, DefaultTrail)
	c2, _ := Queue(nil, DefaultLead, DefaultTrail)
	if c1.CommandID == "" || c1.CommandID == c2.CommandID {
		t.Errorf("command ids %q and %q", c1.CommandID, c2.CommandID)
	}
	if err := Write(path, c1); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]any{"mode": "queue", "replay": "", "isRealTimeMode": false, "outputOverlayFiles": true} {
		if got[key] != want {
			t.Errorf("%s = %v, want %v", key, got[key], want)
		}
	}
	q, _ := got["queue"].([]any)
	if len(q) != 1 {
		t.Fatalf("queue %v", got["queue"])
	}
	item := q[0].(map[string]any)
	for _, key := range []string{"path", "startFrame", "endFrame", "gameStartAt", "gameStation"} {
		if _, ok := item[key]; !ok {
			t.Errorf("queue item has no %s: %v", key, item)
		}
	}
	if item["startFrame"] != float64(-123) || item["endFrame"] != float64(100) {
		t.Errorf("frames %v..%v", item["startFrame"], item["endFrame"])
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the temporary file stayed: %v", entries)
	}
}

// Play writes normal mode as the comm spec has it: the replay's absolute
// path and its start and end frames, never before -123, and no queue.
func TestPlay(t *testing.T) {
	tests := []struct {
		name               string
		start, end         int64
		wantStart, wantEnd float64
	}{
		{"a stretch", 600, 700, 600, 700},
		{"from the countdown", -500, 100, -123, 100},
		{"an end before the start", 300, 200, 300, 300},
	}
	for _, tt := range tests {
		c, err := Play("game.slp", tt.start, tt.end)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "comm.json")
		if err := Write(path, c); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got["mode"] != "normal" || got["startFrame"] != tt.wantStart || got["endFrame"] != tt.wantEnd || got["isRealTimeMode"] != false {
			t.Errorf("%s: %s", tt.name, data)
		}
		if p, _ := got["replay"].(string); !filepath.IsAbs(p) || filepath.Base(p) != "game.slp" {
			t.Errorf("%s: replay %q is not the absolute path", tt.name, got["replay"])
		}
		if id, _ := got["commandId"].(string); id == "" {
			t.Errorf("%s: no commandId", tt.name)
		}
		if _, ok := got["queue"]; ok {
			t.Errorf("%s: normal mode with a queue: %s", tt.name, data)
		}
	}
}

// Dolphin reads the file's modification time in whole seconds: a second
// write at once still moves it to another second, so Dolphin sees it.
func TestWriteTwiceInASecond(t *testing.T) {
	path := filepath.Join(t.TempDir(), "comm.json")
	var seconds []int64
	for range 3 {
		c, _ := Play("game.slp", 0, 10)
		if err := Write(path, c); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		seconds = append(seconds, st.ModTime().Unix())
	}
	if seconds[0] == seconds[1] || seconds[1] == seconds[2] {
		t.Errorf("modification times in seconds %v: Dolphin would miss a write", seconds)
	}
}
