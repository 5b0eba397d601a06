package slippi

// Stock losses as the game credits them, for the moments, the tables and
// the archive summary: who lost a stock, at which frame and percent, and
// how: knocked out by an opponent (a kill), by a teammate's hit, by
// themselves, or taken by a teammate. In doubles a player out of stocks
// takes one from a living teammate (the stock count of one drops while
// the other comes back on): that is no death and no kill.

// lossHow is how a stock was lost.
type lossHow uint8

const (
	lossKO       lossHow = iota // knocked out by an opponent: a kill
	lossSelf                    // no one hit the player during the stock: a self-destruct
	lossTeammate                // knocked out by a teammate's hit (friendly fire): no kill
	lossTaken                   // taken by a teammate out of stocks (doubles): not a death
)

// stockLoss is one stock lost.
type stockLoss struct {
	fi      int     // frame index the stock count dropped
	port    int     // who lost it
	by      int     // the port credited (the KO, the friendly fire, the teammate who took it); -1 for a self-destruct
	how     lossHow //
	left    int     // stocks left after it
	last    bool    // the port's last stock: it never came back on after
	percent float64 // the player's percent on the frame before
	move    int     // the credited player's last attack landed when the player last took damage; 0 none
}

// kill reports whether the loss is a kill: an opponent knocked the player
// out.
func (l *stockLoss) kill() bool { return l.how == lossKO }

// death reports whether the player died (anything but a stock a teammate
// took).
func (l *stockLoss) death() bool { return l.how != lossTaken }

// isTeams reports whether Game Start says it is a team game.
func (d *decoder) isTeams() bool {
	return d.startOff >= 0 && d.started && 1+int(d.size[cmdStart]) > 0xD && d.data[d.startOff+0xD] != 0
}

// teammates reports whether two ports are different players of one team
// (both listed in Game Start).
func (d *decoder) teammates(a, b int) bool {
	return a != b && a >= 0 && b >= 0 && a < 4 && b < 4 && d.ports[a].used && d.ports[b].used &&
		d.isTeams() && d.ports[a].team == d.ports[b].team
}

// stockLosses lists every stock lost, by port and then frame.
func (d *decoder) stockLosses() []stockLoss {
	var out []stockLoss
	for port := 0; port < maxSlots; port++ {
		if d.playerOf[port] >= 0 {
			out = d.portLosses(out, port)
		}
	}
	return out
}

// portLosses adds the stocks the port lost. The stock goes to the player
// the game credits: the victim's Last Hit By on the frame before (which the
// game clears when no one gets the kill), provided the victim took damage
// during the stock; the move is that player's last attack landed on the
// last frame the victim took damage. A stock count that drops while the
// player is alive, as a teammate out of stocks comes back on, is a stock
// that teammate took.
func (d *decoder) portLosses(out []stockLoss, port int) []stockLoss {
	// the last frame with an update, and its stocks and percent: the
	// whole update is read only where a stock is lost
	prevFi := -1
	var prevStocks int16
	var prevPercent float32
	lastDamage := -1 // frame index of the last damage taken during this stock
	first := len(out)
	for fi := 0; fi < d.count; fi++ {
		stocks, percent, ok := d.stocksOf(fi, port)
		if !ok {
			continue
		}
		if prevFi >= 0 && stocksDropped(prevStocks, stocks) {
			cur, _ := d.postAt(fi, port)
			prev, _ := d.postAt(prevFi, port)
			l := stockLoss{fi: fi, port: port, by: -1, how: lossSelf, left: int(cur.stocks), percent: float64(prev.percent)}
			if mate := d.stockTaker(fi, port, &cur); mate >= 0 {
				l.by, l.how = mate, lossTaken
				out = append(out, l)
				// the player plays on: the stock's damage stays
				prevFi, prevStocks, prevPercent = fi, stocks, percent
				continue
			}
			if k := int(prev.hitBy); k >= 0 && k < maxSlots && k != port && d.playerOf[k] >= 0 && lastDamage >= 0 {
				l.by, l.how = k, lossKO
				if d.teammates(k, port) {
					l.how = lossTeammate
				}
				if atk, ok := d.postAt(lastDamage, k); ok && atk.attack > 0 {
					l.move = int(atk.attack)
				}
			}
			out = append(out, l)
			lastDamage = -1
		} else if prevFi >= 0 && percent > prevPercent {
			lastDamage = fi
		}
		prevFi, prevStocks, prevPercent = fi, stocks, percent
	}
	// the last stock: the loss after which the port has none and never
	// comes back on (a doubles player out of stocks may take one)
	if n := len(out); n > first && out[n-1].left == 0 && out[n-1].death() {
		out[n-1].last = true
	}
	return out
}

// takerWindow is how many frames around a stock count that drops while the
// player lives a teammate's return is looked for: the game moves the stock
// on the frame it happens, the updates may straddle it.
const takerWindow = 2

// stockTaker is the teammate who took the port's stock at frame index fi:
// the player is not dying (no dead action state) and a teammate's stock
// count rises from zero around that frame. -1 when none did.
func (d *decoder) stockTaker(fi, port int, cur *postVals) int {
	if isDead(cur.action) || !d.isTeams() {
		return -1
	}
	for mate := 0; mate < 4; mate++ {
		if !d.teammates(mate, port) || d.playerOf[mate] < 0 {
			continue
		}
		// the teammate's last stock count before the window, and any
		// count above it within
		before := -1
		for f := fi - takerWindow - 1; f >= 0; f-- {
			if p, ok := d.postAt(f, mate); ok {
				before = int(p.stocks)
				break
			}
		}
		if before != 0 {
			continue
		}
		for f := max(fi-takerWindow, 0); f <= min(fi+takerWindow, d.count-1); f++ {
			if p, ok := d.postAt(f, mate); ok && p.stocks > 0 {
				return mate
			}
		}
	}
	return -1
}
