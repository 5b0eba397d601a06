package tui

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestLower8EveryByte: lowering eight bytes at once changes exactly the
// ASCII capitals, whatever byte sits in whichever place (bytes of UTF-8
// sequences, '@' and '[' next to the letters, stay).
func TestLower8EveryByte(t *testing.T) {
	for c := range 256 {
		want := byte(c)
		if 'A' <= c && c <= 'Z' {
			want += 'a' - 'A'
		}
		for place := range 8 {
			// the byte among neighbours that carry into it if anything does
			for _, fill := range []byte{0x00, 0x7f, 0xff, 'Z', 'A'} {
				var in, out [8]byte
				for j := range in {
					in[j], out[j] = fill, fill
					if 'A' <= fill && fill <= 'Z' {
						out[j] = fill + 'a' - 'A'
					}
				}
				in[place], out[place] = byte(c), want
				got := lower8(load8(string(in[:]), 0))
				if w := load8(string(out[:]), 0); got != w {
					t.Fatalf("lower8(%q) = %#x, want %q", in, got, out)
				}
			}
		}
	}
}

// TestChunk: eight bytes of a name from a place, lowered, zeros past the
// end, on each of its paths (a whole eight, a tail of a long name, a
// short name, past the end).
func TestChunk(t *testing.T) {
	tests := []struct {
		s    string
		at   int
		want string
	}{
		{"Game_20190101T000000.slp", 0, "game_201"},
		{"Game_20190101T000000.slp", 7, "190101t0"},
		{"Game_20190101T000000.slp", 20, ".slp\x00\x00\x00\x00"},
		{"Game_20190101T000000.slp", 24, "\x00\x00\x00\x00\x00\x00\x00\x00"},
		{"Game_20190101T000000.slp", 99, "\x00\x00\x00\x00\x00\x00\x00\x00"},
		{"ABC", 0, "abc\x00\x00\x00\x00\x00"},
		{"ABC", 1, "bc\x00\x00\x00\x00\x00\x00"},
		{"", 0, "\x00\x00\x00\x00\x00\x00\x00\x00"},
		{"ÄRGER.slp", 0, "\xc3\x84rger.s"},
		{"12345678", 0, "12345678"},
		{"123456789", 2, "3456789\x00"},
	}
	for _, tt := range tests {
		if got, want := chunk(tt.s, tt.at), load8(tt.want, 0); got != want {
			t.Errorf("chunk(%q, %d) = %#x, want %q", tt.s, tt.at, got, tt.want)
		}
	}
}

// TestSharedBytes: the bytes two names share at the start, in lower case.
func TestSharedBytes(t *testing.T) {
	tests := []struct {
		a, b string
		upTo int
		want int
	}{
		{"Game_2019", "game_2020", 99, 7},
		{"Game_2019", "game_2020", 5, 5},
		{"abc", "abc", 99, 3},
		{"abc", "abcdef", 99, 3},
		{"", "abc", 99, 0},
		{"abcdefghijklmnopq", "ABCDEFGHIJKLMNOPx", 99, 16},
		{"abcdefghijklmnopq", "abcdefghijklmnop", 99, 16},
		{"ärger", "ärgern", 99, 6},
		{"x", "y", 99, 0},
	}
	for _, tt := range tests {
		if got := sharedBytes(tt.a, tt.b, tt.upTo); got != tt.want {
			t.Errorf("sharedBytes(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.upTo, got, tt.want)
		}
	}
}

// sortNamesRef is the order sortByNames means: by the names in lower
// case, byte by byte, a name before the ones it starts; ties in their
// order.
func sortNamesRef(names []string) []int {
	want := make([]int, len(names))
	for i := range want {
		want[i] = i
	}
	lower := make([]string, len(names))
	for i, s := range names {
		lower[i] = strings.ToLower(s)
	}
	slices.SortStableFunc(want, func(x, y int) int { return strings.Compare(lower[x], lower[y]) })
	return want
}

// checkSortByNames sorts names with sortByNames and holds it to the
// reference order, and its tie runs to the runs of equal names.
func checkSortByNames(t *testing.T, what string, names []string) {
	t.Helper()
	lowered := make([]string, len(names))
	for i, s := range names {
		lowered[i] = lowerName(s)
	}
	a := make([]kv, len(names))
	for i := range a {
		a[i].i = uint32(i)
	}
	var mu sync.Mutex
	var runs [][]int
	got := sortByNames(a, lowered, func(run, _ []kv, _ []int) {
		var r []int
		for _, e := range run {
			r = append(r, int(e.i))
		}
		mu.Lock()
		runs = append(runs, r)
		mu.Unlock()
	})
	want := sortNamesRef(names)
	for j := range want {
		if int(got[j].i) != want[j] {
			t.Errorf("%s: at %d got %q (%d), want %q (%d)", what, j, names[got[j].i], got[j].i, names[want[j]], want[j])
			return
		}
	}
	// the runs of equal names, each reported once, whole
	var wantRuns [][]int
	for lo := 0; lo < len(want); {
		hi := lo + 1
		for hi < len(want) && strings.ToLower(names[want[hi]]) == strings.ToLower(names[want[lo]]) {
			hi++
		}
		if hi-lo > 1 {
			wantRuns = append(wantRuns, want[lo:hi])
		}
		lo = hi
	}
	place := make([]int, len(want))
	for j, i := range want {
		place[i] = j
	}
	slices.SortFunc(runs, func(x, y []int) int { return place[x[0]] - place[y[0]] })
	if len(runs) != len(wantRuns) {
		t.Errorf("%s: %d runs of equal names, want %d", what, len(runs), len(wantRuns))
		return
	}
	for r := range runs {
		if !slices.Equal(runs[r], wantRuns[r]) {
			t.Errorf("%s: run %d is %v, want %v", what, r, runs[r], wantRuns[r])
			return
		}
	}
}

// TestSortByNames: names sort in lower case byte order, stably, on the
// paths a name sort takes (shared starts, names that start others, equal
// names, case, UTF-8, names longer than the two numbers made up front).
func TestSortByNames(t *testing.T) {
	long := strings.Repeat("replay_of_a_long_name_", 3) // past the first sixteen bytes
	tests := []struct {
		what  string
		names []string
	}{
		{"one", []string{"a"}},
		{"empty names", []string{"", "b", "", "a", ""}},
		{"prefixes", []string{"abcdefghi", "abc", "abcdefgh", "a", "", "abcdefghijklmnopq", "abcdefghijklmnop", "abcdefg", "ab"}},
		{"case", []string{"GAME", "game", "Game", "gamE", "GAMES", "gam"}},
		{"around the letters", []string{"{", "`", "[", "@", "Z", "z", "A", "a", "_", "0", "~"}},
		{"UTF-8", []string{"Ärger.slp", "ärger.slp", "zebra.slp", "Äpfel.slp", "éclair.slp", "Éclair.slp", "e.slp", "ÉCLAIR.SLP", "日本.slp", "ß.slp"}},
		{"shared start", []string{"Game_20190102T000001.slp", "Game_20190101T000002.slp", "game_20190101T000001.slp", "Game_20190101T000001.slp", "Game_2019.slp"}},
		{"long shared start", []string{long + "b", long + "a", long, long + "a", strings.ToUpper(long) + "A", long + "ab", long[:len(long)-1]}},
		{"differ past sixteen", []string{"0123456789abcdefZ", "0123456789abcdefz", "0123456789abcdefy", "0123456789abcdef", "0123456789abcdefghijklmnopqrstuvwxyz1", "0123456789abcdefghijklmnopqrstuvwxyz0"}},
		{"past the window", []string{long + long + "b", long + long + "a", long + long, long + strings.ToUpper(long) + "a", long + long + "a", long + "b", long + long + long + "c", long + long + long + "C"}},
		{"equal after the first number", []string{"abcdefgh", "ABCDEFGH", "abcdefgh" + long, "abcdefg", "abcdefgh", "abcdefgh" + long}},
	}
	for _, tt := range tests {
		checkSortByNames(t, tt.what, tt.names)
	}
}

// TestSortByNamesMany: lists long enough for the sort's paths on all
// cores (runs of equal names, long shared starts, a run of equal first
// numbers long enough to be radix-sorted on all cores itself), against
// the reference.
func TestSortByNamesMany(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	stems := []string{"Game_2019", "game_2020", "GAME_2019", "replay", "Replay", "a", "", "Ärger", "x_long_prefix_that_runs_past_sixteen_bytes_"}
	mixed := make([]string, 1<<15)
	for i := range mixed {
		s := stems[rng.Intn(len(stems))]
		switch rng.Intn(4) {
		case 0:
			mixed[i] = s // many equal
		case 1:
			mixed[i] = fmt.Sprintf("%s%d.slp", s, rng.Intn(100))
		default:
			mixed[i] = fmt.Sprintf("%s%08d.slp", s, rng.Intn(1_000_000))
		}
	}
	checkSortByNames(t, "mixed", mixed)
	// most names share twenty bytes, the rest do not
	bunched := make([]string, 1<<17)
	for i := range bunched {
		if rng.Intn(10) < 8 {
			bunched[i] = fmt.Sprintf("Game_20190101T0000_%06d_%d", rng.Intn(100_000), rng.Intn(3))
		} else {
			bunched[i] = fmt.Sprintf("%s%d", stems[rng.Intn(len(stems))], rng.Intn(1000))
		}
	}
	checkSortByNames(t, "bunched", bunched)
}

// TestSortByNamesRepeated: names as a real archive has them (numbered
// copies of stems that share long starts, each name many times, names
// past the window, names that end where others go on), sorted one list
// after another (the sort keeps its scratch, and a window's numbers from
// the sort before must not be read), against the reference.
func TestSortByNamesRepeated(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	long := strings.Repeat("a_folder_name_so_long_it_runs_past_the_window__", 2)
	for round, stems := range [][]string{
		{"test_replays__1.3.1.18221__1v1_Metalopol", "test_replays__1.3.1.18221__1v1_Metalopol", "Test_Replays__1.3.1.18221__1v1_", "test_replays__1.3.4.18701__24557", long, long + "B", "Starcraft2.ReplayParser.Tests__Replays__"},
		{"abcdefgh", "ABCDEFGH_", "abcdefgh_", "abcdefghijklmnopq", "x", long + long},
		{"Starcraft2.ReplayParser.Tests__Replays__", "starcraft2.replayparser.tests__replays__", "s2protocol.NET.tests__replays__test1", "s2protocol.NET.tests__replays__test10"},
	} {
		names := make([]string, 70_000-1000*round) // each list fits the scratch of the one before
		for i := range names {
			stem := stems[rng.Intn(len(stems))]
			switch rng.Intn(10) {
			case 0:
				names[i] = stem
			case 1:
				names[i] = fmt.Sprintf("%s%d", stem, rng.Intn(10))
			default:
				names[i] = fmt.Sprintf("%s_%04d.SC2Replay", stem, rng.Intn(200))
			}
		}
		checkSortByNames(t, fmt.Sprint("round ", round), names)
	}
}
