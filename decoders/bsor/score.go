package bsor

import (
	"math"
	"sort"
)

// Scoring types as stored in noteID: the game's NoteData.ScoringType + 2;
// 0 is what the oldest mods wrote. 8-12 are the combined kinds newer maps
// produce where arcs and chains meet.
const (
	stDefault = iota
	stIgnore
	stNoScore
	stNormal
	stArcHead
	stArcTail
	stChainHead
	stChainLink
	stArcHeadArcTail
	stChainHeadArcTail
	stChainLinkArcHead
	stChainHeadArcHead
	stChainHeadArcHeadArcTail
)

var scoringNames = [...]string{
	"Default (old mod)", "Ignore", "NoScore", "Normal", "Arc head", "Arc tail", "Chain head", "Chain link",
	"Arc head and tail", "Chain head and arc tail", "Chain link and arc head", "Chain head and arc head",
	"Chain head, arc head and arc tail",
}

// scoreDef is the game's NoteScoreDefinition: the pre-swing (before cut),
// post-swing (after cut) and centre-distance parts each note kind can earn.
// Arc heads always get the full post-swing, arc tails the full pre-swing,
// chain heads no post-swing, chain links a fixed 20.
type scoreDef struct {
	maxAcc, minBefore, maxBefore, minAfter, maxAfter, fixed int
}

func (s scoreDef) max() int { return s.maxAcc + s.maxBefore + s.maxAfter + s.fixed }

var scoreDefs = [...]scoreDef{
	stDefault:                 {15, 0, 70, 0, 30, 0},
	stIgnore:                  {},
	stNoScore:                 {},
	stNormal:                  {15, 0, 70, 0, 30, 0},
	stArcHead:                 {15, 0, 70, 30, 30, 0},
	stArcTail:                 {15, 70, 70, 0, 30, 0},
	stChainHead:               {15, 0, 70, 0, 0, 0},
	stChainLink:               {0, 0, 0, 0, 0, 20},
	stArcHeadArcTail:          {15, 70, 70, 30, 30, 0},
	stChainHeadArcTail:        {15, 70, 70, 30, 30, 0},
	stChainLinkArcHead:        {0, 0, 0, 0, 0, 20},
	stChainHeadArcHead:        {15, 0, 70, 30, 30, 0},
	stChainHeadArcHeadArcTail: {15, 70, 70, 30, 30, 0},
}

func defFor(st int) scoreDef {
	if st >= 0 && st < len(scoreDefs) {
		return scoreDefs[st]
	}
	return scoreDefs[stNormal]
}

func isLink(st int) bool { return st == stChainLink || st == stChainLinkArcHead }

// noteParams is a noteID taken apart.
type noteParams struct {
	Scoring, Line, Layer, Color, Dir int
	Normalized                       int32 // the id after the bomb fix-ups
}

// decodeNoteID splits scoringType*10000 + lineIndex*1000 + layer*100 +
// colorType*10 + cutDirection. Bombs have colour -1 and direction 9, which
// old mods folded into ids like -1 or xx99; those are mapped to colour 3,
// direction 8 as BeatLeader's decoder does. Ids of 100000 and up come from
// maps with precise positions and use wider digits.
func decodeNoteID(id int32) noteParams {
	n := id
	if n == -1 {
		n += 39
	} else if n > 0 && n < 100000 && n%100 == 99 {
		n += 39
	}
	if n%10 == 9 {
		n--
	}
	p := noteParams{Normalized: n}
	v := int(n)
	if v < 100000 {
		p.Scoring = v / 10000
		v -= p.Scoring * 10000
		p.Line = v / 1000
		v -= p.Line * 1000
		p.Layer = v / 100
		v -= p.Layer * 100
	} else {
		p.Scoring = v / 10000000
		v -= p.Scoring * 10000000
		p.Line = v / 1000000
		v -= p.Line * 1000000
		p.Layer = v / 100000
		v -= p.Layer * 100000
	}
	p.Color = v / 10
	p.Dir = v - p.Color*10
	return p
}

// roundRating is Unity's Mathf.RoundToInt(max * rating) in float32,
// clamped to [lo, hi]; NaN counts as lo.
func roundRating(max int, rating float32, lo, hi int) int {
	x := float32(max) * rating
	if x != x {
		return lo
	}
	r := math.RoundToEven(float64(x))
	if r < float64(lo) {
		return lo
	}
	if r > float64(hi) {
		return hi
	}
	return int(r)
}

type cutScore struct{ Before, After, Acc int }

func (c cutScore) Total() int { return c.Before + c.After + c.Acc }

// cutScoreFor is the game's score for a good cut of a note of this kind.
func cutScoreFor(st int, c *cutInfo) cutScore {
	def := defFor(st)
	s := cutScore{
		Before: roundRating(def.maxBefore, c.BeforeCutRating, def.minBefore, def.maxBefore),
		After:  roundRating(def.maxAfter, c.AfterCutRating, def.minAfter, def.maxAfter),
	}
	if def.fixed > 0 {
		s.Acc = def.fixed
	} else {
		d := c.CutDistanceToCenter / 0.3
		if d != d || d < 0 {
			d = 0
		}
		if d > 1 {
			d = 1
		}
		s.Acc = roundRating(def.maxAcc, 1-d, 0, def.maxAcc)
	}
	return s
}

// multiplier is Beat Saber's ScoreMultiplierCounter: x1, x2 after 2 hits,
// x4 after 4 more, x8 after 8 more; a miss, bad cut, bomb or wall halves it
// and restarts the progress.
type multiplier struct{ mult, progress int }

func newMultiplier() multiplier { return multiplier{mult: 1} }

func (m *multiplier) up() {
	if m.mult >= 8 {
		return
	}
	m.progress++
	if m.progress >= m.mult*2 {
		m.mult *= 2
		m.progress = 0
	}
}

func (m *multiplier) down() {
	m.progress = 0
	if m.mult > 1 {
		m.mult /= 2
	}
}

// Kinds of scoring events, in the order the running score sees them.
const (
	evGood = iota
	evBad
	evMiss
	evBomb
	evWall
)

// scoreEvent is one note or wall in time order with the running totals
// after it.
type scoreEvent struct {
	time  float32
	kind  uint8
	index int32 // into notes or walls

	score, maxScore, combo, maxCombo int32
	mult                             int8
	misses, badCuts, bombs, wallHits int32
	energy                           float32
}

// scoring holds the running state for every scoring event and each note's
// own score.
type scoring struct {
	events     []scoreEvent // sorted by time
	noteScore  []cutScore   // per note, for good cuts
	noteMult   []int8       // multiplier applied to each note
	noteParams []noteParams
	final      scoreEvent
}

// computeScore replays the notes and walls in time order with the game's
// rules: a good cut raises the multiplier first and then scores at the new
// multiplier; accuracy is score over the best score possible for the notes
// seen so far (bombs and walls excluded), as BeatLeader reports it.
func computeScore(notes []note, walls []wall) *scoring {
	s := &scoring{
		noteScore:  make([]cutScore, len(notes)),
		noteMult:   make([]int8, len(notes)),
		noteParams: make([]noteParams, len(notes)),
		events:     make([]scoreEvent, 0, len(notes)+len(walls)),
	}
	for i := range notes {
		n := &notes[i]
		p := decodeNoteID(n.ID)
		s.noteParams[i] = p
		if p.Scoring == stIgnore {
			continue
		}
		if n.EventType == 0 && n.HasCut {
			s.noteScore[i] = cutScoreFor(p.Scoring, &n.Cut)
		}
		s.events = append(s.events, scoreEvent{time: n.EventTime, kind: uint8(n.EventType), index: int32(i)})
	}
	for i := range walls {
		t := walls[i].Time
		if walls[i].SpawnTim > t {
			t = walls[i].SpawnTim
		}
		s.events = append(s.events, scoreEvent{time: t, kind: evWall, index: int32(i)})
	}
	// Order by event time; events in the same frame share a time, and the
	// game then handles them in note time order (its scoring elements are
	// kept sorted by note time), which is the spawnTime field.
	key := func(e *scoreEvent) (float32, float32) {
		if e.kind == evWall {
			return e.time, e.time
		}
		n := &notes[e.index]
		return n.EventTime, n.SpawnTime
	}
	sort.SliceStable(s.events, func(a, b int) bool {
		ka, ta := key(&s.events[a])
		kb, tb := key(&s.events[b])
		if ka != kb {
			return ka < kb
		}
		return ta < tb
	})

	cur := newMultiplier()
	best := newMultiplier()
	var score, maxScore, combo, maxCombo, misses, bad, bombs, wallHits int32
	energy := float32(0.5)
	for k := range s.events {
		e := &s.events[k]
		switch e.kind {
		case evGood, evBad, evMiss:
			p := s.noteParams[e.index]
			def := defFor(p.Scoring)
			best.up()
			maxScore += int32(best.mult * def.max())
			link := isLink(p.Scoring)
			if e.kind == evGood {
				cur.up()
				combo++
				score += int32(cur.mult * s.noteScore[e.index].Total())
				s.noteMult[e.index] = int8(cur.mult)
				if link {
					energy += 0.002
				} else {
					energy += 0.01
				}
			} else {
				cur.down()
				combo = 0
				s.noteMult[e.index] = int8(cur.mult)
				if e.kind == evBad {
					bad++
					if link {
						energy -= 0.025
					} else {
						energy -= 0.1
					}
				} else {
					misses++
					if link {
						energy -= 0.03
					} else {
						energy -= 0.15
					}
				}
			}
		case evBomb:
			cur.down()
			combo = 0
			bombs++
			energy -= 0.15
		case evWall:
			cur.down()
			combo = 0
			wallHits++
			// the file records the energy at the end of the wall
			if en := walls[e.index].Energy; en >= 0 && en <= 1 {
				energy = en
			}
		}
		if energy > 1 {
			energy = 1
		}
		if energy < 0 {
			energy = 0
		}
		if combo > maxCombo {
			maxCombo = combo
		}
		e.score, e.maxScore, e.combo, e.maxCombo, e.mult = score, maxScore, combo, maxCombo, int8(cur.mult)
		e.misses, e.badCuts, e.bombs, e.wallHits, e.energy = misses, bad, bombs, wallHits, energy
	}
	if len(s.events) > 0 {
		s.final = s.events[len(s.events)-1]
	} else {
		s.final = scoreEvent{mult: 1, energy: 0.5}
	}
	return s
}

// gameMultiplier is the base game's modifier bonus (FS +8%, DA +7%, ...);
// the file's score is before it. NF only counts when the player failed.
func gameMultiplier(mods []string, failed bool) float64 {
	m := 1.0
	for _, x := range mods {
		switch x {
		case "DA":
			m += 0.07
		case "GN":
			m += 0.11
		case "FS":
			m += 0.08
		case "SF":
			m += 0.10
		case "SS":
			m -= 0.30
		case "NA":
			m -= 0.30
		case "NB":
			m -= 0.10
		case "NO":
			m -= 0.05
		case "NF":
			if failed {
				m -= 0.50
			}
		}
	}
	return m
}
