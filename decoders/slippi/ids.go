package slippi

import (
	"embed"
	"strconv"
	"strings"
	"sync"
)

// The name tables are copies of specs/ids/melee-*.tsv (the internal
// character table's "Ganondorft" is corrected to "Ganondorf").
//
//go:embed ids/*.tsv
var idFiles embed.FS

type tables struct {
	external      map[int]string   // external character id -> name
	externalShort map[int]string   // external character id -> short name
	colors        map[int][]string // external character id -> costume names
	internal      map[int]string   // internal character id -> name
	stages        map[int]string
	scenes        map[int]string // major scene -> mode
	items         map[int]string
	moves         map[int]string
}

// actionTables names action states, by far the largest table: only the
// views of a frame's updates read it (State, Detail), never a listing or
// the stats, so it has a load of its own.
type actionTables struct {
	common  map[int]string            // action states shared by all characters
	special map[string]map[int]string // action state group -> id -> name
}

var (
	tablesOnce  sync.Once
	tbl         *tables
	actionsOnce sync.Once
	actionTbl   *actionTables
)

// names loads the tables on first use, so that HeaderOnly listings of
// many files pay for them once.
func names() *tables {
	tablesOnce.Do(func() {
		t := &tables{
			external: map[int]string{}, externalShort: map[int]string{}, colors: map[int][]string{},
			internal: map[int]string{}, stages: map[int]string{}, scenes: map[int]string{}, items: map[int]string{},
			moves: map[int]string{},
		}
		rows("melee-characters.tsv", func(f []string) {
			id, _ := strconv.Atoi(f[0])
			t.external[id] = f[1]
			if len(f) > 2 {
				t.externalShort[id] = f[2]
			}
			if len(f) > 3 {
				t.colors[id] = strings.Split(f[3], ",")
			}
		})
		simple := func(file string, m map[int]string) {
			rows(file, func(f []string) {
				id, _ := strconv.Atoi(f[0])
				m[id] = f[1]
			})
		}
		simple("melee-characters-internal.tsv", t.internal)
		simple("melee-stages.tsv", t.stages)
		simple("melee-major-scenes.tsv", t.scenes)
		simple("melee-items.tsv", t.items)
		simple("melee-moves.tsv", t.moves)
		tbl = t
	})
	return tbl
}

// actionNames loads the action state table on first use.
func actionNames() *actionTables {
	actionsOnce.Do(func() {
		t := &actionTables{common: map[int]string{}, special: map[string]map[int]string{}}
		rows("melee-action-states.tsv", func(f []string) {
			if len(f) < 3 {
				return
			}
			id, _ := strconv.Atoi(f[1])
			if f[0] == "Common" {
				t.common[id] = f[2]
				return
			}
			m := t.special[f[0]]
			if m == nil {
				m = map[int]string{}
				t.special[f[0]] = m
			}
			m[id] = f[2]
		})
		actionTbl = t
	})
	return actionTbl
}

// rows calls fn for each data row of an embedded table, skipping comments
// and the header line.
func rows(file string, fn func([]string)) {
	b, err := idFiles.ReadFile("ids/" + file)
	if err != nil {
		return
	}
	header := true
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		fn(strings.Split(line, "\t"))
	}
}

// actionGroup maps an internal character id to its group in the action
// state table.
var actionGroup = [...]string{
	0: "Mario", 1: "Fox", 2: "CaptainFalcon", 3: "DonkeyKong", 4: "Kirby", 5: "Bowser",
	6: "Link", 7: "Sheik", 8: "Ness", 9: "Peach", 10: "Popo", 11: "Nana", 12: "Pikachu",
	13: "Samus", 14: "Yoshi", 15: "Jigglypuff", 16: "Mewtwo", 17: "Luigi", 18: "Marth",
	19: "Zelda", 20: "YoungLink", 21: "DrMario", 22: "Falco", 23: "Pichu",
	24: "GameAndWatch", 25: "Ganondorf", 26: "Roy",
}

// externalToInternal maps a Game Start character id to the id pre/post
// frames use, for naming action states before the first post-frame.
var externalToInternal = [...]int{
	0: 2, 1: 3, 2: 1, 3: 24, 4: 4, 5: 5, 6: 6, 7: 17, 8: 0, 9: 18, 10: 16, 11: 8, 12: 9,
	13: 12, 14: 10, 15: 15, 16: 13, 17: 14, 18: 19, 19: 7, 20: 22, 21: 20, 22: 21, 23: 26,
	24: 23, 25: 25, 26: 27, 27: 29, 28: 30, 29: 31, 30: 28, 31: 32,
}

func externalName(id int) string {
	if n, ok := names().external[id]; ok {
		return n
	}
	return ""
}

func internalName(id int) string {
	if n, ok := names().internal[id]; ok {
		return n
	}
	return ""
}

func stageName(id int) string { return names().stages[id] }

// sceneName is the mode a major scene id stands for ("training").
func sceneName(id int) string { return names().scenes[id] }

func itemName(id int) string { return names().items[id] }

func moveName(id int) string { return names().moves[id] }

// actionName names an action state for an internal character (-1 unknown).
func actionName(state, char int) string {
	t := actionNames()
	if state < 341 {
		return t.common[state]
	}
	if char >= 0 && char < len(actionGroup) {
		if m := t.special[actionGroup[char]]; m != nil {
			return m[state]
		}
	}
	return ""
}

func costumeName(char, costume int) string {
	c := names().colors[char]
	if costume >= 0 && costume < len(c) {
		return c[costume]
	}
	return ""
}
