package teehistorian

import (
	"fmt"
	"sort"

	"rewind/model"
)

// Player state is kept as versions: one per client and tick in which
// something about the client changed (positions and the rest apart, as
// positions change every tick a tee moves). A checkpoint index every
// cpEvery ticks says where each client's versions for that stretch begin,
// so a lookup searches at most cpEvery versions: constant in the length of
// the recording. Memory is proportional to the messages, never to
// ticks×players, except the checkpoints, kept under a fixed cap that Decode
// pays from the budget before the stream, so that a stream the budget stops
// still gets its state.
const cpBudget = 1 << 20

// buildState indexes the state versions of the whole timeline and hands
// out the lookups.
func (d *decoder) buildState() {
	count := d.r.Timeline.Count
	cids := d.seenClients()
	if len(cids) == 0 {
		return
	}
	k := d.spacing(64, count, len(cids))
	d.cpEvery = k
	ncp := count/k + 2
	for _, cid := range cids {
		s := &d.slots[cid]
		s.cpInfo = make([]int32, ncp)
		s.cpPos = make([]int32, ncp)
		i, j := 0, 0
		for c := 0; c < ncp; c++ {
			limit := int32(c * k)
			for i < len(s.infos) && s.infos[i].tick < limit {
				i++
			}
			for j < len(s.poss) && s.poss[j].tick < limit {
				j++
			}
			s.cpInfo[c], s.cpPos[c] = int32(i), int32(j)
		}
	}
	d.attachState(cids)
}

// seenClients are the client ids that are players, in id order.
func (d *decoder) seenClients() []int32 {
	var cids []int32
	for cid := range d.slots {
		if d.slots[cid].seen {
			cids = append(cids, int32(cid))
		}
	}
	return cids
}

// spacing is the checkpoint spacing for a timeline of count ticks and n
// clients: from k on, doubled until the checkpoints fit in cpEntries.
func (d *decoder) spacing(k, count, n int) int {
	for k <= count && int64(count/k+2)*2*int64(n) > d.cpEntries {
		k *= 2
	}
	return k
}

// attachState hands out the lookups of the state of the clients cids,
// whose checkpoints (cpEvery apart) are built.
func (d *decoder) attachState(cids []int32) {
	r := d.r
	count := r.Timeline.Count
	r.FrameRows = d.frameRows(cids) // typed rows for rewind export (rows.go)
	r.State = func(frame, p int) model.PlayerState {
		if p < 0 || p >= len(cids) || frame < 0 || frame >= count {
			return model.PlayerState{}
		}
		return d.stateAt(cids[p], frame)
	}
	if d.havePos {
		r.Scenes = func(frame int) []model.Scene { return d.scene(cids, frame) }
	}
	r.Charts = d.charts(cids)
}

// window is the range of versions whose ticks fall in frame's checkpoint
// stretch.
func window(cp []int32, k, frame, n int) (lo, hi int) {
	c := frame / k
	if c >= len(cp) {
		return n, n
	}
	lo, hi = int(cp[c]), n
	if c+1 < len(cp) {
		hi = int(cp[c+1])
	}
	return lo, hi
}

// infoAt is the index of the client's info version in force at frame, -1
// when there is none yet.
func (d *decoder) infoAt(s *slot, frame int) int {
	lo, hi := window(s.cpInfo, d.cpEvery, frame, len(s.infos))
	return lo + sort.Search(hi-lo, func(i int) bool { return int(s.infos[lo+i].tick) > frame }) - 1
}

func (d *decoder) posAt(s *slot, frame int) int {
	lo, hi := window(s.cpPos, d.cpEvery, frame, len(s.poss))
	return lo + sort.Search(hi-lo, func(i int) bool { return int(s.poss[lo+i].tick) > frame }) - 1
}

func (d *decoder) stateAt(cid int32, frame int) model.PlayerState {
	s := &d.slots[cid]
	var in info
	if i := d.infoAt(s, frame); i >= 0 {
		in = s.infos[i].info
	}
	var pos posVer
	if j := d.posAt(s, frame); j >= 0 {
		pos = s.poss[j]
	}
	st := model.PlayerState{Present: in.present}
	add := func(f model.Field) { st.Fields = append(st.Fields, f) }
	add(model.Field{Key: "present", Label: "Connected", Value: in.present})
	if n := d.strOf(in.name); n != "" {
		add(model.Field{Key: "name", Label: "Name", Value: n})
	}
	if c := d.strOf(in.clan); c != "" {
		add(model.Field{Key: "clan", Label: "Clan", Value: c})
	}
	if sk := d.strOf(in.skin); sk != "" {
		add(model.Field{Key: "skin", Label: "Skin", Value: sk})
		add(model.Field{Key: "country", Label: "Country", Value: int64(in.country)})
	}
	if in.teamKnown {
		add(model.Field{Key: "team", Label: "Team", Value: int64(in.team)})
	}
	if in.gameTeamKnown {
		add(model.Field{Key: "setTeam", Label: "Asked for team", Value: int64(in.gameTeam), Name: gameTeamName(in.gameTeam)})
	}
	add(model.Field{Key: "alive", Label: "Tee in the world", Value: pos.alive})
	if pos.alive {
		add(model.Field{Key: "x", Label: "x", Value: int64(pos.x)})
		add(model.Field{Key: "y", Label: "y", Value: int64(pos.y)})
	}
	if in.hasInput {
		add(model.Field{Key: "input", Label: "Input", Fields: inputFields(in.input)})
	}
	if in.ddnetVer != 0 {
		name := d.strOf(in.verStr)
		if name == "" {
			name = ddnetVersionName(in.ddnetVer)
		}
		add(model.Field{Key: "ddnetVersion", Label: "DDNet version", Value: int64(in.ddnetVer), Name: name})
	}
	if in.protocol != 0 {
		add(model.Field{Key: "protocol", Label: "Protocol", Value: int64(in.protocol), Name: fmt.Sprintf("0.%d", in.protocol)})
	}
	if in.present {
		add(model.Field{Key: "authLevel", Label: "Auth level", Value: int64(in.auth), Name: authLevelName(in.auth)})
		if a := d.strOf(in.authName); a != "" {
			add(model.Field{Key: "authName", Label: "Auth name", Value: a})
		}
		add(model.Field{Key: "ready", Label: "Ready", Value: in.ready})
	}
	// brief: where the tee is and what the player presses
	if pos.alive {
		st.Brief = append(st.Brief, model.Field{Key: "pos", Label: "Position", Value: fmt.Sprintf("(%d, %d)", pos.x, pos.y)})
	} else if in.present {
		st.Brief = append(st.Brief, model.Field{Key: "alive", Label: "Tee", Value: false, Name: "no tee"})
	}
	if in.hasInput {
		st.Brief = append(st.Brief,
			model.Field{Key: "direction", Label: "Direction", Value: int64(in.input[0]), Name: directionName(in.input[0])},
			model.Field{Key: "keys", Label: "Keys", Value: keysText(in.input)},
			model.Field{Key: "wantedWeapon", Label: "Weapon", Value: int64(in.input[7]), Name: wantedWeaponName(in.input[7])})
	}
	if in.teamKnown {
		st.Brief = append(st.Brief, model.Field{Key: "team", Label: "Team", Value: int64(in.team)})
	}
	if in.auth > 0 {
		st.Brief = append(st.Brief, model.Field{Key: "authLevel", Label: "Auth", Value: int64(in.auth), Name: authLevelName(in.auth)})
	}
	return st
}

// keysText names the buttons held: jump, hook, and fire when its press
// counter is odd (it counts presses and releases).
func keysText(in [10]int32) string {
	s := ""
	add := func(k string) {
		if s != "" {
			s += "+"
		}
		s += k
	}
	if in[3] != 0 {
		add("jump")
	}
	if in[5] != 0 {
		add("hook")
	}
	if in[4]&1 != 0 {
		add("fire")
	}
	if s == "" {
		s = "none"
	}
	return s
}

func inputFields(in [10]int32) []model.Field {
	fs := make([]model.Field, 10)
	for i, k := range inputKeys {
		fs[i] = model.Field{Key: k.key, Label: k.label, Value: int64(in[i])}
	}
	fs[0].Name = directionName(in[0])
	fs[4].Name = fmt.Sprintf("%d presses and releases", in[4])
	fs[6].Name = bitNames(int64(uint32(in[6])), playerFlagNames)
	fs[7].Name = wantedWeaponName(in[7])
	return fs
}

// scene draws every tee in the world at frame. Teeworlds' y grows
// downwards, the stage view's upwards: y is negated.
func (d *decoder) scene(cids []int32, frame int) []model.Scene {
	const margin = 64
	sc := model.Scene{Title: d.mapName, Bounds: model.Rect{
		MinX: float64(d.minX) - margin, MaxX: float64(d.maxX) + margin,
		MinY: -float64(d.maxY) - margin, MaxY: -float64(d.minY) + margin}}
	for p, cid := range cids {
		s := &d.slots[cid]
		j := d.posAt(s, frame)
		if j < 0 || !s.poss[j].alive {
			continue
		}
		label := fmt.Sprintf("client %d", cid)
		if i := d.infoAt(s, frame); i >= 0 {
			if n := d.strOf(s.infos[i].name); n != "" {
				label = n
			}
		}
		sc.Points = append(sc.Points, model.Point{X: float64(s.poss[j].x), Y: -float64(s.poss[j].y), Player: p, Kind: "player", Label: label})
	}
	return []model.Scene{sc}
}

// charts samples the players present and the input messages per tick.
func (d *decoder) charts(cids []int32) []model.Chart {
	count := d.r.Timeline.Count
	n := min(count, 512)
	if n <= 0 {
		return nil
	}
	present := make([]float64, n)
	for i := range present {
		frame := i * count / n
		for _, cid := range cids {
			s := &d.slots[cid]
			if j := d.infoAt(s, frame); j >= 0 && s.infos[j].present {
				present[i]++
			}
		}
	}
	inputs := make([]float64, n)
	if d.inputsBefore != nil {
		// a followed file's snapshot: the inputs before each tick, counted as
		// the ticks complete, give each sample's inputs without a pass over
		// all of them
		for b := range inputs {
			lo, hi := (b*count+n-1)/n, ((b+1)*count+n-1)/n // the ticks t with t*n/count == b
			inputs[b] = float64(d.inputsBefore[min(hi, len(d.inputsBefore)-1)] - d.inputsBefore[min(lo, len(d.inputsBefore)-1)])
		}
	} else {
		for _, t := range d.inputTicks {
			b := int(int64(t) * int64(n) / int64(count))
			if b >= 0 && b < n {
				inputs[b]++
			}
		}
	}
	ticksPer := float64(count) / float64(n)
	for i := range inputs {
		inputs[i] /= ticksPer
	}
	return []model.Chart{
		{Title: "Players present", Series: []model.Series{{Label: "connected", Player: -1, Values: present}}},
		{Title: "Input activity", Series: []model.Series{{Label: "inputs per tick", Player: -1, Values: inputs}}},
	}
}
