package actions

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"rewind/config"
	"rewind/decoders"
	"rewind/library"
	"rewind/library/dolphin"
)

// Player hands replays to the games' players and runs actions. The TUI
// keeps one for as long as it runs; each CLI run makes its own. It
// remembers the playback Dolphin it started, and writes down which one in
// its folder, so a later Watch, in this rewind or another, hands the next
// replay to that Dolphin (a new communication file with a new commandId,
// as Slippi Launcher does) instead of opening a second window.
type Player struct {
	dir string // the communication files and the record of the Dolphin started

	mu      sync.Mutex
	dolphin *proc // the Dolphin this process started, until it exits
}

// proc is a program a Player started.
type proc struct {
	cmd    *exec.Cmd
	comm   string        // a Dolphin's communication file
	exited chan struct{} // closed once the program has exited
}

// record is what the Player's folder says of the Dolphin it started last,
// for the next rewind: its process, its communication file and its
// executable, by which a living process is told from another that got
// the number since (see alive).
type record struct {
	PID     int    `json:"pid"`
	Comm    string `json:"comm"`
	Dolphin string `json:"dolphin"`
}

const recordName = "dolphin.json"

// stale is how old a communication or queue file is before a Player that
// starts a Dolphin, or writes a queue, removes it: a command handed a
// queue reads it well before then.
const stale = 24 * time.Hour

// DefaultDir is the Player's folder: playback beside the index, in
// $REWIND_CACHE or the user's cache directory, where every rewind finds
// the Dolphin another one started.
func DefaultDir() (string, error) {
	p, err := library.DefaultIndexPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "playback"), nil
}

// NewPlayer returns a Player that keeps its files in dir; "" is
// DefaultDir, or a folder in the temporary directory when there is no
// cache directory.
func NewPlayer(dir string) *Player {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			dir = filepath.Join(os.TempDir(), "rewind-playback")
		}
	}
	return &Player{dir: dir}
}

// Watch plays the request in the game: a Slippi replay (or Clips) in the
// playback Dolphin of [slippi], started with the Melee ISO, or handed to
// the one already playing; an osu! replay in osu! (the [osu] command, else
// the operating system's opener). It returns once the program is started,
// with a sentence saying what it did. A format with no player of its own,
// or a player not configured, is ErrNotConfigured; every error is one
// sentence naming the key to set.
func (p *Player) Watch(cfg config.Config, req Request) (string, error) {
	f := decoders.ByID(req.Format)
	switch {
	case f != nil && f.Dolphin:
		return p.watchDolphin(cfg, req)
	case req.Format == osuID:
		return p.openOsu(cfg, req)
	}
	return "", notConfigured(fmt.Sprintf("%s have no player that rewind can start; add an [[action]] with formats = [%q] to %s and run it with rewind run NAME FILE",
		formatName(req.Format), req.Format, file(cfg)))
}

func (p *Player) watchDolphin(cfg config.Config, req Request) (string, error) {
	s := cfg.Slippi
	switch {
	case s.Dolphin == "":
		return "", notConfigured(fmt.Sprintf("to watch Slippi replays in the game, set dolphin under [slippi] in %s to Slippi's playback Dolphin, and iso to the Melee ISO", file(cfg)))
	case s.ISO == "":
		return "", notConfigured(fmt.Sprintf("to watch Slippi replays in the game, set iso under [slippi] in %s to the Melee ISO that the playback Dolphin runs", file(cfg)))
	}
	comm, what, err := commOf(req)
	if err != nil {
		return "", err
	}
	key := "dolphin under [slippi] in " + file(cfg)
	exe, err := executable(s.Dolphin)
	if err != nil {
		return "", cannotStart(s.Dolphin, key, err)
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	if path, pid, ok := p.runningDolphin(exe); ok {
		if err := dolphin.Write(path, comm); err != nil {
			return "", fmt.Errorf("cannot hand %s to the playback Dolphin: %v", what, err)
		}
		return fmt.Sprintf("the playback Dolphin already open (process %d) plays %s", pid, what), nil
	}

	iso, err := filepath.Abs(s.ISO)
	if err == nil {
		_, err = os.Stat(iso)
	}
	if err != nil {
		return "", fmt.Errorf("the Melee ISO %s (iso under [slippi] in %s) cannot be read: %v", s.ISO, file(cfg), reason(err))
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot make %s for Dolphin's communication file: %v", p.dir, reason(err))
	}
	p.sweep()
	commPath := filepath.Join(p.dir, "comm-"+randomHex()+".json")
	if err := dolphin.Write(commPath, comm); err != nil {
		return "", fmt.Errorf("cannot write Dolphin's communication file: %v", err)
	}
	// as Slippi Launcher starts it: -b quits Dolphin when the game is
	// stopped, so a window left open is always one that plays what its
	// file says
	cmd := exec.Command(exe, "-b", "-e", iso, "-i", commPath)
	pr, err := p.start(cmd)
	if err != nil {
		os.Remove(commPath)
		return "", cannotStart(s.Dolphin, key, err)
	}
	pr.comm = commPath
	p.dolphin = pr
	p.writeRecord(record{PID: cmd.Process.Pid, Comm: commPath, Dolphin: exe})
	return fmt.Sprintf("started the playback Dolphin (process %d) on %s", cmd.Process.Pid, what), nil
}

// commOf is the communication file of a request, and what it plays in
// words.
func commOf(req Request) (dolphin.Comm, string, error) {
	if len(req.Clips) > 0 {
		for _, cl := range req.Clips {
			if err := onDisk(cl.Path); err != nil {
				return dolphin.Comm{}, "", err
			}
		}
		c, err := dolphin.Queue(req.Clips, req.Lead, req.Trail)
		switch {
		case err != nil:
			return c, "", err
		case len(c.Queue) == 1:
			it := c.Queue[0]
			return c, fmt.Sprintf("%s from frame %d to %d", req.Clips[0].Path, it.StartFrame, it.EndFrame), nil
		}
		return c, fmt.Sprintf("a queue of %d clips", len(c.Queue)), nil
	}
	if err := onDisk(req.Path); err != nil {
		return dolphin.Comm{}, "", err
	}
	c, err := dolphin.Play(req.Path, req.Start, req.End)
	if err != nil {
		return c, "", err
	}
	return c, fmt.Sprintf("%s from frame %d to %d", req.Path, *c.StartFrame, *c.EndFrame), nil
}

// runningDolphin finds the playback Dolphin to hand a replay to: the one
// this Player started, while it runs, else the one the record names when
// that process still runs exe with its communication file. Called with
// p.mu held.
func (p *Player) runningDolphin(exe string) (comm string, pid int, ok bool) {
	if pr := p.dolphin; pr != nil {
		select {
		case <-pr.exited:
		default:
			return pr.comm, pr.cmd.Process.Pid, true
		}
	}
	r, ok := p.readRecord()
	if !ok || r.Dolphin != exe || filepath.Dir(r.Comm) != p.dir || !alive(r.PID, r.Comm, r.Dolphin) {
		return "", 0, false
	}
	return r.Comm, r.PID, true
}

func (p *Player) readRecord() (record, bool) {
	var r record
	data, err := os.ReadFile(filepath.Join(p.dir, recordName))
	if err != nil || json.Unmarshal(data, &r) != nil || r.PID <= 0 || r.Comm == "" {
		return record{}, false
	}
	return r, true
}

// writeRecord writes the record whole (a temporary file renamed over the
// old one). Without it a later rewind starts a Dolphin of its own, so a
// failure costs a second window, not the watch.
func (p *Player) writeRecord(r record) {
	data, err := json.Marshal(r)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(p.dir, "."+recordName+".*")
	if err != nil {
		return
	}
	_, err = tmp.Write(append(data, '\n'))
	if err2 := tmp.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(p.dir, recordName))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// sweep removes the communication and queue files that nothing reads any
// more: a day old, and not the file of the Dolphin the record names.
// Dolphins started by a rewind that has exited since leave theirs.
func (p *Player) sweep() {
	r, _ := p.readRecord()
	ents, _ := os.ReadDir(p.dir)
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || !strings.HasPrefix(name, "comm-") && !strings.HasPrefix(name, "queue-") {
			continue
		}
		path := filepath.Join(p.dir, name)
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > stale && path != r.Comm {
			os.Remove(path)
		}
	}
}

// start starts cmd as a guest: no terminal of rewind's (its input and
// output go to the null device), not in rewind's process group (so
// Ctrl-C in rewind's terminal does not reach it), and reaped in the
// background. Nothing waits for it.
func (p *Player) start(cmd *exec.Cmd) (*proc, error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	if err := refuseShell(cmd.Path); err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pr := &proc{cmd: cmd, exited: make(chan struct{})}
	go p.reap(pr)
	return pr, nil
}

// reap waits for a started program so it leaves no zombie; a Dolphin's
// communication file and record go with it, as Slippi Launcher removes
// its file when Dolphin closes.
func (p *Player) reap(pr *proc) {
	pr.cmd.Wait()
	close(pr.exited)
	// a Dolphin's comm is set under the lock, which its starter holds
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dolphin == pr {
		p.dolphin = nil
	}
	if pr.comm == "" {
		return
	}
	os.Remove(pr.comm)
	if r, ok := p.readRecord(); ok && r.PID == pr.cmd.Process.Pid && r.Comm == pr.comm {
		os.Remove(filepath.Join(p.dir, recordName))
	}
}

// openOsu hands an osu! replay to osu!: the [osu] command when there is
// one (the path is its last word unless a word says {path}), else the
// operating system's opener for .osr files, which is osu! where it is
// installed (stable plays a replay opened with it, lazer imports and
// shows it; both pass it to the game already running).
func (p *Player) openOsu(cfg config.Config, req Request) (string, error) {
	path, err := absPath(req)
	if err != nil {
		return "", err
	}
	if err := onDisk(path); err != nil {
		return "", err
	}
	words := cfg.Osu.Command
	if len(words) == 0 {
		cmd, err := opener(path)
		if err == nil && cmd != nil {
			_, err = p.start(cmd)
		}
		if errors.Is(err, ErrNotConfigured) {
			return "", notConfigured(fmt.Sprintf("%v; set command under [osu] in %s to osu!'s, like command = \"osu! {path}\"", err, file(cfg)))
		}
		if err != nil {
			return "", fmt.Errorf("cannot open %s with the system's program for .osr files: %v", req.Path, reason(err))
		}
		return fmt.Sprintf("opened %s with the system's program for .osr files", req.Path), nil
	}
	if !hasPath(words) {
		words = append(slices.Clip(words), "{path}")
	}
	argv, err := expand(words, req, path, p.queueFor(req))
	if err != nil {
		return "", err
	}
	pr, err := p.start(exec.Command(argv[0], argv[1:]...))
	if err != nil {
		return "", cannotStart(argv[0], "command under [osu] in "+file(cfg), err)
	}
	return fmt.Sprintf("handed %s to osu! (process %d)", req.Path, pr.cmd.Process.Pid), nil
}

// Command is action a's command for the request, ready to start: its
// words with the placeholders replaced ({queue} writes the queue file
// first), the program found. An action whose formats leave out the
// request's, or whose program cannot be found, is an error, one sentence.
// Wait runs it and waits for it (`rewind run`); Run starts it as a guest
// (the TUI).
func (p *Player) Command(cfg config.Config, a config.Action, req Request) (*exec.Cmd, error) {
	ok, err := Applies(a, req.Format)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("action %s is for %s replays (formats at %s), and %s is one of the %s", a.Name, strings.Join(a.Formats, ", "), where(cfg, a), req.Path, formatName(req.Format))
	}
	if len(a.Command) == 0 {
		return nil, notConfigured(fmt.Sprintf("action %s has no command; set command at %s", a.Name, where(cfg, a)))
	}
	path, err := absPath(req)
	if err != nil {
		return nil, err
	}
	argv, err := expand(a.Command, req, path, p.queueFor(req))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	err = cmd.Err
	if err == nil {
		// a path is not looked up by Command: is it there to run?
		_, err = exec.LookPath(cmd.Path)
	}
	if err == nil {
		err = refuseShell(cmd.Path)
	}
	if err != nil {
		return nil, cannotStart(argv[0], actionKey(cfg, a), err)
	}
	return cmd, nil
}

// Wait runs action a on the request with the input and output given,
// waits for it and returns its exit status as a shell gives it (the
// code, or 128 plus the signal that ended it): `rewind run`, which a
// script runs as it would the command. An error is one sentence, when the
// command could not be run at all.
func (p *Player) Wait(cfg config.Config, a config.Action, req Request, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	cmd, err := p.Command(cfg, a, req)
	if err != nil {
		return 0, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		return 0, cannotStart(cmd.Args[0], actionKey(cfg, a), err)
	}
	cmd.Wait()
	return exitStatus(cmd.ProcessState), nil
}

// actionKey names the setting an action's command comes from.
func actionKey(cfg config.Config, a config.Action) string {
	return "the command of action " + a.Name + ", " + where(cfg, a)
}

// Run starts action a on the request as a guest (see start) and returns
// a sentence saying so: the TUI's action keys.
func (p *Player) Run(cfg config.Config, a config.Action, req Request) (string, error) {
	cmd, err := p.Command(cfg, a, req)
	if err != nil {
		return "", err
	}
	pr, err := p.start(cmd)
	if err != nil {
		return "", cannotStart(cmd.Args[0], actionKey(cfg, a), err)
	}
	return fmt.Sprintf("started %s (process %d)", a.Name, pr.cmd.Process.Pid), nil
}

// queueFor returns what {queue} becomes for the request: a Dolphin queue
// file of its clips, or of its one stretch, written to the Player's
// folder under a name of its own (a command may still read the last one).
func (p *Player) queueFor(req Request) func() (string, error) {
	return func() (string, error) {
		if f := decoders.ByID(req.Format); f == nil || !f.Dolphin {
			return "", fmt.Errorf("{queue} is a Slippi Dolphin queue, and %s is one of the %s", req.Path, formatName(req.Format))
		}
		clips, lead, trail := req.Clips, req.Lead, req.Trail
		if len(clips) == 0 {
			clips, lead, trail = []dolphin.Clip{{Path: req.Path, Start: req.Start, End: req.End, Last: req.End}}, 0, 0
		}
		c, err := dolphin.Queue(clips, lead, trail)
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			return "", fmt.Errorf("cannot make %s for the queue file: %v", p.dir, reason(err))
		}
		p.sweep()
		path := filepath.Join(p.dir, "queue-"+randomHex()+".json")
		if err := dolphin.Write(path, c); err != nil {
			return "", fmt.Errorf("cannot write the queue file: %v", err)
		}
		return path, nil
	}
}

// executable is the program a configured path names: the file itself,
// a name found on PATH, or on macOS the program inside an .app bundle.
func executable(name string) (string, error) {
	if runtime.GOOS == "darwin" && strings.HasSuffix(strings.TrimRight(name, "/"), ".app") {
		app := strings.TrimRight(name, "/")
		name = filepath.Join(app, "Contents", "MacOS", strings.TrimSuffix(filepath.Base(app), ".app"))
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(path)
}

// cannotStart words why a program could not be started as one sentence,
// naming the setting it came from.
func cannotStart(program, key string, err error) error {
	return fmt.Errorf("cannot start %s (%s): %v", program, key, reason(err))
}

// reason is an error without the path and operation in front.
func reason(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		err = ee.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err
}

func randomHex() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
