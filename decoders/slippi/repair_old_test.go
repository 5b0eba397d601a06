package slippi

import (
	"encoding/binary"
	"fmt"
	"testing"

	"rewind/model"
)

// cutAt is a replay as a crash leaves it: the header and the first pct% of
// the event stream, raw length 0, no metadata (repair_old.cjs cuts the
// same way).
func cutAt(data []byte, pct int) []byte {
	raw := int(binary.BigEndian.Uint32(data[len(magic):]))
	if raw == 0 {
		raw = len(data) - rawStart
	}
	out := append([]byte(nil), data[:rawStart+raw*pct/100]...)
	binary.BigEndian.PutUint32(out[len(magic):], 0)
	return out
}

// TestRepairOldVersions repairs the oldest recordings (0.1.0: no Frame
// Bookend, a Game End of one byte, old metadata without lastFrame; 1.x;
// 2.0) cut at 40%, 70% and 95% of their event stream, and holds each
// repaired file to what slippi-js 9.1.2 reads from the same repaired bytes:
// its frames (every repaired file opens with its frames), its lastFrame,
// the Game End method and the metadata's lastFrame. The table is the output
// of /work/tools/slippi-cmp/repair_old.cjs.
func TestRepairOldVersions(t *testing.T) {
	for _, c := range []struct {
		file          string
		pct           int
		version       string
		frames        int
		lastFrame     int64
		method        int64
		metaLastFrame int64
	}{
		{"hohav__peppi/tests__data__v0.1.slp", 40, "0.1.0", 3293, 3169, 0, 3169},
		{"hohav__peppi/tests__data__v0.1.slp", 70, "0.1.0", 5764, 5640, 0, 5640},
		{"hohav__peppi/tests__data__v0.1.slp", 95, "0.1.0", 7824, 7700, 0, 7700},
		{"project-slippi__slippi-js/slp__test.slp", 40, "0.1.0", 1526, 1402, 0, 1402},
		{"project-slippi__slippi-js/slp__test.slp", 70, "0.1.0", 2672, 2548, 0, 2548},
		{"project-slippi__slippi-js/slp__test.slp", 95, "0.1.0", 3627, 3503, 0, 3503},
		{"project-slippi__slippi-js/slp__sheik_vs_ics_yoshis.slp", 40, "0.1.0", 1858, 1734, 0, 1734},
		{"project-slippi__slippi-js/slp__sheik_vs_ics_yoshis.slp", 70, "0.1.0", 3252, 3128, 0, 3128},
		{"project-slippi__slippi-js/slp__sheik_vs_ics_yoshis.slp", 95, "0.1.0", 4442, 4318, 0, 4318},
		{"hohav__peppi/tests__data__game.slp", 40, "1.0.0", 2082, 1958, 0, 1958},
		{"hohav__peppi/tests__data__game.slp", 70, "1.0.0", 3645, 3521, 0, 3521},
		{"hohav__peppi/tests__data__game.slp", 95, "1.0.0", 4948, 4824, 0, 4824},
		{"project-slippi__slippi-js/slp__doubles.slp", 40, "1.2.0", 3482, 3358, 0, 3358},
		{"project-slippi__slippi-js/slp__doubles.slp", 70, "1.2.0", 6095, 5971, 0, 5971},
		{"project-slippi__slippi-js/slp__doubles.slp", 95, "1.2.0", 8279, 8155, 0, 8155},
		{"hohav__peppi/tests__data__transform.slp", 40, "1.7.1", 1412, 1288, 0, 1288},
		{"hohav__peppi/tests__data__transform.slp", 70, "1.7.1", 2473, 2349, 0, 2349},
		{"hohav__peppi/tests__data__transform.slp", 95, "1.7.1", 3357, 3233, 0, 3233},
		{"hohav__peppi/tests__data__v2.0.slp", 40, "2.0.1", 4294, 4170, 7, 4170},
		{"hohav__peppi/tests__data__v2.0.slp", 70, "2.0.1", 7516, 7392, 7, 7392},
		{"hohav__peppi/tests__data__v2.0.slp", 95, "2.0.1", 10201, 10077, 7, 10077},
	} {
		name := fmt.Sprintf("%s cut at %d%%", c.file, c.pct)
		in := cutAt(readFile(t, path(t, c.file)), c.pct)
		rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r := checkRepaired(t, name, in, rep)
		eq(t, name+": version", r.Version, c.version)
		eq(t, name+": frames (slippi-js)", r.Timeline.Count, c.frames)
		eq(t, name+": frames reported", rep.Frames, c.frames)
		eq(t, name+": lastFrame (slippi-js getStats)", fact(rep, "lastFrame"), c.lastFrame)
		eq(t, name+": Game End method", fact(rep, "gameEndMethod"), c.method)
		eq(t, name+": metadata lastFrame", get(t, r.Header, "metadata", "lastFrame").Value, c.metaLastFrame)
	}
}
