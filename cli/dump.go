package cli

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

const dumpAbout = `Write one replay as NDJSON, one JSON object per line:
  {"type":"replay",...}      the summary, the whole header, the players
  {"type":"moment",...}      one per moment of the game (a stock lost, a unit
                             trained, a miss), for formats that find them
  {"type":"frame",...}       one per frame: every player's full state and the
                             frame's events, each with its offset and length
  {"type":"region",...}      one per part of a container's own structure (an
                             SC2 archive's header, tables and sectors, each
                             sector with the decoded bytes it holds)
  {"type":"diagnostic",...}  one per problem the decoder found
Keys are lowerCamelCase, named after the spec's field names; an id keeps its
number and gets its name beside it (actionStateId and actionStateIdName).

--frames takes frame numbers as the format counts them (Slippi starts at -123)
or game times (m:ss, m:ss.cc, h:mm:ss or 12.5s): A..B is a range, inclusive,
either end may be left out; a single value is one frame. A range outside the
replay, reversed or empty is refused.
`

const dumpNotes = `With --follow, the file is one a recorder is still writing (Slippi's .slp
while the game runs, a DDNet server's teehistorian): each frame's line is
written as soon as the frame is complete, then, once the recording ends
(Game End, FINISH) or no byte came for --idle, the replay line, the
moments, the diagnostics of the whole file and a last line
{"type":"end","ended":...,"bytes":...,"frames":...}.

Exit status: 0 clean, 1 the replay has problems (the dump is still complete),
2 the file cannot be read or is no replay, or the command line is wrong.
`

// dumpOptions are dump's flags.
type dumpOptions struct {
	frames string
	json   bool
	follow bool
	idle   time.Duration
}

func dumpCommand() *cobra.Command {
	o := &dumpOptions{}
	cmd := &cobra.Command{
		Use:                   "dump [--frames A..B | --follow [--idle D]] [--json] FILE",
		Short:                 "NDJSON: the replay, its moments, one object per frame, one per diagnostic; --follow: a file still being written",
		Long:                  dumpAbout,
		Annotations:           map[string]string{notesKey: dumpNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVar(&o.frames, "frames", "", "frames `A..B` by number or time, e.g. -123..0 or 0:05..1:05.5")
	f.BoolVar(&o.json, "json", true, "write NDJSON (the only output form; --json=false is refused)")
	f.BoolVar(&o.follow, "follow", false, "follow a file still being written: frames as they complete, until the recording ends; wait for it to be created")
	f.DurationVar(&o.idle, "idle", 30*time.Second, "with --follow, end after this long without a new byte (or without the file), e.g. 30s; 0 waits for the recording's end")
	cmd.RegisterFlagCompletionFunc("frames", noFiles)
	cmd.RegisterFlagCompletionFunc("idle", noFiles)
	return cmd
}

// run writes a replay as NDJSON (see dumpAbout).
func (o *dumpOptions) run(c *call, paths []string) int {
	if !o.json {
		return c.errorf("writes only NDJSON; --json=false has no other form to give (rewind info prints a summary for people)")
	}
	if o.follow {
		if o.frames != "" {
			return c.errorf("--frames and --follow do not go together: following writes every frame as it completes")
		}
		if len(paths) != 1 {
			return c.errorf("follows one replay file, and %d were given", len(paths))
		}
		return dumpFollow(c, paths[0], o.idle)
	}
	spec, err := parseFrames(o.frames)
	if err != nil {
		return c.errorf("--frames: %v", err)
	}
	switch len(paths) {
	case 0:
		return c.errorf("name one replay file to dump")
	case 1:
	default:
		return c.errorf("dumps one replay file, and %d were given (rewind info summarises several)", len(paths))
	}
	inputs := collect(paths, nil)
	if len(inputs) != 1 || inputs[0].Name != paths[0] {
		return c.errorf("%s is a folder; dump takes one replay file", c.epath(paths[0]))
	}
	in := inputs[0] // a file, or a path that cannot be read: decodeInput says why
	r, err := decodeInput(in, model.DecodeOptions{})
	if err != nil {
		return c.errorf("%s: %s", c.epath(in.Name), reason(in.Name, err))
	}
	lo, hi := 0, r.Timeline.Count-1
	if o.frames != "" {
		if lo, hi, err = spec.resolve(&r.Timeline); err != nil {
			return c.errorf("--frames %s: %v", o.frames, err)
		}
	}
	w := bufio.NewWriterSize(c.stdout, 1<<16)
	defer w.Flush()
	writeDump(w, in, r, lo, hi)
	if r.Problems() > 0 {
		return 1
	}
	return 0
}

// frameSpec is a parsed --frames: each end a frame number, a time, or
// open.
type frameSpec struct{ lo, hi framePoint }

type framePoint struct {
	set    bool
	isTime bool
	number int64
	time   time.Duration
	text   string
}

const rangeHint = "a range is A..B, like -123..0 or 0:05..1:05.5"

// parseFrames reads --frames: A..B, ..B, A.., .. or a single A, where each
// end is a frame number or a game time. Errors are one sentence.
func parseFrames(s string) (frameSpec, error) {
	var spec frameSpec
	if s == "" {
		return spec, nil
	}
	a, b, isRange := strings.Cut(s, "..")
	var err error
	if spec.lo, err = parsePoint(a, isRange); err != nil {
		return spec, err
	}
	if !isRange {
		spec.hi = spec.lo
		return spec, nil
	}
	spec.hi, err = parsePoint(b, isRange)
	return spec, err
}

func parsePoint(p string, inRange bool) (framePoint, error) {
	pt, err := readPoint(p)
	if err != nil && (!inRange || !strings.ContainsAny(p, ":s")) {
		err = fmt.Errorf("%v; %s", err, rangeHint)
	}
	return pt, err
}

// readPoint reads a frame number or a game time (watch's --at and --to,
// each end of --frames); "" is no point.
func readPoint(p string) (framePoint, error) {
	if p == "" {
		return framePoint{}, nil
	}
	pt := framePoint{set: true, text: p}
	if n, err := strconv.ParseInt(p, 10, 64); err == nil {
		pt.number = n
		return pt, nil
	}
	d, err := model.ParseDuration(p)
	if err != nil && strings.ContainsAny(p, ":s") {
		return pt, err
	}
	if err != nil {
		return pt, fmt.Errorf("%q is neither a frame number nor a time (m:ss, h:mm:ss or 12.5s)", p)
	}
	pt.isTime, pt.time = true, d
	return pt, nil
}

// resolve turns the spec into frame indices on a timeline. A time names the
// frame on screen at that time; an end outside the replay, a reversed range
// and a replay without frames are errors.
func (s frameSpec) resolve(tl *model.Timeline) (lo, hi int, err error) {
	if tl.Count == 0 {
		return 0, 0, fmt.Errorf("the replay has no frames")
	}
	last := tl.Count - 1
	lo, hi = 0, last
	if s.lo.set {
		if lo, err = s.lo.index(tl, true); err != nil {
			return 0, 0, err
		}
	}
	if s.hi.set {
		if hi, err = s.hi.index(tl, false); err != nil {
			return 0, 0, err
		}
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("the range is reversed: %s comes after %s", s.lo.text, s.hi.text)
	}
	return lo, hi, nil
}

// index finds the point's frame. A time finds the frame on screen then;
// when several frames share that time, a range's start takes the first of
// them and its end the last.
func (p framePoint) index(tl *model.Timeline, start bool) (int, error) {
	last := tl.Count - 1
	if !p.isTime {
		if p.number < tl.First || p.number > tl.Number(last) {
			return 0, fmt.Errorf("%s %d is outside the replay, which has %ss %d to %d", unitOf(tl), p.number, unitOf(tl), tl.First, tl.Number(last))
		}
		return int(p.number - tl.First), nil
	}
	first, end := tl.Time(0), tl.Time(last)
	if tl.Rate > 0 {
		end += time.Duration(float64(time.Second) / tl.Rate) // the last frame stays on screen one frame long
	}
	if p.time < first || p.time >= end && p.time != tl.Time(last) {
		return 0, fmt.Errorf("%s is outside the replay, which runs from %s to %s", p.text, model.FormatDuration(first), model.FormatDuration(end))
	}
	i := sort.Search(tl.Count, func(i int) bool { return tl.Time(i) > p.time }) - 1
	if start {
		i = sort.Search(tl.Count, func(j int) bool { return tl.Time(j) >= tl.Time(i) })
	}
	return i, nil
}

// unitOf is what the timeline calls a frame.
func unitOf(tl *model.Timeline) string {
	if tl.Unit == "" {
		return "frame"
	}
	return tl.Unit
}

func writeDump(w *bufio.Writer, in input, r *model.Replay, lo, hi int) {
	j := &jsonWriter{w: w}
	writeReplayLine(j, in, r)
	for _, m := range r.Analysis().Moments {
		if m.Frame <= hi && max(m.End, m.Frame) >= lo {
			writeMoment(j, r, m)
		}
	}
	for f := lo; f <= hi && f < r.Timeline.Count; f++ {
		writeFrame(j, r, f)
	}
	for _, g := range r.Regions {
		writeRegion(j, &g)
	}
	writeDiagnostics(w, r)
}

// writeReplayLine writes the first line: the summary, the whole header
// and the players.
func writeReplayLine(j *jsonWriter, in input, r *model.Replay) {
	w := j.w
	j.begin()
	j.key("type")
	j.str("replay")
	h := library.FromReplay(in.Name, in.Size, r)
	s := summarize(&h)
	j.key("summary")
	b, _ := json.Marshal(s)
	w.Write(theme.EscapeJSON(b))
	j.key("header")
	j.fields(r.Header)
	j.key("players")
	w.WriteByte('[')
	for i, p := range r.Players {
		if i > 0 {
			w.WriteByte(',')
		}
		j.begin()
		j.key("index")
		j.num(int64(i))
		for _, kv := range [][2]string{{"slot", p.Slot}, {"name", p.Name}, {"code", p.Code}, {"character", p.Character}, {"team", p.Team}, {"result", p.Result}} {
			if kv[1] != "" {
				j.key(kv[0])
				j.str(kv[1])
			}
		}
		if len(p.Fields) > 0 {
			j.key("fields")
			j.fields(p.Fields)
		}
		j.end()
	}
	w.WriteByte(']')
	j.end()
	w.WriteByte('\n')
}

// writeFrame writes one frame: where it is, every player's state, and its
// events with their bytes and fields.
func writeFrame(j *jsonWriter, r *model.Replay, f int) {
	w := j.w
	j.begin()
	j.key("type")
	j.str("frame")
	j.position(&r.Timeline, "", f)
	j.key("players")
	w.WriteByte('[')
	for p := range r.Players {
		if p > 0 {
			w.WriteByte(',')
		}
		st := r.PlayerState(f, p)
		j.begin()
		j.key("index")
		j.num(int64(p))
		j.key("slot")
		j.str(r.Players[p].Slot)
		j.key("present")
		j.boolean(st.Present)
		if st.Present {
			j.key("state")
			j.fields(st.Fields)
		}
		j.end()
	}
	w.WriteByte(']')
	lo, hi := r.EventRange(f)
	j.key("events")
	w.WriteByte('[')
	for i := lo; i < hi; i++ {
		if i > lo {
			w.WriteByte(',')
		}
		j.begin()
		j.key("kind")
		j.str(r.EventKind(i))
		j.player(r, "player", int(r.Events[i].Player))
		j.key("summary")
		j.str(r.EventSummary(i))
		j.span(r.EventSpan(i))
		if f := r.EventFlag(i); f != "" {
			j.key("flag")
			j.str(f)
		}
		if r.EventNotable(i) {
			j.key("notable")
			j.boolean(true)
		}
		if fl := r.EventFields(i); len(fl) > 0 {
			j.key("fields")
			j.fields(fl)
		}
		j.end()
	}
	w.WriteByte(']')
	j.end()
	w.WriteByte('\n')
}

// writeDiagnostics writes one line per diagnostic.
func writeDiagnostics(w *bufio.Writer, r *model.Replay) {
	for _, d := range r.Diagnostics {
		jd := diagnosticJSON(r, d)
		jd.Type = "diagnostic"
		writeJSON(w, jd)
	}
}

// writeMoment writes one moment: where it happens on the timeline (index,
// frame number, label, time, and the end for a range), whose it is, the
// summary, the bytes that record it and its fields, keyed like an event's.
func writeMoment(j *jsonWriter, r *model.Replay, m model.Moment) {
	j.begin()
	j.key("type")
	j.str("moment")
	j.key("kind")
	j.str(string(m.Kind))
	j.position(&r.Timeline, "", m.Frame)
	if m.End > m.Frame {
		j.position(&r.Timeline, "end", m.End)
	}
	j.player(r, "by", m.By)
	j.player(r, "on", m.On)
	j.key("summary")
	j.str(m.Summary)
	if m.Span != (model.Span{}) {
		j.span(m.Span)
	}
	if len(m.Fields) > 0 {
		j.key("fields")
		j.fields(m.Fields)
	}
	j.end()
	j.w.WriteByte('\n')
}

// writeRegion writes one part of the container's structure: its bytes in
// the file, what it is, the decoded bytes it holds and why it does not read.
func writeRegion(j *jsonWriter, g *model.Region) {
	j.begin()
	j.key("type")
	j.str("region")
	j.key("kind")
	j.str(g.Kind)
	j.key("label")
	j.str(g.Label)
	j.span(g.Span)
	if g.Link.Stream != "" {
		j.key("decodedStream")
		j.str(g.Link.Stream)
		j.key("decodedOffset")
		j.num(g.Link.Off)
		j.key("decodedLength")
		j.num(g.Link.Len)
		j.key("stored")
		j.boolean(g.Stored)
	}
	if g.Err != "" {
		j.key("error")
		j.str(g.Err)
	}
	if len(g.Fields) > 0 {
		j.key("fields")
		j.fields(g.Fields)
	}
	j.end()
	j.w.WriteByte('\n')
}

// jsonDiagnostic is a diagnostic as `dump` and `check --json` write it.
type jsonDiagnostic struct {
	Type     string `json:"type,omitempty"` // "diagnostic" in dump's stream; absent inside check's file object
	Severity string `json:"severity"`
	Source   string `json:"source"`
	Stream   string `json:"stream,omitempty"`
	Offset   int64  `json:"offset"`
	Length   int64  `json:"length"`
	Frame    *int64 `json:"frame,omitempty"` // the format's frame number it concerns
	Subject  string `json:"subject,omitempty"`
	Message  string `json:"message,omitempty"`
	Expected string `json:"expected,omitempty"`
	Found    string `json:"found,omitempty"`
	Skipped  bool   `json:"skipped,omitempty"`
	Text     string `json:"text"`
}

func diagnosticJSON(r *model.Replay, d model.Diagnostic) jsonDiagnostic {
	jd := jsonDiagnostic{
		Severity: d.Severity.String(), Source: d.Source, Stream: d.Span.Stream, Offset: d.Span.Off,
		Length: d.Span.Len, Subject: d.Subject, Message: d.Message, Expected: d.Expected,
		Found: d.Found, Skipped: d.Skipped, Text: d.String(),
	}
	if d.Frame >= 0 && d.Frame < r.Timeline.Count {
		n := r.Timeline.Number(d.Frame)
		jd.Frame = &n
	}
	return jd
}

// jsonWriter writes JSON objects whose keys keep the decoder's order, which
// encoding/json's maps would not.
type jsonWriter struct {
	w     *bufio.Writer
	first []bool
}

func (j *jsonWriter) begin() {
	j.w.WriteByte('{')
	j.first = append(j.first, true)
}

func (j *jsonWriter) end() {
	j.w.WriteByte('}')
	j.first = j.first[:len(j.first)-1]
}

func (j *jsonWriter) key(k string) {
	if !j.first[len(j.first)-1] {
		j.w.WriteByte(',')
	}
	j.first[len(j.first)-1] = false
	j.str(k)
	j.w.WriteByte(':')
}

// str writes a string, escaped for JSON and for terminals (theme.EscapeJSON).
func (j *jsonWriter) str(s string) {
	b, _ := json.Marshal(s)
	j.w.Write(theme.EscapeJSON(b))
}

func (j *jsonWriter) num(n int64) { j.w.WriteString(strconv.FormatInt(n, 10)) }

func (j *jsonWriter) boolean(b bool) { j.w.WriteString(strconv.FormatBool(b)) }

// float writes a number; NaN and infinities, which real replays contain in
// garbage fields, become strings because JSON has no word for them.
func (j *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		j.str(strconv.FormatFloat(f, 'g', -1, 64))
		return
	}
	j.w.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
}

// seconds writes a duration in seconds as the decimal its nanoseconds are
// (1.966666667, not the float64 1.9666666670000001 that Seconds gives).
func (j *jsonWriter) seconds(d time.Duration) {
	j.w.WriteString(secondsText(d))
}

// secondsText is d in seconds, exactly, with no trailing zeros.
func secondsText(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	q, r := int64(d)/1e9, int64(d)%1e9
	if r == 0 {
		return sign + strconv.FormatInt(q, 10)
	}
	return strings.TrimRight(fmt.Sprintf("%s%d.%09d", sign, q, r), "0")
}

// position writes where frame index i is on the timeline: index, frame
// number, label (when it is not the number) and time in seconds, with the
// keys prefixed ("endIndex") when prefix is set.
func (j *jsonWriter) position(tl *model.Timeline, prefix string, i int) {
	if i < 0 || i >= tl.Count {
		return
	}
	key := func(k string) {
		if prefix != "" {
			k = prefix + strings.ToUpper(k[:1]) + k[1:]
		}
		j.key(k)
	}
	key("index")
	j.num(int64(i))
	key("frame")
	j.num(tl.Number(i))
	if lbl := tl.Label(i); lbl != strconv.FormatInt(tl.Number(i), 10) {
		key("label")
		j.str(lbl)
	}
	key("time")
	j.seconds(tl.Time(i))
}

// player writes a player as its slot ("P1"), as every JSON of rewind
// names players, unless it is -1 (none).
func (j *jsonWriter) player(r *model.Replay, key string, p int) {
	if p >= 0 && p < len(r.Players) {
		j.key(key)
		j.str(r.Players[p].Slot)
	}
}

func (j *jsonWriter) span(s model.Span) {
	if s.Stream != "" {
		j.key("stream")
		j.str(s.Stream)
	}
	j.key("offset")
	j.num(s.Off)
	j.key("length")
	j.num(s.Len)
}

func (j *jsonWriter) value(v any) {
	switch x := v.(type) {
	case nil:
		j.w.WriteString("null")
	case bool:
		j.boolean(x)
	case int:
		j.num(int64(x))
	case int8:
		j.num(int64(x))
	case int16:
		j.num(int64(x))
	case int32:
		j.num(int64(x))
	case int64:
		j.num(x)
	case uint:
		j.w.WriteString(strconv.FormatUint(uint64(x), 10))
	case uint8:
		j.num(int64(x))
	case uint16:
		j.num(int64(x))
	case uint32:
		j.num(int64(x))
	case uint64:
		j.w.WriteString(strconv.FormatUint(x, 10))
	case float32:
		j.float(float64(x))
	case float64:
		j.float(x)
	case string:
		j.str(x)
	case []byte:
		j.str(hex.EncodeToString(x))
	case time.Time:
		j.str(x.Format(time.RFC3339Nano))
	case time.Duration:
		j.seconds(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			j.str(fmt.Sprint(x))
			return
		}
		j.w.Write(theme.EscapeJSON(b))
	}
}

// fields writes a field list as an object. A field with children becomes a
// nested object; a key that repeats within one list (ports, racers, notes)
// becomes an array of its values in order; a field with a Name also gets
// key+"Name" so ids stay numbers and names sit beside them.
func (j *jsonWriter) fields(fl []model.Field) {
	j.begin()
	seen := make(map[string]bool, len(fl))
	for i, f := range fl {
		if seen[f.Key] {
			continue
		}
		seen[f.Key] = true
		same := 0
		for _, g := range fl[i+1:] {
			if g.Key == f.Key {
				same++
			}
		}
		key := f.Key
		if key == "" {
			key = f.Label
		}
		j.key(key)
		if same == 0 {
			j.fieldValue(f)
		} else {
			named := false
			j.w.WriteByte('[')
			n := 0
			for _, g := range fl[i:] {
				if g.Key != f.Key {
					continue
				}
				if n > 0 {
					j.w.WriteByte(',')
				}
				n++
				j.fieldValue(g)
				named = named || (g.Name != "" && len(g.Fields) == 0 && g.Value != nil)
			}
			j.w.WriteByte(']')
			if named {
				// names of repeated ids as a parallel array
				j.key(key + "Name")
				j.w.WriteByte('[')
				n = 0
				for _, g := range fl[i:] {
					if g.Key != f.Key {
						continue
					}
					if n > 0 {
						j.w.WriteByte(',')
					}
					n++
					j.str(g.Name)
				}
				j.w.WriteByte(']')
			}
		}
		if f.Name != "" && same == 0 && len(f.Fields) == 0 && f.Value != nil {
			j.key(key + "Name")
			j.str(f.Name)
		}
	}
	j.end()
}

func (j *jsonWriter) fieldValue(f model.Field) {
	if len(f.Fields) > 0 {
		j.fields(f.Fields)
		return
	}
	if f.Value == nil && f.Name != "" {
		j.str(f.Name)
		return
	}
	j.value(f.Value)
}

// dumpFollow is dump --follow: the frames of a file still being written,
// each as it completes (decoders.Tail), then the rest of a dump of the
// whole file and an end line. A file that is not there yet is waited for
// (a recorder creates it when the game starts), for as long as --idle.
func dumpFollow(c *call, path string, idle time.Duration) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := waitForFile(ctx, c, path, idle); err != nil {
		return c.errorf("%s", err)
	}
	w := bufio.NewWriterSize(c.stdout, 1<<16)
	defer w.Flush()
	j := &jsonWriter{w: w}
	written := 0 // frames written
	emit := func(u decoders.Update) {
		r := u.Replay
		if r == nil {
			return
		}
		for ; written < r.Timeline.Count; written++ {
			writeFrame(j, r, written)
		}
		w.Flush() // a script reads each frame as it completes
	}
	u, err := decoders.Tail(ctx, path, decoders.TailOptions{Idle: idle}, emit)
	if err != nil {
		w.Flush()
		return c.errorf("%s", withPath(c.epath(path), err))
	}
	r := u.Replay
	writeReplayLine(j, input{Name: path, Size: u.Size}, r)
	for _, m := range r.Analysis().Moments {
		writeMoment(j, r, m)
	}
	for _, g := range r.Regions {
		writeRegion(j, &g)
	}
	writeDiagnostics(w, r)
	end := struct {
		Type   string `json:"type"`
		Ended  string `json:"ended"`
		Bytes  int64  `json:"bytes"`
		Frames int    `json:"frames"`
		Note   string `json:"note,omitempty"`
	}{"end", u.Ended, u.Size, r.Timeline.Count, u.Note}
	writeJSON(w, end)
	if r.Problems() > 0 {
		return 1
	}
	return 0
}

// waitForFile returns once path exists: a recorder (Slippi's, a DDNet
// server) creates its file when the game starts, so following may begin
// before it. It says on stderr that it waits, and gives up after idle (0:
// until ctx ends, with Ctrl-C). A path that exists, or cannot be looked at
// for another reason than its absence, returns at once.
func waitForFile(ctx context.Context, c *call, path string, idle time.Duration) error {
	_, err := os.Stat(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return nil // there, or a problem Tail words with the path
	}
	limit := "until it is (Ctrl-C stops)"
	if idle > 0 {
		limit = fmt.Sprintf("for up to %s (--idle)", idle)
	}
	c.notef("%s does not exist yet; waiting %s", c.epath(path), limit)
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: interrupted while waiting for it to be created", c.epath(path))
		case <-time.After(200 * time.Millisecond):
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if idle > 0 && time.Since(start) >= idle {
			return fmt.Errorf("%s: no such file or folder: nothing created it within %s (--idle)", c.epath(path), idle)
		}
	}
}
