package sc2

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

var (
	reVersion = regexp.MustCompile(`^v(\d+\.\d+\.\d+\.\d+) base (\d+)`)
	reLoops   = regexp.MustCompile(`^loops=(\d+)$`)
	reMap     = regexp.MustCompile(`^map=(.*)$`)
	rePlayers = regexp.MustCompile(`^details players\[(\d+)\]: (.*)$`)
	reMPQ     = regexp.MustCompile(`^mpq v(\d) sector=(\d+)`)
	reMsg     = regexp.MustCompile(`^message.events=(\d+)B$`)
	reMore    = regexp.MustCompile(` \+\d+ more$`)
)

// TestManifest checks every corpus file against the facts MANIFEST.tsv
// records for it: version and base build, loops, map, the players of
// replay.details with their races, the archive's format version and sector
// size, whether tracker events exist and the message stream's size.
func TestManifest(t *testing.T) {
	dir := corpus.Dir(t, "sc2")
	fh, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	checked, values := 0, 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 || cols[0] == "file" {
			continue
		}
		file, notes := cols[0], cols[6]
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		r, derr := Decode(data, model.DecodeOptions{})
		if strings.Contains(notes, "NOT AN MPQ") {
			if derr == nil {
				t.Errorf("%s: junk file accepted", file)
			}
			values++
			continue
		}
		if derr != nil {
			t.Errorf("%s: %v", file, derr)
			continue
		}
		checked++
		for _, part := range strings.Split(notes, " ; ") {
			part = strings.TrimSpace(part)
			if m := reVersion.FindStringSubmatch(part); m != nil {
				base, _ := model.Find(r.Header, "baseBuild")
				want, _ := strconv.ParseInt(m[2], 10, 64)
				if r.Version != m[1] || base.Value != want {
					t.Errorf("%s: version %s base %v, want %s %d", file, r.Version, base.Value, m[1], want)
				}
				values += 2
			}
			if m := reLoops.FindStringSubmatch(part); m != nil {
				n, _ := strconv.Atoi(m[1])
				if r.Timeline.Count != n+1 {
					t.Errorf("%s: %d frames, want loops %d + 1", file, r.Timeline.Count, n)
				}
				values++
			}
			if m := reMap.FindStringSubmatch(part); m != nil {
				// the manifest trims trailing spaces (one title ends in U+00A0)
				if strings.TrimSpace(r.Title) != strings.TrimSpace(m[1]) {
					t.Errorf("%s: map %q, want %q", file, r.Title, m[1])
				}
				values++
			}
			if m := rePlayers.FindStringSubmatch(part); m != nil {
				// the details players: the replay's, and in a GameHeart
				// lobby the ones that only watch (gameheart.go), which
				// the manifest lists among them
				type entry struct{ name, race string }
				var details []entry
				for _, p := range r.Players {
					details = append(details, entry{p.Name, p.Character})
				}
				obs, _ := model.Find(r.Header, "gameHeartObservers")
				for _, o := range obs.Fields {
					details = append(details, entry{o.Label, o.Name})
				}
				n, _ := strconv.Atoi(m[1])
				if len(details) != n {
					t.Errorf("%s: %d players and %d observers, want %d details players", file, len(r.Players), len(obs.Fields), n)
					continue
				}
				values++
				// the manifest lists the first players only: "... +1 more"
				list := reMore.ReplaceAllString(strings.TrimSpace(m[2]), "")
				items := strings.Split(strings.TrimSuffix(list, ")"), "), ")
				for i, it := range items {
					k := strings.LastIndex(it, "(")
					if k < 0 || i >= len(details) {
						continue
					}
					// the manifest has the details' race as the client wrote it,
					// in its language; rewind names races in English
					name, _ := splitClan(it[:k])
					want := entry{name, englishRace(it[k+1:])}
					if len(obs.Fields) > 0 {
						// players first, then the observers: in
						// details' order, they are mixed
						if !slices.Contains(details, want) {
							t.Errorf("%s: no details player %v among %v", file, want, details)
						}
					} else if details[i] != want {
						t.Errorf("%s: player %d %v, want %v", file, i+1, details[i], want)
					}
					values += 2
				}
			}
			if m := reMPQ.FindStringSubmatch(part); m != nil {
				a, err := mpq.Open(data, nil)
				if a == nil {
					t.Errorf("%s: %v", file, err)
					continue
				}
				v, _ := strconv.Atoi(m[1])
				ss, _ := strconv.Atoi(m[2])
				if int(a.Header.FormatVersion) != v || a.Header.SectorSize() != ss {
					t.Errorf("%s: mpq v%d sector %d, want v%d %d", file, a.Header.FormatVersion, a.Header.SectorSize(), v, ss)
				}
				values += 2
			}
			if part == "tracker=yes" {
				if _, ok := r.Streams[fTracker]; !ok && !strings.Contains(notes, "TRUNCATED") {
					t.Errorf("%s: no tracker stream", file)
				}
				values++
			}
			if m := reMsg.FindStringSubmatch(part); m != nil {
				n, _ := strconv.Atoi(m[1])
				if len(r.Streams[fMessages]) != n {
					t.Errorf("%s: message stream %d bytes, want %d", file, len(r.Streams[fMessages]), n)
				}
				values++
			}
		}
	}
	t.Logf("%d files, %d manifest values checked", checked, values)
	if checked < 100 {
		t.Errorf("only %d files checked", checked)
	}
}
