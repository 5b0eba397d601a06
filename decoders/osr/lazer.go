package osr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"rewind/model"
)

// scoreInfo is osu!lazer's score info (LegacyReplaySoloScoreInfo), the
// JSON its versions from 30000001 append: the values rewind reads, and
// every member as a field with its bytes in the stream "score.info".
type scoreInfo struct {
	OnlineID         *int64            `json:"online_id"`
	UserID           *int64            `json:"user_id"`
	Rank             string            `json:"rank"`
	ClientVersion    string            `json:"client_version"`
	TotalWithoutMods *int64            `json:"total_score_without_mods"`
	PauseCount       *int64            `json:"pause_count"`
	Pauses           []json.RawMessage `json:"pauses"`
	Mods             []lazerMod        `json:"mods"`
	Statistics       map[string]int64  `json:"statistics"`
	MaxStatistics    map[string]int64  `json:"maximum_statistics"`

	fields []model.Field
	err    string // the JSON does not read: why
	errOff int64
}

type lazerMod struct {
	Acronym  string          `json:"acronym"`
	Settings json.RawMessage `json:"settings"`
}

// jsonDepth bounds how deep the fields of the score info go.
const jsonDepth = 16

// readScoreInfo reads the JSON: the typed values, and every member as a
// field with its span.
func (d *decoder) readScoreInfo(text []byte) *scoreInfo {
	si := &scoreInfo{}
	// every token may become a field: pay for the most there can be
	if !d.paid(d.b.Items("score info fields", int64(len(text)/2+1), 160), model.Span{Stream: StreamScoreInfo, Len: int64(len(text))}) {
		si.err = "not read: the decode budget is spent"
		return si
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	w := &jsonWalker{dec: dec, src: text}
	f, err := w.value("scoreInfo", "score info", 0)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("more after the JSON object")
		}
	}
	if err != nil {
		si.err = err.Error()
		si.errOff = min(dec.InputOffset(), int64(len(text)))
		d.diags = append(d.diags, model.Diagnostic{Severity: model.Warning, Source: source,
			Span: model.Span{Stream: StreamScoreInfo, Off: si.errOff}, Frame: -1, Subject: "score info",
			Message: "the score info is not valid JSON: " + si.err + "; the members before are kept"})
	}
	si.fields = f.Fields
	if err == nil {
		if e := json.Unmarshal(text, si); e != nil {
			d.diag(model.Warning, model.Span{Stream: StreamScoreInfo}, "score info",
				"a score info member has an unexpected type: "+e.Error()+"; the members are shown as they are", "", "")
			*si = scoreInfo{fields: f.Fields}
		}
	}
	return si
}

// jsonWalker turns JSON into fields, each with the span of its value in
// the text.
type jsonWalker struct {
	dec *json.Decoder
	src []byte
}

// next is where the next value starts: past the whitespace, colons and
// commas the decoder has not consumed yet.
func (w *jsonWalker) next() int64 {
	o := w.dec.InputOffset()
	for o < int64(len(w.src)) {
		switch w.src[o] {
		case ' ', '\t', '\r', '\n', ':', ',':
			o++
			continue
		}
		break
	}
	return o
}

func (w *jsonWalker) value(key, label string, depth int) (model.Field, error) {
	f := model.Field{Key: key, Label: label}
	start := w.next()
	tok, err := w.dec.Token()
	if err != nil {
		return f, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= jsonDepth {
			return f, errors.New("nested too deeply")
		}
		closing := json.Delim('}')
		if t == '[' {
			closing = ']'
		}
		for i := 0; w.dec.More(); i++ {
			k, l := fmt.Sprint(i), fmt.Sprintf("[%d]", i)
			if t == '{' {
				kt, err := w.dec.Token()
				if err != nil {
					return f, err
				}
				name, _ := kt.(string)
				k, l = camel(name), name
			}
			g, err := w.value(k, l, depth+1)
			f.Fields = append(f.Fields, g)
			if err != nil {
				return f, err
			}
		}
		if end, err := w.dec.Token(); err != nil || end != closing {
			if err == nil {
				err = fmt.Errorf("found %v where %v closes", end, closing)
			}
			return f, err
		}
		if t == '[' {
			f.Name = fmt.Sprintf("%d items", len(f.Fields))
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			f.Value = i
		} else if x, err := t.Float64(); err == nil {
			f.Value = x
		} else {
			f.Value = string(t)
		}
	case string:
		f.Value = t
	case bool:
		f.Value = t
	case nil:
		f.Name = "null"
	}
	f.Span = model.Span{Stream: StreamScoreInfo, Off: start, Len: w.dec.InputOffset() - start}
	return f, nil
}

// camel turns a JSON member's snake_case name into a field key.
func camel(s string) string {
	var b strings.Builder
	up := false
	for i, r := range s {
		switch {
		case r == '_' || r == '-' || r == ' ':
			up = i > 0
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "member"
	}
	return b.String()
}

// scoreInfoField describes the score info member.
func (d *decoder) scoreInfoField() model.Field {
	m := &d.scoreInfo
	f := model.Field{Key: "scoreInfo", Label: "Score info (osu!lazer, LZMA JSON)", Span: at(m.lenOff, m.off+m.n-m.lenOff)}
	f.Fields = append(f.Fields, model.Field{Key: "length", Label: "Compressed length", Value: int64(m.declared), Span: at(m.lenOff, 4)})
	f.Fields = append(f.Fields, memberFields(m)...)
	if d.info != nil {
		f.Fields = append(f.Fields, d.info.fields...)
	}
	return f
}

// lazerMods are the score info's mods as acronyms, nil when it has none.
func (si *scoreInfo) lazerMods() []string {
	if si == nil {
		return nil
	}
	var out []string
	for _, m := range si.Mods {
		if m.Acronym != "" {
			out = append(out, m.Acronym)
		}
	}
	return out
}
