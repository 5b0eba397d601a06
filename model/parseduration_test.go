package model

import (
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1:05.5", 65*time.Second + 500*time.Millisecond, true},
		{"0:05", 5 * time.Second, true},
		{"1:23.45", 83*time.Second + 450*time.Millisecond, true},
		{"1:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"1:0:05", time.Hour + 5*time.Second, true},
		{"12.5s", 12500 * time.Millisecond, true},
		{"-0:01", -time.Second, true},
		{"-2.05s", -2050 * time.Millisecond, true},
		{"123", 0, false},    // a frame number, not a time
		{"1.5:20", 0, false}, // fraction on the minutes
		{"1:75", 0, false},   // seconds past 59
		{"1:60:00", 0, false},
		{"a:b", 0, false},
		{"1::2", 0, false},
		{":5", 0, false},
		{"1:2:3:4", 0, false},
		{"1e3s", 0, false},
		{"infs", 0, false},
		{"NaNs", 0, false},
		{"-1s5", 0, false},
		{"99999999:00", 0, false},
		{"", 0, false},
	} {
		got, err := ParseDuration(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("%q: %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestParseDurationReadsFormatDuration(t *testing.T) {
	for _, d := range []time.Duration{0, 10 * time.Millisecond, 65*time.Second + 500*time.Millisecond, -2050 * time.Millisecond, 3*time.Hour + 7*time.Second} {
		got, err := ParseDuration(FormatDuration(d))
		if err != nil || got != d {
			t.Errorf("%v printed %q read back %v, %v", d, FormatDuration(d), got, err)
		}
	}
}
