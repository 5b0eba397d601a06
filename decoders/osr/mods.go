package osr

import (
	"fmt"
	"strings"

	"rewind/model"
)

// modAcronyms are the mods by bit, as the game abbreviates them. Bit 25
// is the mania co-op mode (two stages).
var modAcronyms = [...]string{
	"NF", "EZ", "TD", "HD", "HR", "SD", "DT", "RX",
	"HT", "NC", "FL", "AT", "SO", "AP", "PF", "4K",
	"5K", "6K", "7K", "8K", "FI", "RD", "CN", "TP",
	"9K", "CO", "1K", "3K", "2K", "V2", "MR",
}

var modLong = [...]string{
	"No Fail", "Easy", "Touch Device", "Hidden", "Hard Rock", "Sudden Death", "Double Time", "Relax",
	"Half Time", "Nightcore", "Flashlight", "Autoplay", "Spun Out", "Autopilot", "Perfect", "4K",
	"5K", "6K", "7K", "8K", "Fade In", "Random", "Cinema", "Target Practice",
	"9K", "Co-op", "1K", "3K", "2K", "Score V2", "Mirror",
}

const (
	modNF = 1 << 0
	modDT = 1 << 6
	modSD = 1 << 5
	modNC = 1 << 9
	modAT = 1 << 11
	modPF = 1 << 14
	modCN = 1 << 22
)

// modList names the mods of a bit set as the game shows them: Nightcore
// sets Double Time's bit too and Perfect Sudden Death's, and the game
// shows only the first of each pair.
func modList(mods uint32) []string {
	var out []string
	for i, a := range modAcronyms {
		if mods&(1<<i) == 0 {
			continue
		}
		if (1<<i == modDT && mods&modNC != 0) || (1<<i == modSD && mods&modPF != 0) {
			continue
		}
		out = append(out, a)
	}
	if mods&(1<<31) != 0 {
		out = append(out, "bit31")
	}
	return out
}

// modsText is "+HDDT" or "" for no mod.
func modsText(mods uint32) string {
	l := modList(mods)
	if len(l) == 0 {
		return ""
	}
	return "+" + strings.Join(l, "")
}

func modsField(mods uint32, span model.Span) model.Field {
	f := model.Field{Key: "mods", Label: "Mods", Value: int64(mods), Span: span}
	if l := modList(mods); len(l) > 0 {
		f.Name = strings.Join(l, " ")
	} else {
		f.Name = "none"
	}
	return f
}

// modsLong names the mods in full: "Hidden, Double Time".
func modsLong(mods uint32) string {
	var out []string
	for i := range modLong {
		if mods&(1<<i) != 0 {
			out = append(out, modLong[i])
		}
	}
	return strings.Join(out, ", ")
}

// The hit counts' keys (osrparse's names, camel-cased) and what each
// mode's results screen calls them: mania's geki is MAX and its katu 200;
// catch counts fruits, drops and droplets, and its katu the droplets
// missed; taiko has no 50s, and its geki and katu are the big notes'
// great and good hits.
var countKeys = [6]string{"count300", "count100", "count50", "countGeki", "countKatu", "countMiss"}

const (
	c300 = iota
	c100
	c50
	cGeki
	cKatu
	cMiss
)

func countNames(mode uint8) [6]string {
	switch mode {
	case modeTaiko:
		return [6]string{"Great (300)", "Good (100)", "50 (unused)", "Great, big notes (geki)", "Good, big notes (katu)", "Miss"}
	case modeCatch:
		return [6]string{"Fruits (300)", "Drops (100)", "Droplets (50)", "Geki", "Droplets missed (katu)", "Miss"}
	case modeMania:
		return [6]string{"300", "100", "50", "MAX (geki)", "200 (katu)", "Miss"}
	}
	return [6]string{"300", "100", "50", "Geki", "Katu", "Miss"}
}

// accuracy is the results screen's accuracy from the hit counts, as each
// mode weighs them (osu!'s wiki, osu!lazer's LegacyScoreDecoder), with the
// points scored and the points possible it divides; 1 with no hit.
func accuracy(mode uint8, c [6]uint16) (acc, got, of float64) {
	n := func(i int) float64 { return float64(c[i]) }
	switch mode {
	case modeTaiko:
		got = 150*n(c100) + 300*n(c300)
		of = 300 * (n(c300) + n(c100) + n(c50) + n(cMiss))
	case modeCatch:
		got = n(c50) + n(c100) + n(c300)
		of = got + n(cMiss) + n(cKatu)
	case modeMania:
		got = 50*n(c50) + 100*n(c100) + 200*n(cKatu) + 300*(n(c300)+n(cGeki))
		of = 300 * (n(c300) + n(c100) + n(c50) + n(cGeki) + n(cKatu) + n(cMiss))
	default:
		got = 50*n(c50) + 100*n(c100) + 300*n(c300)
		of = 300 * (n(c300) + n(c100) + n(c50) + n(cMiss))
	}
	if of == 0 {
		return 1, 0, 0
	}
	return got / of, got, of
}

// grade is the rank the stable client gives the counts, by its rules as
// osu!lazer's LegacyScoreDecoder writes them down, named as lazer's score
// info names ranks: X is SS, XH and SH the silver SS and S of Hidden and
// Flashlight.
func grade(mode uint8, mods uint32, c [6]uint16) string {
	silver := mods&(1<<3|1<<10|1<<20) != 0 // HD, FL, FI
	ss, s := "X", "S"
	if silver {
		ss, s = "XH", "SH"
	}
	acc, _, _ := accuracy(mode, c)
	switch mode {
	case modeStd, modeTaiko:
		total := float64(c[c300]) + float64(c[c100]) + float64(c[c50]) + float64(c[cMiss])
		if total == 0 {
			return ss
		}
		r300, r50 := float64(c[c300])/total, float64(c[c50])/total
		miss := c[cMiss] > 0
		switch {
		case r300 == 1:
			return ss
		case r300 > 0.9 && r50 <= 0.01 && !miss:
			return s
		case (r300 > 0.8 && !miss) || r300 > 0.9:
			return "A"
		case (r300 > 0.7 && !miss) || r300 > 0.8:
			return "B"
		case r300 > 0.6:
			return "C"
		}
		return "D"
	case modeCatch:
		switch {
		case acc == 1:
			return ss
		case acc > 0.98:
			return s
		case acc > 0.94:
			return "A"
		case acc > 0.9:
			return "B"
		case acc > 0.85:
			return "C"
		}
		return "D"
	}
	switch {
	case acc == 1:
		return ss
	case acc > 0.95:
		return s
	case acc > 0.9:
		return "A"
	case acc > 0.8:
		return "B"
	case acc > 0.7:
		return "C"
	}
	return "D"
}

// gradeNames are the ranks as the results screen shows them.
var gradeNames = map[string]string{"X": "SS", "XH": "SS (silver)", "SH": "S (silver)", "F": "F (failed)"}

func gradeName(g string) string {
	if n, ok := gradeNames[g]; ok {
		return n
	}
	return g
}

func pctName(a float64) string { return fmt.Sprintf("%.2f%%", a*100) }
