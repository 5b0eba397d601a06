package teehistorian

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// headerLabels are the people names of the header keys DDNet writes.
var headerLabels = map[string]string{
	"comment": "Comment", "version": "Version", "version_minor": "Minor version", "game_uuid": "Game UUID",
	"prev_game_uuid": "Previous game UUID", "server_version": "Server version", "start_time": "Start time",
	"server_name": "Server name", "server_port": "Server port", "game_type": "Game type", "map_name": "Map name",
	"map_size": "Map size", "map_sha256": "Map SHA-256", "map_crc": "Map CRC", "prng_description": "PRNG",
	"config": "Config", "tuning": "Tuning", "uuids": "Extension UUIDs",
}

// camel turns a header key (server_name) into a field key (serverName).
func camel(k string) string {
	parts := strings.FieldsFunc(k, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	if len(parts) == 0 {
		return k
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(parts[0]))
	for _, p := range parts[1:] {
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

// jsonWalker reads JSON tokens and knows each token's byte span. Every
// field it builds is paid from the decode's budget first: a header array of
// four million zeros is four million fields.
type jsonWalker struct {
	dec  *json.Decoder
	raw  []byte
	base int64
	b    *budget.Budget
}

func (w *jsonWalker) next() (json.Token, model.Span, error) {
	p := w.dec.InputOffset()
	tok, err := w.dec.Token()
	end := w.dec.InputOffset()
	for p < end && p < int64(len(w.raw)) && strings.IndexByte(" \t\r\n:,", w.raw[p]) >= 0 {
		p++
	}
	return tok, model.Span{Off: w.base + p, Len: end - p}, err
}

// value reads the value starting with tok into a field (objects and arrays
// become groups).
func (w *jsonWalker) value(key, label string, tok json.Token, sp model.Span, depth int) (model.Field, error) {
	f := model.Field{Key: key, Label: label, Span: sp}
	if depth > 32 {
		return f, fmt.Errorf("nested deeper than 32 levels")
	}
	switch t := tok.(type) {
	case json.Delim:
		closing := json.Delim('}')
		if t == '[' {
			closing = ']'
		}
		for i := 0; ; i++ {
			tk, s2, err := w.next()
			if err != nil {
				return f, err
			}
			if d, ok := tk.(json.Delim); ok && d == closing {
				f.Span.Len = s2.End() - f.Span.Off
				return f, nil
			}
			var child model.Field
			if t == '{' {
				k, _ := tk.(string)
				vt, vs, err := w.next()
				if err != nil {
					return f, err
				}
				child, err = w.value(camel(k), k, vt, vs, depth+1)
				if err != nil {
					return f, err
				}
				child.Span = model.Span{Off: s2.Off, Len: child.Span.End() - s2.Off}
			} else {
				child, err = w.value(strconv.Itoa(i), fmt.Sprintf("[%d]", i), tk, s2, depth+1)
				if err != nil {
					return f, err
				}
			}
			grown, err := budget.Grow(w.b, "header fields", f.Fields, 1)
			if err == nil {
				err = w.b.Alloc("header fields", int64(len(child.Key)+len(child.Label)))
			}
			if err != nil {
				return f, err
			}
			f.Fields = append(grown, child)
		}
	case string:
		f.Value = t
	case json.Number:
		if n, err := t.Int64(); err == nil {
			f.Value = n
		} else if x, err := t.Float64(); err == nil {
			f.Value = x
		} else {
			f.Value = t.String()
		}
	case bool:
		f.Value = t
	case nil:
	}
	return f, nil
}

// parseHeader reads the JSON header at file offset base.
func (d *decoder) parseHeader(js []byte, base int64) {
	d.headerUUIDs = map[uuid]string{}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	w := &jsonWalker{dec: dec, raw: js, base: base, b: d.b}
	bad := func(err error) {
		off := base + dec.InputOffset()
		if errors.As(err, new(*model.BudgetError)) {
			d.paid(err, off)
			return
		}
		d.diag(model.Error, off, 0, "JSON header", "the header is not valid JSON: "+err.Error()+"; keys before this point are kept", "JSON", "")
	}
	tok, _, err := w.next()
	if err != nil {
		bad(err)
		return
	}
	if dl, ok := tok.(json.Delim); !ok || dl != '{' {
		d.diag(model.Error, base, int64(len(js)), "JSON header", "the header is not a JSON object", "{", fmt.Sprint(tok))
		return
	}
	for {
		kt, ks, err := w.next()
		if err != nil {
			if err != io.EOF {
				bad(err)
			}
			return
		}
		if dl, ok := kt.(json.Delim); ok && dl == '}' {
			break
		}
		key, _ := kt.(string)
		vt, vs, err := w.next()
		if err != nil {
			bad(err)
			return
		}
		label := headerLabels[key]
		if label == "" {
			label = key
		}
		f, err := w.value(camel(key), label, vt, vs, 0)
		f.Span = model.Span{Off: ks.Off, Len: f.Span.End() - ks.Off}
		d.headerField(key, &f)
		d.r.Header = append(d.r.Header, f)
		if err != nil {
			bad(err)
			return
		}
	}
	if rest := bytes.TrimSpace(js[dec.InputOffset():]); len(rest) > 0 {
		d.diag(model.Warning, base+dec.InputOffset(), int64(len(rest)), "JSON header", "bytes after the JSON object", "NUL", fmt.Sprintf("%d bytes", len(rest)))
	}
	d.checkVersion()
}

// headerField interprets the values DDNet writes as strings.
func (d *decoder) headerField(key string, f *model.Field) {
	s, isStr := f.Value.(string)
	switch key {
	case "version":
		if isStr {
			d.r.Version = s
		}
	case "version_minor":
		if isStr && d.r.Version != "" {
			d.r.Version += "." + s
		}
	case "start_time":
		if !isStr {
			break
		}
		for _, layout := range []string{"2006-01-02T15:04:05-0700", time.RFC3339, "2006-01-02 15:04:05"} {
			if t, err := time.Parse(layout, s); err == nil {
				f.Value, f.Name = t, s
				d.r.Start = t
				return
			}
		}
		d.diag(model.Warning, f.Span.Off, f.Span.Len, "start_time", "cannot read the start time", "YYYY-MM-DDTHH:MM:SS+ZZZZ", s)
	case "server_port", "map_size":
		if n, err := strconv.ParseInt(s, 10, 64); isStr && err == nil {
			f.Value = n
		}
	case "map_crc":
		if n, err := strconv.ParseUint(s, 16, 32); isStr && err == nil {
			f.Value, f.Name = n, s
		}
	case "map_name":
		d.r.Title = s
		d.mapName = s
	case "game_type":
		d.r.Mode = s
	case "prng_description":
		if isStr {
			if i := strings.IndexByte(s, ':'); i > 0 {
				f.Name = s[:i] + " (state " + s[i+1:] + ")"
			}
		}
	case "tuning":
		// tunings are fixed point, hundredths
		for i := range f.Fields {
			c := &f.Fields[i]
			if v, ok := c.Value.(string); ok {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					c.Value, c.Name = n, strconv.FormatFloat(float64(n)/100, 'f', -1, 64)
				}
			}
		}
	case "uuids":
		for i := range f.Fields {
			c := &f.Fields[i]
			name, ok := c.Value.(string)
			if !ok {
				continue
			}
			u := uuidOf(name)
			d.headerUUIDs[u] = name
			c.Key, c.Label, c.Value, c.Name = "extension", name, u.String(), name
		}
	}
}

func (d *decoder) checkVersion() {
	v, ok := model.Find(d.r.Header, "version")
	if !ok {
		d.diag(model.Warning, 16, 0, "JSON header", "no version key", `"version": "1" or "2"`, "none")
		return
	}
	if s, _ := v.Value.(string); s != "1" && s != "2" {
		d.diag(model.Warning, v.Span.Off, v.Span.Len, "version", "unknown teehistorian version; reading it as version 2", `"1" or "2"`, fmt.Sprint(v.Value))
	}
}
