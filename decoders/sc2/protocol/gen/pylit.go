package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The tables are Python source. Only their literals are read: the
// assignments at the top level whose value is a list, tuple, dict, integer,
// string or None. Code (def, from ... import) is skipped, never run.

// pair is one entry of a dict literal, in source order.
type pair struct{ key, val any }

// dict is a dict literal.
type dict []pair

// literals returns the top-level "name = literal" assignments of a file.
func literals(src string, want map[string]bool) (map[string]any, error) {
	out := map[string]any{}
	lines := strings.SplitAfter(src, "\n")
	at := 0 // byte offset of the current line
	for _, line := range lines {
		start := at
		at += len(line)
		name, _, ok := strings.Cut(line, " = ")
		if !ok || !want[name] {
			continue
		}
		p := &parser{src: src, pos: start + len(name) + 3}
		v, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out[name] = v
	}
	return out, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + strings.Count(p.src[:p.pos], "\n")
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// skip passes spaces, newlines and comments.
func (p *parser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *parser) peek() byte {
	p.skip()
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) value() (any, error) {
	switch c := p.peek(); {
	case c == '[' || c == '(':
		closing := byte(']')
		if c == '(' {
			closing = ')'
		}
		p.pos++
		var items []any
		for {
			if p.peek() == closing {
				p.pos++
				return items, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			items = append(items, v)
			if p.peek() == ',' {
				p.pos++
			} else if p.peek() != closing {
				return nil, p.errorf("expected , or %c", closing)
			}
		}
	case c == '{':
		p.pos++
		var d dict
		for {
			if p.peek() == '}' {
				p.pos++
				return d, nil
			}
			k, err := p.value()
			if err != nil {
				return nil, err
			}
			if p.peek() != ':' {
				return nil, p.errorf("expected : in a dict")
			}
			p.pos++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			d = append(d, pair{k, v})
			if p.peek() == ',' {
				p.pos++
			} else if p.peek() != '}' {
				return nil, p.errorf("expected , or }")
			}
		}
	case c == '\'' || c == '"':
		p.pos++
		var sb strings.Builder
		for p.pos < len(p.src) && p.src[p.pos] != c {
			if p.src[p.pos] == '\\' && p.pos+1 < len(p.src) {
				p.pos++
			}
			sb.WriteByte(p.src[p.pos])
			p.pos++
		}
		if p.pos >= len(p.src) {
			return nil, p.errorf("string not closed")
		}
		p.pos++
		return sb.String(), nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		p.pos++
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		n, err := strconv.ParseInt(p.src[start:p.pos], 10, 64)
		if err != nil {
			return nil, p.errorf("%v", err)
		}
		return n, nil
	case strings.HasPrefix(p.src[p.pos:], "None"):
		p.pos += 4
		return nil, nil
	case strings.HasPrefix(p.src[p.pos:], "True"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(p.src[p.pos:], "False"):
		p.pos += 5
		return false, nil
	}
	return nil, p.errorf("unexpected %q", p.src[p.pos:min(len(p.src), p.pos+10)])
}
