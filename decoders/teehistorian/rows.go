package teehistorian

import "rewind/decoders/frames"

// FrameRow is one client at one tick for `rewind export`, for every tick
// the client is connected: the tee's position when it is in the world and
// the last input the client sent, with `rewind dump`'s names.
type FrameRow struct {
	Path     string `parquet:"path,dict"`
	Tick     int32  `parquet:"tick"`     // the timeline index: server ticks from the first
	Player   int32  `parquet:"player"`   // index in the players table
	ClientID int32  `parquet:"clientId"` // the server's client id
	Alive    bool   `parquet:"alive"`    // the tee is in the world
	X        int32  `parquet:"x"`        // world units; y grows downwards
	Y        int32  `parquet:"y"`
	HasInput bool   `parquet:"hasInput"`
	Input    Input  `parquet:"input"`
}

// Input is a player's input as the server last received it.
type Input struct {
	Direction    int32 `parquet:"direction"`
	TargetX      int32 `parquet:"targetX"`
	TargetY      int32 `parquet:"targetY"`
	Jump         int32 `parquet:"jump"`
	Fire         int32 `parquet:"fire"`
	Hook         int32 `parquet:"hook"`
	PlayerFlags  int32 `parquet:"playerFlags"`
	WantedWeapon int32 `parquet:"wantedWeapon"`
	NextWeapon   int32 `parquet:"nextWeapon"`
	PrevWeapon   int32 `parquet:"prevWeapon"`
}

// frameRows makes Replay.FrameRows. Each client's versions are walked
// once, in tick order, so the cost is ticks × clients plus the versions.
func (d *decoder) frameRows(cids []int32) func(yield func(any) error) error {
	return func(yield func(any) error) error {
		count := d.r.Timeline.Count
		rows := frames.NewBatch(count*len(cids), func(b []FrameRow) error { return yield(b) })
		info := make([]int, len(cids)) // next version index per client
		pos := make([]int, len(cids))
		for t := 0; t < count; t++ {
			for p, cid := range cids {
				s := &d.slots[cid]
				for info[p] < len(s.infos) && int(s.infos[info[p]].tick) <= t {
					info[p]++
				}
				for pos[p] < len(s.poss) && int(s.poss[pos[p]].tick) <= t {
					pos[p]++
				}
				if info[p] == 0 {
					continue
				}
				in := &s.infos[info[p]-1].info
				if !in.present {
					continue
				}
				row := FrameRow{Path: d.r.Path, Tick: int32(t), Player: int32(p), ClientID: cid, HasInput: in.hasInput}
				if pos[p] > 0 {
					pv := &s.poss[pos[p]-1]
					row.Alive = pv.alive
					if pv.alive {
						row.X, row.Y = pv.x, pv.y
					}
				}
				if in.hasInput {
					v := &in.input
					row.Input = Input{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]}
				}
				if err := rows.Add(row); err != nil {
					return err
				}
			}
		}
		return rows.Flush()
	}
}
