package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"rewind/model"
)

// cmdDump writes a replay as NDJSON: one "replay" object (summary, header,
// players), one "frame" object per frame in the range (every player's full
// state and the frame's events), then one "diagnostic" object per problem.
// Keys inside header, state and events are the decoder's field keys, named
// after the spec's field names.
func cmdDump(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("dump", "rewind dump [--frames A:B] [--json] FILE", stderr)
	frames := fs.String("frames", "", "only frames A to B inclusive, in the format's own numbering (e.g. -123:0); either end may be empty")
	fs.Bool("json", true, "write NDJSON (the only output form; accepted for clarity)")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(paths) != 1 {
		fs.Usage()
		return 2
	}
	r, err := decodeInput(fileInput(paths[0]), model.DecodeOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "rewind: %s: %v\n", paths[0], err)
		return 2
	}
	lo, hi := 0, r.Timeline.Count-1
	if *frames != "" {
		a, b, ok := strings.Cut(*frames, ":")
		if !ok {
			fmt.Fprintf(stderr, "rewind: --frames wants A:B, got %q\n", *frames)
			return 2
		}
		if a != "" {
			n, err := strconv.ParseInt(a, 10, 64)
			if err != nil {
				fmt.Fprintf(stderr, "rewind: --frames: %v\n", err)
				return 2
			}
			lo = int(max(n-r.Timeline.First, 0))
		}
		if b != "" {
			n, err := strconv.ParseInt(b, 10, 64)
			if err != nil {
				fmt.Fprintf(stderr, "rewind: --frames: %v\n", err)
				return 2
			}
			hi = int(min(n-r.Timeline.First, int64(r.Timeline.Count-1)))
		}
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	writeDump(w, r, lo, hi)
	if r.Problems() > 0 {
		return 1
	}
	return 0
}

func writeDump(w *bufio.Writer, r *model.Replay, lo, hi int) {
	j := &jsonWriter{w: w}
	j.begin()
	j.key("type")
	j.str("replay")
	s := summarize(r.Path, r, nil)
	j.key("summary")
	b, _ := json.Marshal(s)
	w.Write(b)
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

	for f := lo; f <= hi && f < r.Timeline.Count; f++ {
		j.begin()
		j.key("type")
		j.str("frame")
		j.key("index")
		j.num(int64(f))
		j.key("frame")
		j.num(r.Timeline.Number(f))
		if lbl := r.Timeline.Label(f); lbl != strconv.FormatInt(r.Timeline.Number(f), 10) {
			j.key("label")
			j.str(lbl)
		}
		j.key("time")
		j.float(r.Timeline.Time(f).Seconds())
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
			ev := &r.Events[i]
			j.begin()
			j.key("kind")
			j.str(ev.Kind)
			if ev.Player >= 0 {
				j.key("player")
				j.num(int64(ev.Player))
			}
			j.key("summary")
			j.str(r.EventSummary(i))
			j.span(ev.Span)
			if ev.Flag != "" {
				j.key("flag")
				j.str(ev.Flag)
			}
			if ev.Notable {
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

	for _, d := range r.Diagnostics {
		j.begin()
		j.key("type")
		j.str("diagnostic")
		j.key("severity")
		j.str(d.Severity.String())
		j.key("source")
		j.str(d.Source)
		j.span(d.Span)
		if d.Frame >= 0 && d.Frame < r.Timeline.Count {
			j.key("frame")
			j.num(r.Timeline.Number(d.Frame))
		}
		for _, kv := range [][2]string{{"subject", d.Subject}, {"message", d.Message}, {"expected", d.Expected}, {"found", d.Found}} {
			if kv[1] != "" {
				j.key(kv[0])
				j.str(kv[1])
			}
		}
		if d.Skipped {
			j.key("skipped")
			j.boolean(true)
		}
		j.key("text")
		j.str(d.String())
		j.end()
		w.WriteByte('\n')
	}
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

func (j *jsonWriter) str(s string) {
	b, _ := json.Marshal(s)
	j.w.Write(b)
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
		j.float(x.Seconds())
	default:
		b, err := json.Marshal(x)
		if err != nil {
			j.str(fmt.Sprint(x))
			return
		}
		j.w.Write(b)
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
