package slippi

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"rewind/model"
)

// TestStageNamesMatchSlippiJS: every stage slippi-js 9.1.2 names (written
// to testdata/slippijs/stages.json by names.cjs) has that name here.
func TestStageNamesMatchSlippiJS(t *testing.T) {
	b, err := os.ReadFile("testdata/slippijs/stages.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != 57 {
		t.Fatalf("stages.json names %d stages; slippi-js 9.1.2 names 57 (30 VS, 26 Target Test, Home-Run)", len(want))
	}
	for k, name := range want {
		id, err := strconv.Atoi(k)
		if err != nil {
			t.Fatal(err)
		}
		eq(t, "stage "+k, stageName(id), name)
	}
}

// TestStageNamesPastSlippiJS: ids slippi-js does not name, from the
// external stage id table cited in ids/melee-stages.tsv.
func TestStageNamesPastSlippiJS(t *testing.T) {
	for _, c := range []struct {
		id   int
		want string
	}{
		{0x3B, "Mushroom Kingdom (Adventure)"},
		{0x52, "Race to the Finish"},
		{0x55, "All-Star Rest Area"},
		{0xB0, "Final Destination (Classic: Master Hand)"},
		{0xCA, "Battlefield (Event 1: Trouble King)"},
		{0xFC, "Final Destination (Event 51: The Showdown)"},
		{0x11D, "Battlefield (Multi-Man Melee)"},
		{0x100, ""}, // the table has no 0x100
		{21, ""},    // Akaneia, deleted from the game
	} {
		eq(t, "stage "+strconv.Itoa(c.id), stageName(c.id), c.want)
	}
}

// TestSceneNames: major scene ids as m-overlay's SCENE_* constants number
// them (cited in ids/melee-major-scenes.tsv); the spec gives 2 and 8.
func TestSceneNames(t *testing.T) {
	for _, c := range []struct {
		id   int
		want string
	}{
		{0x02, "vs"},
		{0x08, "online"},
		{0x0F, "target test"},
		{0x12, "slo-mo melee"},
		{0x1C, "training"},
		{0x20, "home-run contest"},
		{0x21, "multi-man melee (10-man)"},
		{0x22, "multi-man melee (100-man)"},
		{0x23, "multi-man melee (3-minute)"},
		{0x24, "multi-man melee (15-minute)"},
		{0x25, "multi-man melee (endless)"},
		{0x26, "multi-man melee (cruel)"},
		{0x2B, "event match"},
		{0x00, ""},
	} {
		eq(t, "scene "+strconv.Itoa(c.id), nameOf(nScene, int64(c.id), nameCtx{}), c.want)
	}
}

// TestEndMethodNames: the spec's table by version, then Melee's match
// results past it (m-overlay's MATCH_* constants).
func TestEndMethodNames(t *testing.T) {
	for _, c := range []struct {
		method int64
		ver    uint32
		want   string
	}{
		{0, ver(1, 0, 0), "Unresolved"},
		{3, ver(1, 0, 0), "Resolved"},
		{1, ver(1, 0, 0), ""},
		{1, v200, "TIME!"},
		{2, v200, "GAME!"},
		{7, v200, "No Contest"},
		{3, ver(3, 9, 1), "Stage Clear"},
		{4, ver(3, 9, 1), "Stage Failure"},
		{6, ver(3, 9, 1), "New Record"},
		{9, ver(3, 9, 1), "Game Clear"},
		{10, ver(3, 9, 1), ""},
	} {
		eq(t, "method "+strconv.FormatInt(c.method, 10)+" at "+verString(c.ver), endMethodName(c.method, c.ver), c.want)
	}
}

// TestHalfWidth: slippi-js's toHalfwidth (utils/fullwidth) turns full-width
// ASCII and the ideographic space into half width, and Melee's right single
// and double quotation marks into ' and "; everything else stays.
func TestHalfWidth(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"XX＃111", "XX#111"},
		{"Fox’s Booty", "Fox's Booty"},
		{"ｓａｙ　”ｈｉ”", `say "hi"`},
		{"“left” ‘left’", "“left\" ‘left'"},
		{"か、9@", "か、9@"},
		{"ＡＭＮイ", "AMNイ"},
		{"～", "~"},
	} {
		eq(t, "halfWidth("+c.in+")", halfWidth(c.in), c.want)
	}
}

// TestModesOfCorpusFiles: the mode and stage each file's Game Start gives,
// checked against the scene and stage ids slippi-js reads from the same
// bytes (settings.gameMode, settings.stageId) named by the tables above.
func TestModesOfCorpusFiles(t *testing.T) {
	for _, c := range []struct {
		file, mode, title, result string
	}{
		{sjs + "slp__homeRun_positive.slp", "home-run contest", "Home-Run Contest", "Game Clear"},                         // gameMode 32, stage 84, end 9
		{sjs + "slp__gameModeTest__Slo-Mo.slp", "slo-mo melee", "Final Destination", "GAME!"},                             // gameMode 18
		{sjs + "slp__gameModeTest__Training.slp", "training", "Dream Land N64", "no Game End"},                            // gameMode 28
		{sjs + "slp__gameModeTest__Versus.slp", "vs", "Pokémon Stadium", "GAME!"},                                         // gameMode 2
		{sjs + "slp__ranked_game1_tiebreak.slp", "online ranked g1 tiebreak 1", "Battlefield", "No Contest (LRAS by P2)"}, // match id; slippi-js lrasInitiatorIndex 1
		{peppi + "tests__data__game.slp", "vs", "Yoshi's Story", "Resolved"},                                              // 1.0.0: no scene
	} {
		t.Run(c.file, func(t *testing.T) {
			r := loadOpt(t, c.file, model.DecodeOptions{HeaderOnly: true})
			eq(t, "mode", r.Mode, c.mode)
			eq(t, "title", r.Title, c.title)
			eq(t, "result", r.Result, c.result)
		})
	}
}

// TestEmptyMetadataObjects: slippi-js shows an empty metadata object as {}
// (geckoCodes.slp: players.0.names); JSON output must write {} too, not null.
func TestEmptyMetadataObjects(t *testing.T) {
	r := load(t, sjs+"slp__geckoCodes.slp") // in testdata/samples
	f := get(t, r.Header, "metadata", "players", "0", "names")
	b, err := json.Marshal(f.Value)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "names as JSON", string(b), "{}")
	eq(t, "names as text", f.Text(), "{}")
}

// TestAbsentPlayerStatus: EXPECTED.md (slippi-js doubles.spec) has P1 of
// doubles.slp absent 7755..7782 (out of stocks, then back on a teammate's
// stock at 7783) and absent after 8236 to the last frame (eliminated). The
// state stays not present, as slippi-js has no frame there, and says why.
func TestAbsentPlayerStatus(t *testing.T) {
	r := load(t, sjs+"slp__doubles.slp")
	p1 := playerByPort(t, r, "P1")
	for _, c := range []struct {
		frame  int64
		status string
	}{
		{7754, ""},
		{7755, "out of stocks"},
		{7782, "out of stocks"},
		{7783, ""},
		{8236, ""},
		{8237, "eliminated"},
		{8742, "eliminated"},
	} {
		st := r.PlayerState(frameIndex(r, c.frame), p1)
		eq(t, "present at "+strconv.FormatInt(c.frame, 10), st.Present, c.status == "")
		status, _ := model.Find(st.Brief, "status")
		eq(t, "status at "+strconv.FormatInt(c.frame, 10), status.Text(), c.status)
		if c.status != "" {
			stocks, _ := model.Find(st.Brief, "stocksRemaining")
			eq(t, "stocks at "+strconv.FormatInt(c.frame, 10), stocks.Value, int64(0))
		}
	}
}
