package decoders

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"rewind/model"
)

// Tail follows a replay file while its recorder writes it (Slippi writes
// the .slp as the game runs, a DDNet server its teehistorian): it polls
// the file for growth (no file-change notifications: polling works on
// every file system and costs one stat per poll), reads only the bytes
// added, in one growing buffer, feeds them to the format's Follower and
// hands each new snapshot to emit. The CLI (dump --follow) and the TUI
// (--follow) both follow this way.
//
// It ends when the recording says it is over (Game End, FINISH) and the
// file has then stopped growing for Settle (the writer adds the metadata
// after Game End), after Idle without growth when Idle is set, when ctx is
// done, or with an error when the file is not a regular file, is of a
// format written whole, shrinks or is replaced. The last Update has Final
// set and the replay of the whole file: the Follower's Finish, or, when
// the writer rewrote bytes already read (Slippi sets the raw element's
// length at offset 11 when it closes the file), one decode of the file as
// it now is.

// TailOptions tune Tail; zero values take the defaults.
type TailOptions struct {
	Poll   time.Duration // how often the file is looked at; default 200 ms
	Idle   time.Duration // end after this long without growth; 0: never (only the recording's own end)
	Settle time.Duration // after the recording's end, how long the file must stay the same size; default 2 polls
	Decode model.DecodeOptions
	// Sleep waits between polls (default: time.Sleep, cut short by ctx);
	// Now is the clock. Tests replace both to drive a writer step by step.
	Sleep func(ctx context.Context, d time.Duration)
	Now   func() time.Time
}

// MaxTail is the largest file Tail follows: every live format keeps
// 32-bit offsets, and no real recording comes near it.
const MaxTail = 1 << 31

// Update is what Tail hands out: the latest snapshot and where the file is.
type Update struct {
	Replay *model.Replay // the decoded part: a snapshot, or the final replay; nil before the file holds a header
	Size   int64         // bytes read so far
	Ended  string        // why following ended ("Game End", "FINISH", "no growth for 30s"); empty while it goes on
	Final  bool          // the last update: Replay is the whole file's
	Note   string        // with Final: how the final replay was made when not by the Follower alone
}

// NotLiveError refuses to follow a format whose files are written whole.
type NotLiveError struct{ Format string }

func (e *NotLiveError) Error() string {
	return fmt.Sprintf("%s files are written whole, not live", e.Format)
}

// Tail follows the file at path (see above). It returns the final update,
// which emit also receives, or an error (with the last update seen) when
// the file cannot be followed.
func Tail(ctx context.Context, path string, opt TailOptions, emit func(Update)) (Update, error) {
	if opt.Poll <= 0 {
		opt.Poll = 200 * time.Millisecond
	}
	if opt.Settle <= 0 {
		opt.Settle = 2 * opt.Poll
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Sleep == nil {
		opt.Sleep = func(ctx context.Context, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
			case <-t.C:
			}
		}
	}
	fh, err := OpenRegular(path)
	if err != nil {
		return Update{}, err
	}
	defer fh.Close()
	first, err := fh.Stat()
	if err != nil {
		return Update{}, err
	}
	t := &tail{path: path, fh: fh, first: first, opt: opt, emit: emit}
	return t.run(ctx)
}

type tail struct {
	path   string
	fh     *os.File
	first  os.FileInfo // the file as opened: a path that names another file later was replaced
	opt    TailOptions
	emit   func(Update)
	buf    []byte
	format *Format
	f      model.Follower
	last   Update
}

func (t *tail) run(ctx context.Context) (Update, error) {
	now := t.opt.Now()
	grew, ended := now, time.Time{}
	why := ""
	for {
		added, err := t.read()
		if err != nil {
			return t.last, err
		}
		now = t.opt.Now()
		if added {
			grew = now
			if err := t.feed(); err != nil {
				return t.last, err
			}
		}
		switch {
		case t.f != nil && t.f.Ended() != "":
			if ended.IsZero() || added {
				ended = now // wait for the file to stay as it is
			}
			if now.Sub(ended) >= t.opt.Settle {
				return t.finish(t.f.Ended())
			}
		case t.opt.Idle > 0 && now.Sub(grew) >= t.opt.Idle:
			why = fmt.Sprintf("no growth for %s", t.opt.Idle)
		}
		if ctx.Err() != nil {
			why = "interrupted"
		}
		if why != "" {
			return t.finish(why)
		}
		t.opt.Sleep(ctx, t.opt.Poll)
	}
}

// read reads what the file added since the last read; added is false when
// it did not grow.
func (t *tail) read() (added bool, err error) {
	st, err := os.Stat(t.path)
	if err != nil {
		return false, fmt.Errorf("%s: %w", t.path, err)
	}
	if !os.SameFile(st, t.first) {
		return false, fmt.Errorf("%s was replaced by another file while it was followed (after %s bytes)", t.path, model.FormatCount(int64(len(t.buf))))
	}
	size := st.Size()
	switch {
	case size < int64(len(t.buf)):
		return false, fmt.Errorf("%s shrank from %s to %s bytes while it was followed: it is being rewritten, not appended to",
			t.path, model.FormatCount(int64(len(t.buf))), model.FormatCount(size))
	case size > MaxTail:
		return false, fmt.Errorf("%s passed %s bytes: no live recording is that big", t.path, model.FormatCount(MaxTail))
	case size == int64(len(t.buf)):
		return false, nil
	}
	old := len(t.buf)
	t.buf = slices.Grow(t.buf, int(size)-old) // append's growth: copies add up to about the file once
	n, err := t.fh.ReadAt(t.buf[old:size], int64(old))
	t.buf = t.buf[:old+n]
	if err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("%s at %#x: %w", t.path, old, err)
	}
	return n > 0, nil
}

// feed hands the bytes so far to the follower, once the file is long
// enough to tell its format, and emits the snapshot.
func (t *tail) feed() error {
	if t.f == nil {
		if len(t.buf) < 16 { // every format's magic fits in 16 bytes
			return nil
		}
		f, err := Detect(t.buf, t.path)
		if err != nil {
			return err
		}
		if f.Follow == nil {
			return &NotLiveError{Format: f.Name}
		}
		t.format, t.f = f, f.Follow(t.opt.Decode)
	}
	t.f.Feed(t.buf)
	t.last = Update{Replay: t.f.Replay(), Size: int64(len(t.buf))}
	if t.last.Replay == nil && t.f.Ended() != "" {
		return nil // refused: finish says why
	}
	if t.last.Replay != nil {
		t.last.Replay.Path = t.path
	}
	if t.emit != nil {
		t.emit(t.last)
	}
	return nil
}

// finish makes the final replay: the follower's, unless the bytes it was
// fed differ from the file's now, when the file is decoded once, whole.
func (t *tail) finish(why string) (Update, error) {
	if t.f == nil {
		if len(t.buf) == 0 {
			return t.last, fmt.Errorf("%s: still empty when following ended (%s)", t.path, why)
		}
		_, err := Detect(t.buf, t.path)
		if err == nil {
			err = fmt.Errorf("%s: only %d bytes when following ended (%s)", t.path, len(t.buf), why)
		}
		return t.last, err
	}
	u := Update{Size: int64(len(t.buf)), Ended: why, Final: true}
	now, err := t.readAll()
	var r *model.Replay
	if err == nil && len(now) > len(t.buf) && bytes.HasPrefix(now, t.buf) {
		t.buf = now // the last bytes, written since the last poll
		t.f.Feed(t.buf)
		u.Size = int64(len(now))
	}
	if err == nil && !bytes.Equal(now, t.buf) {
		// the writer went back over bytes already read
		at := 0
		for at < min(len(now), len(t.buf)) && now[at] == t.buf[at] {
			at++
		}
		u.Note = fmt.Sprintf("the writer rewrote bytes from %#x after they were read; the final replay is a decode of the file as it is now", at)
		u.Size = int64(len(now))
		r, err = Decode(now, t.path, t.opt.Decode)
		t.f.Finish() // done with it
	} else {
		r, err = t.f.Finish()
		if err != nil {
			err = &Error{Format: t.format.ID, Err: err}
		}
	}
	if err != nil {
		return t.last, err
	}
	r.Path, r.Size = t.path, u.Size
	if r.Data == nil {
		r.Data = t.buf
	}
	u.Replay = r
	t.last = u
	if t.emit != nil {
		t.emit(u)
	}
	return u, nil
}

// readAll reads the file as it is now, up to MaxTail bytes.
func (t *tail) readAll() ([]byte, error) {
	st, err := t.fh.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxTail {
		return nil, fmt.Errorf("%s passed %s bytes", t.path, model.FormatCount(MaxTail))
	}
	b := make([]byte, st.Size())
	n, err := t.fh.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}
