package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDuration reads a game time the way people write it and the way
// FormatDuration prints it: m:ss, m:ss.cc, h:mm:ss(.cc), or a number of
// seconds with an s ("83.5s"). A leading minus is allowed, for Slippi's
// countdown before frame 0. A plain number is not a time (it is a frame
// number where both are accepted), so it is refused here.
func ParseDuration(s string) (time.Duration, error) {
	in := s
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	bad := func(why string) (time.Duration, error) {
		return 0, fmt.Errorf("%q is not a time: %s", in, why)
	}
	var secs float64
	switch {
	case strings.HasSuffix(s, "s") && !strings.Contains(s, ":"):
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
		if err != nil || f < 0 || strings.ContainsAny(s, "eEnNiI+_") {
			return bad("seconds are a number followed by s, like 83.5s")
		}
		secs = f
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		if len(parts) > 3 {
			return bad("write m:ss or h:mm:ss")
		}
		for i, p := range parts {
			last := i == len(parts)-1
			if p == "" || strings.Trim(p, "0123456789.") != "" || (!last && strings.Contains(p, ".")) {
				return bad("write m:ss or h:mm:ss, with a fraction only on the seconds")
			}
			f, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return bad("write m:ss or h:mm:ss, with a fraction only on the seconds")
			}
			if i > 0 && f >= 60 {
				return bad(fmt.Sprintf("%s is not below 60", p))
			}
			secs = secs*60 + f
		}
	default:
		return bad("write m:ss, h:mm:ss or seconds with an s, like 1:05.5 or 65.5s")
	}
	if secs > 1e7 { // about 115 days: no replay is that long, and it keeps the Duration exact
		return bad("longer than any replay")
	}
	d := time.Duration(secs*float64(time.Second) + 0.5)
	if neg {
		d = -d
	}
	return d, nil
}
