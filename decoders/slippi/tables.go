package slippi

import (
	"fmt"
	"math"

	"rewind/model"
)

// tables are the stats as people read them, players side by side: Overall
// (the stock losses and, in a 1v1, slippi-js's overall), Actions and
// Attacks (its action counts, 1v1 only: slippi-js computes its frame stats
// for two-player games only, and its overall rows are zeros otherwise, as
// they are when it processes no frame).
//
// Stocks taken are kills (a teammate's stock, by friendly fire or taken
// when out of stocks, is none); stocks lost are deaths (a stock a
// teammate took is none).
func (d *decoder) tables(st *Stats, losses []stockLoss) []model.StatTable {
	var cols []string
	var ports []int
	for port := 0; port < maxSlots; port++ {
		if pl := d.playerOf[port]; pl >= 0 {
			cols = append(cols, d.r.Players[pl].Label())
			ports = append(ports, port)
		}
	}
	if len(ports) == 0 {
		return nil
	}
	t := &tableBuilder{ports: ports}
	overall := model.StatTable{Key: "overall", Title: "Overall", Player: -1, Columns: cols}
	taken, lost, sds, mates := make([]int64, len(ports)), make([]int64, len(ports)), make([]int64, len(ports)), make([]int64, len(ports))
	for _, l := range losses {
		for i, port := range ports {
			switch {
			case port == l.port && l.death():
				lost[i]++
				switch l.how {
				case lossSelf:
					sds[i]++
				case lossTeammate:
					mates[i]++
				}
			case port == l.by && l.kill():
				taken[i]++
			}
		}
	}
	// slippi-js's frame stats are for 1v1 only, and for games whose frames
	// start at -123 (not slo-mo or training)
	oneVsOne := st != nil && st.frames > 0
	if !oneVsOne {
		overall.Rows = append(overall.Rows, t.ints("stocksTaken", "Stocks taken", taken))
	}
	overall.Rows = append(overall.Rows, t.ints("stocksLost", "Stocks lost", lost), t.ints("selfDestructs", "Self-destructs", sds))
	if d.isTeams() {
		overall.Rows = append(overall.Rows, t.ints("teammateKOs", "Knocked out by a teammate", mates))
	}
	if oneVsOne {
		byPort := map[int]*Overall{}
		for i := range st.Overall {
			byPort[st.Overall[i].PlayerIndex] = &st.Overall[i]
		}
		o := func(p int) *Overall { return byPort[p] }
		overall.Rows = append(overall.Rows,
			t.row("killCount", "Kills", func(p int) (any, string) {
				if x := o(p); x != nil {
					return int64(x.KillCount), fmt.Sprint(x.KillCount)
				}
				return nil, ""
			}),
			t.row("totalDamage", "Damage done", func(p int) (any, string) {
				if x := o(p); x != nil {
					return float64(x.TotalDamage), fmt.Sprintf("%.1f%%", float64(x.TotalDamage))
				}
				return nil, ""
			}),
			t.row("conversionCount", "Openings", func(p int) (any, string) {
				if x := o(p); x != nil {
					return int64(x.ConversionCount), fmt.Sprint(x.ConversionCount)
				}
				return nil, ""
			}),
			t.ratio("openingsPerKill", "Openings per kill", o, func(x *Overall) Ratio { return x.OpeningsPerKill }, "%.1f"),
			t.ratio("damagePerOpening", "Damage per opening", o, func(x *Overall) Ratio { return x.DamagePerOpening }, "%.1f%%"),
			t.share("successfulConversions", "Successful conversions", o, func(x *Overall) Ratio { return x.SuccessfulConversions }),
			t.share("neutralWinRatio", "Neutral wins", o, func(x *Overall) Ratio { return x.NeutralWinRatio }),
			t.share("counterHitRatio", "Counter hits", o, func(x *Overall) Ratio { return x.CounterHitRatio }),
			t.share("beneficialTradeRatio", "Beneficial trades", o, func(x *Overall) Ratio { return x.BeneficialTradeRatio }),
			t.ratio("inputsPerMinute", "Inputs per minute", o, func(x *Overall) Ratio { return x.InputsPerMinute }, "%.1f"),
			t.ratio("digitalInputsPerMinute", "Digital inputs per minute", o, func(x *Overall) Ratio { return x.DigitalInputsPerMinute }, "%.1f"),
			t.input("inputCounts.total", "Inputs", o, func(c InputCounts) *Int { return c.Total }),
			t.input("inputCounts.buttons", "Button presses", o, func(c InputCounts) *Int { return c.Buttons }),
			t.input("inputCounts.joystick", "Stick moves", o, func(c InputCounts) *Int { return c.Joystick }),
			t.input("inputCounts.cstick", "C-stick moves", o, func(c InputCounts) *Int { return c.Cstick }),
			t.input("inputCounts.triggers", "Trigger presses", o, func(c InputCounts) *Int { return c.Triggers }),
		)
	}
	tables := []model.StatTable{dropEmpty(overall)}
	if !oneVsOne {
		return tables
	}
	counts := map[int]*ActionCounts{}
	for i := range st.ActionCounts {
		counts[st.ActionCounts[i].PlayerIndex] = &st.ActionCounts[i]
	}
	perPlayer := func(key, label string, cell func(*ActionCounts) (any, string)) model.StatRow {
		return t.row(key, label, func(p int) (any, string) {
			if c := counts[p]; c != nil {
				return cell(c)
			}
			return nil, ""
		})
	}
	actions := model.StatTable{Key: "actions", Title: "Actions", Player: -1, Columns: cols}
	count := func(get func(*ActionCounts) int) func(*ActionCounts) (any, string) {
		return func(c *ActionCounts) (any, string) { return int64(get(c)), fmt.Sprint(get(c)) }
	}
	share := func(get func(*ActionCounts) SuccessFail) func(*ActionCounts) (any, string) {
		return func(c *ActionCounts) (any, string) {
			s := get(c)
			return int64(s.Success), shareText(float64(s.Success), float64(s.Success+s.Fail))
		}
	}
	for _, a := range []struct {
		key, label string
		cell       func(*ActionCounts) (any, string)
	}{
		{"lCancelCount", "L-cancels", share(func(c *ActionCounts) SuccessFail { return c.LCancelCount })},
		{"edgeCancelCount.success", "Edge cancels", count(func(c *ActionCounts) int { return c.EdgeCancelCount.Success })},
		{"edgeCancelCount.slow", "Slow edge cancels", count(func(c *ActionCounts) int { return c.EdgeCancelCount.Slow })},
		{"wavedashCount", "Wavedashes", count(func(c *ActionCounts) int { return c.WavedashCount })},
		{"wavelandCount", "Wavelands", count(func(c *ActionCounts) int { return c.WavelandCount })},
		{"airDodgeCount", "Air dodges", count(func(c *ActionCounts) int { return c.AirDodgeCount })},
		{"dashDanceCount", "Dash dances", count(func(c *ActionCounts) int { return c.DashDanceCount })},
		{"spotDodgeCount", "Spot dodges", count(func(c *ActionCounts) int { return c.SpotDodgeCount })},
		{"rollCount", "Rolls", count(func(c *ActionCounts) int { return c.RollCount })},
		{"ledgegrabCount", "Ledge grabs", count(func(c *ActionCounts) int { return c.LedgegrabCount })},
		{"tauntCount", "Taunts", count(func(c *ActionCounts) int { return c.TauntCount })},
		{"grabCount", "Grabs", share(func(c *ActionCounts) SuccessFail { return c.GrabCount })},
		{"throwCount.up", "Up throws", count(func(c *ActionCounts) int { return c.ThrowCount.Up })},
		{"throwCount.forward", "Forward throws", count(func(c *ActionCounts) int { return c.ThrowCount.Forward })},
		{"throwCount.back", "Back throws", count(func(c *ActionCounts) int { return c.ThrowCount.Back })},
		{"throwCount.down", "Down throws", count(func(c *ActionCounts) int { return c.ThrowCount.Down })},
		{"groundTechCount.in", "Techs in", count(func(c *ActionCounts) int { return c.GroundTechCount.In })},
		{"groundTechCount.away", "Techs away", count(func(c *ActionCounts) int { return c.GroundTechCount.Away })},
		{"groundTechCount.neutral", "Techs in place", count(func(c *ActionCounts) int { return c.GroundTechCount.Neutral })},
		{"groundTechCount.fail", "Missed techs", count(func(c *ActionCounts) int { return c.GroundTechCount.Fail })},
		{"wallTechCount", "Wall techs", share(func(c *ActionCounts) SuccessFail { return c.WallTechCount })},
	} {
		actions.Rows = append(actions.Rows, perPlayer(a.key, a.label, a.cell))
	}
	attacks := model.StatTable{Key: "attacks", Title: "Attacks", Player: -1, Columns: cols}
	for _, a := range []struct {
		key, label string
		get        func(*ActionCounts) int
	}{
		{"jab1", "Jab 1", func(c *ActionCounts) int { return c.AttackCount.Jab1 }},
		{"jab2", "Jab 2", func(c *ActionCounts) int { return c.AttackCount.Jab2 }},
		{"jab3", "Jab 3", func(c *ActionCounts) int { return c.AttackCount.Jab3 }},
		{"jabm", "Rapid jabs", func(c *ActionCounts) int { return c.AttackCount.Jabm }},
		{"dash", "Dash attack", func(c *ActionCounts) int { return c.AttackCount.Dash }},
		{"ftilt", "Forward tilt", func(c *ActionCounts) int { return c.AttackCount.Ftilt }},
		{"utilt", "Up tilt", func(c *ActionCounts) int { return c.AttackCount.Utilt }},
		{"dtilt", "Down tilt", func(c *ActionCounts) int { return c.AttackCount.Dtilt }},
		{"fsmash", "Forward smash", func(c *ActionCounts) int { return c.AttackCount.Fsmash }},
		{"usmash", "Up smash", func(c *ActionCounts) int { return c.AttackCount.Usmash }},
		{"dsmash", "Down smash", func(c *ActionCounts) int { return c.AttackCount.Dsmash }},
		{"nair", "Neutral air", func(c *ActionCounts) int { return c.AttackCount.Nair }},
		{"fair", "Forward air", func(c *ActionCounts) int { return c.AttackCount.Fair }},
		{"bair", "Back air", func(c *ActionCounts) int { return c.AttackCount.Bair }},
		{"uair", "Up air", func(c *ActionCounts) int { return c.AttackCount.Uair }},
		{"dair", "Down air", func(c *ActionCounts) int { return c.AttackCount.Dair }},
	} {
		attacks.Rows = append(attacks.Rows, perPlayer("attackCount."+a.key, a.label, count(a.get)))
	}
	return append(tables, actions, attacks)
}

// tableBuilder makes rows with one cell per player port.
type tableBuilder struct {
	ports []int
}

func (t *tableBuilder) row(key, label string, cell func(port int) (any, string)) model.StatRow {
	r := model.StatRow{Key: key, Label: label, Frame: -1}
	for _, p := range t.ports {
		v, s := cell(p)
		r.Cells = append(r.Cells, model.Field{Key: key, Value: v, Name: s})
	}
	return r
}

func (t *tableBuilder) ints(key, label string, v []int64) model.StatRow {
	r := model.StatRow{Key: key, Label: label, Frame: -1}
	for i := range t.ports {
		r.Cells = append(r.Cells, model.Field{Key: key, Value: v[i], Name: fmt.Sprint(v[i])})
	}
	return r
}

// input is a row of an input count, absent for games that are not 1v1.
func (t *tableBuilder) input(key, label string, o func(int) *Overall, get func(InputCounts) *Int) model.StatRow {
	return t.row(key, label, func(p int) (any, string) {
		if x := o(p); x != nil {
			if v := get(x.InputCounts); v != nil {
				return int64(*v), fmt.Sprint(*v)
			}
		}
		return nil, ""
	})
}

// ratio is a row of a ratio's value ("–" when undefined).
func (t *tableBuilder) ratio(key, label string, o func(int) *Overall, get func(*Overall) Ratio, format string) model.StatRow {
	return t.row(key, label, func(p int) (any, string) {
		x := o(p)
		if x == nil {
			return nil, ""
		}
		r := get(x)
		if r.Ratio == nil || math.IsNaN(float64(*r.Ratio)) {
			return nil, "–"
		}
		return float64(*r.Ratio), fmt.Sprintf(format, float64(*r.Ratio))
	})
}

// share is a row of "count / total (percent)".
func (t *tableBuilder) share(key, label string, o func(int) *Overall, get func(*Overall) Ratio) model.StatRow {
	return t.row(key, label, func(p int) (any, string) {
		x := o(p)
		if x == nil {
			return nil, ""
		}
		r := get(x)
		if r.Count == nil {
			return nil, ""
		}
		return float64(*r.Count), shareText(float64(*r.Count), float64(r.Total))
	})
}

func shareText(count, total float64) string {
	if total == 0 {
		return fmt.Sprintf("%g / 0", count)
	}
	return fmt.Sprintf("%g / %g (%.0f%%)", count, total, 100*count/total)
}

// dropEmpty leaves out rows no player has a value for.
func dropEmpty(t model.StatTable) model.StatTable {
	var rows []model.StatRow
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Name != "" {
				rows = append(rows, r)
				break
			}
		}
	}
	t.Rows = rows
	return t
}
