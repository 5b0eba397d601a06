package teehistorian

import (
	"strings"
	"testing"

	"rewind/model"
)

// cutEverywhere decodes every sample cut at every byte of its message
// stream and calls check with each replay that has a partial event.
func cutEverywhere(t *testing.T, check func(name string, data []byte, cut int, whole, r *model.Replay, i int)) int {
	seen := 0
	for k, data := range allSamples(t) {
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		name := "sample " + string(rune('A'+k))
		for cut := streamStart(data); cut < len(data); cut++ {
			r, err := Decode(data[:cut], model.DecodeOptions{})
			if err != nil {
				t.Fatalf("%s cut at %#x: %v", name, cut, err)
			}
			for i := range r.Events {
				if r.Events[i].Flags&model.Partial != 0 {
					seen++
					check(name, data, cut, whole, r, i)
				}
			}
		}
	}
	return seen
}

// TestCutMessageIsPartialEvent cuts every sample at every byte of its
// stream. Inside a message, the message is an event of its own flagged
// partial: the last event, its bytes from the message's start to the end,
// in the tick the stream was in (that of the events before it, and the
// one its whole message has or an earlier one: a message can start a
// tick); the error about it is at its offset, in the same frame. Between
// two messages there is none, and the stream ends without FINISH.
func TestCutMessageIsPartialEvent(t *testing.T) {
	for k, data := range allSamples(t) {
		whole, _ := Decode(data, model.DecodeOptions{})
		wholeAt := map[int64]tev{}
		for _, ev := range expand(whole) {
			wholeAt[ev.Off] = ev
		}
		boundaries := 0
		for cut := streamStart(data); cut < len(data); cut++ {
			r, err := Decode(data[:cut], model.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var partial *tev
			for i, ev := range expand(r) {
				if ev.Flags&model.Partial != 0 {
					if i != len(r.Events)-1 || partial != nil {
						t.Fatalf("sample %d cut at %#x: partial event %d of %d", k, cut, i, len(r.Events))
					}
					partial = &ev
				}
			}
			if partial == nil {
				boundaries++
				if hasDiag(r, "ends without FINISH") == nil || hasDiag(r, "ends inside this message") != nil {
					t.Errorf("sample %d cut at %#x between messages: %v", k, cut, r.Diagnostics)
				}
				continue
			}
			if partial.End() != int64(cut) || partial.Len <= 0 {
				t.Errorf("sample %d cut at %#x: partial event spans %v+%d", k, cut, partial.Span, partial.Len)
			}
			if !strings.Contains(partial.Summary, "cut off after") {
				t.Errorf("sample %d cut at %#x: summary %q", k, cut, partial.Summary)
			}
			if n := len(r.Events); n > 1 && int(r.Events[n-2].Frame) > partial.Frame {
				t.Errorf("sample %d cut at %#x: partial event at tick %d after an event at %d", k, cut, partial.Frame, r.Events[n-2].Frame)
			}
			// an EX whose extension UUID is not whole yet is of no known kind
			unnamed := partial.Kind == "ex" && data[partial.Off] == 0x4a // -11
			if w, ok := wholeAt[partial.Off]; ok && (w.Frame < partial.Frame || (w.Kind != partial.Kind && !unnamed)) {
				t.Errorf("sample %d cut at %#x: partial %s at tick %d; the whole file has %s at %d", k, cut, partial.Kind, partial.Frame, w.Kind, w.Frame)
			}
			d := hasDiag(r, "ends inside this message")
			if d == nil || d.Severity != model.Error || d.Span.Off != partial.Off || d.Frame != partial.Frame {
				t.Errorf("sample %d cut at %#x: the error about the partial event (tick %d): %+v", k, cut, partial.Frame, d)
			}
		}
		if boundaries < 3 {
			t.Errorf("sample %d: only %d cuts between messages", k, boundaries)
		}
	}
}

// TestPartialMessageHasTheFieldsThatFit: the fields of a message cut off
// are those of the whole message that fit, each equal to the whole file's
// (value and bytes); then the field the end cut through, named with how
// many bytes of it there are and from where; then where it stopped.
func TestPartialMessageHasTheFieldsThatFit(t *testing.T) {
	cutFields := 0
	n := cutEverywhere(t, func(name string, data []byte, cut int, whole, r *model.Replay, i int) {
		ev := r.Events[i]
		got := r.EventFields(i)
		if len(got) == 0 || got[len(got)-1].Key != "cutOff" || got[len(got)-1].Span.Off != int64(cut) {
			t.Errorf("%s cut at %#x: the fields do not end with where it stopped: %v", name, cut, got)
			return
		}
		if v, _ := got[len(got)-1].Value.(string); !strings.HasPrefix(v, "after ") {
			t.Errorf("%s cut at %#x: cutOff says %q", name, cut, v)
		}
		var want []model.Field
		for j, w := range whole.Events {
			if w.Off == ev.Off {
				want = whole.EventFields(j)
			}
		}
		for _, f := range got[:len(got)-1] {
			if f.Span.Off < ev.Off || f.Span.End() > int64(cut) {
				t.Errorf("%s cut at %#x: field %s at %v+%d outside the partial event", name, cut, f.Key, f.Span, f.Span.Len)
			}
			if strings.Contains(f.Label, "(cut off: ") {
				cutFields++
				if f.Span.End() != int64(cut) || !strings.Contains(f.Label, " bytes)") {
					t.Errorf("%s cut at %#x: cut field %s %q at %v+%d", name, cut, f.Key, f.Label, f.Span, f.Span.Len)
				}
				continue
			}
			if want == nil {
				continue // a message that is no event in the whole file (PLAYER_DIFF, TICK_SKIP, INPUT_DIFF)
			}
			if w, ok := findAt(want, f.Key, f.Span.Off); !ok || model.FormatValue(w.Value) != model.FormatValue(f.Value) || w.Span != f.Span {
				t.Errorf("%s cut at %#x: field %s = %v at %v; the whole file has %v at %v", name, cut, f.Key, f.Value, f.Span, w.Value, w.Span)
			}
		}
	})
	if n < 1000 || cutFields < 500 {
		t.Errorf("only %d partial events, %d cut fields", n, cutFields)
	}
}

// findAt is the field with the key at offset off, searching groups.
func findAt(fs []model.Field, key string, off int64) (model.Field, bool) {
	for _, f := range fs {
		if f.Key == key && f.Span.Off == off {
			return f, true
		}
		if g, ok := findAt(f.Fields, key, off); ok {
			return g, true
		}
	}
	return model.Field{}, false
}

// TestPartialFieldWords: how a cut field names what is missing, for a
// payload whose length was read before it (exact) and for an int (only a
// lower bound: its last byte says it ends).
func TestPartialFieldWords(t *testing.T) {
	data := file(testHeader, msg(idJoin, 3, idMessage, 3, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, idFinish))
	cut := len(data) - 5 // 5 of the 10 message bytes
	r := decodeOK(t, data[:cut])
	last := r.EventFields(len(r.Events) - 1)
	f := last[len(last)-2]
	if f.Key != "msg" || f.Label != "Message bytes (cut off: 6 of 10 bytes)" {
		t.Errorf("cut payload: %s %q", f.Key, f.Label)
	}
	if v := last[len(last)-1].Value; v != "after 9 of 13 bytes: the data ends here" {
		t.Errorf("cutOff %q", v)
	}
	if p := r.Events[len(r.Events)-1].Player; p != 0 {
		t.Errorf("the partial MESSAGE names player %d, want 0 (client 3)", p)
	}
	// an int cut after its first byte (0x80: more bytes follow)
	data = file(testHeader, append(msg(idJoin, 3, idPlayerNew, 3), 0x80))
	r = decodeOK(t, data)
	last = r.EventFields(len(r.Events) - 1)
	if f := last[len(last)-2]; f.Key != "x" || f.Label != "x (cut off: 1 of at least 2 bytes)" {
		t.Errorf("cut int: %s %q", f.Key, f.Label)
	}
}
