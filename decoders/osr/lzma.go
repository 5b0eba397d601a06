package osr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/ulikunitz/xz/lzma"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// member is one int32-length block of the file that holds LZMA data in
// the "LZMA alone" layout: 5 property bytes, an 8-byte uncompressed size
// (-1 when the writer left it unknown), then the stream.
type member struct {
	what     string // "frames", "score info"
	stream   string // the inner stream its text becomes
	lenOff   int    // where its int32 length is
	declared int32  // the length field
	off, n   int    // its bytes in the file: [off, off+n), cut to the file
	short    bool   // the file ends before the declared length
	null     bool   // length -1: no data (osu!'s null byte array)

	header  bool   // the 13-byte LZMA header is there
	props   byte   // lc, lp, pb packed as the format packs them
	dict    uint32 // dictionary size
	size    int64  // uncompressed size the header declares; -1 unknown
	plain   bool   // the bytes are the text itself, not LZMA
	text    []byte // what it decompressed to (the inner stream)
	used    int    // compressed bytes the decoder read
	err     string // why decompression stopped early; empty when it did not
	errOff  int    // the file offset it stopped at
	budget  bool   // the budget stopped it
	present bool   // the length field was read
}

// lzmaHeaderLen is the props byte, the dictionary size and the size.
const lzmaHeaderLen = 13

// readMember reads a member's int32 length and bounds its bytes; the
// decompression is inflate's.
func (d *decoder) readMember(m *member) bool {
	m.lenOff = d.pos
	if len(d.data)-d.pos < 4 {
		d.cut(d.pos, 4, m.what, "the "+m.what+" block's length")
		return false
	}
	m.present = true
	m.declared = int32(le32(d.data[d.pos:]))
	d.pos += 4
	m.off = d.pos
	switch {
	case m.declared == -1:
		// osu!'s byte arrays write -1 for null: no data at all
		m.null = true
		return true
	case m.declared < 0:
		d.diag(model.Error, at(m.lenOff, 4), m.what, "the "+m.what+" block's length is negative; nothing after it can be located",
			"a length >= 0 (or -1 for none)", fmt.Sprint(m.declared))
		return false
	}
	m.n = int(m.declared)
	if m.n > len(d.data)-d.pos {
		m.n = len(d.data) - d.pos
		m.short = true
		d.diag(model.Error, at(m.lenOff, 4), m.what,
			fmt.Sprintf("the %s block runs past the end of the file: %d of its %d bytes are there; what they decompress to is kept", m.what, m.n, m.declared),
			fmt.Sprintf("%d bytes", m.declared), fmt.Sprintf("%d bytes", m.n))
	}
	d.pos += m.n
	return true
}

// looksPlain reports whether a member's bytes are its text stored as is,
// as some test writers store them: the frames' characters with a '|', or
// a JSON object. A real LZMA header's dictionary size is never text.
func looksPlain(b []byte, json bool) bool {
	if len(b) == 0 {
		return false
	}
	if json {
		t := bytes.TrimSpace(b)
		return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
	}
	head := b[:min(len(b), 64)]
	if bytes.IndexByte(head, '|') < 0 {
		return false
	}
	for _, c := range head {
		if !(c >= '0' && c <= '9' || c == '|' || c == ',' || c == '.' || c == '-' || c == 'E' || c == 'e' || c == '+') {
			return false
		}
	}
	return true
}

// inflate decompresses a member into its text. The dictionary and the
// text are paid from the budget before they are made (a declared size the
// budget cannot pay is refused before any byte is decoded, and a stream of
// unknown size stops where the budget does: an LZMA bomb is an error, not
// the machine's memory); a stream that ends early or breaks keeps the text
// before, with where it stopped.
func (d *decoder) inflate(m *member, json bool) {
	if m.null || m.n == 0 {
		return
	}
	b := d.data[m.off : m.off+m.n]
	if looksPlain(b, json) {
		m.plain = true
		m.text = b
		return
	}
	if len(b) < lzmaHeaderLen {
		m.err = fmt.Sprintf("the LZMA header is cut off after %d of its 13 bytes", len(b))
		m.errOff = m.off + len(b)
		return
	}
	m.header = true
	m.props = b[0]
	m.dict = le32(b[1:])
	m.size = int64(le64(b[5:]))
	if m.props >= 9*5*5 {
		m.err = fmt.Sprintf("LZMA properties byte %#02x is out of range (at most 0xe0)", m.props)
		m.errOff = m.off
		return
	}
	if m.size < -1 {
		m.err = fmt.Sprintf("the LZMA header declares a negative size (%d)", m.size)
		m.errOff = m.off + 5
		return
	}
	// the decoder's dictionary is the smaller of the declared dictionary
	// and the declared size, at least 4 KiB (ulikunitz/xz/lzma's rule)
	dict := int64(m.dict)
	if m.size >= 0 && m.size < dict {
		dict = m.size
	}
	dict = max(dict, lzma.MinDictCap)
	span := at(m.off, lzmaHeaderLen)
	if !d.paid(d.b.Alloc(m.what+": LZMA dictionary", dict), span) {
		m.budget = true
		return
	}
	var text []byte
	if m.size >= 0 {
		// the declared size is a claim: paid before the text is made
		if !d.paid(d.b.Alloc(m.what+": decompressed text (declared size)", m.size), at(m.off+5, 8)) {
			m.budget = true
			return
		}
		text = make([]byte, 0, m.size)
	}
	in := bytes.NewReader(b)
	text, err := decompress(in, text, m.size < 0, func(t []byte, n int) ([]byte, bool) {
		// paid as append grows it: every array the growth leaves behind
		t, err := budget.Grow(d.b, m.what+": decompressed text", t, n)
		return t, d.paid(err, span)
	})
	m.text = text
	m.used = len(b) - in.Len()
	switch {
	case d.over:
		m.budget = true
	case err != nil:
		m.errOff = m.off + m.used
		m.err = lzmaProblem(err, m)
	}
}

// decompress runs the LZMA decoder over in, appending to text. With grow
// (a stream of unknown size) the text grows through more, which pays
// first and says false to stop. The decoder is a library's: a panic in it
// on a hostile stream is taken as the stream's error.
func decompress(in *bytes.Reader, text []byte, grow bool, more func(t []byte, n int) ([]byte, bool)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = text, fmt.Errorf("the LZMA decoder failed: %v", p)
		}
	}()
	// no cap of the library's own: the budget paid for the dictionary
	// already (min: MaxDictCap is 4 GiB, past an int on 32-bit systems)
	r, err := lzma.ReaderConfig{DictCap: min(lzma.MaxDictCap, math.MaxInt)}.NewReader(in)
	if err != nil {
		return text, err
	}
	const step = 64 << 10
	// room makes space for one more byte at least: false when the
	// declared size is reached or the budget says no
	room := func() bool {
		if len(text) < cap(text) {
			return true
		}
		if !grow {
			return false
		}
		t, ok := more(text, step)
		text = t
		return ok && len(text) < cap(text)
	}
	for {
		if !room() {
			if grow {
				return text, nil // the budget stopped it (recorded by pay)
			}
			// all the declared size is there; the decoder checks that
			// the stream ends here
			var one [1]byte
			n, err := r.Read(one[:])
			switch {
			case n > 0:
				return text, errors.New("lzma: more data than the declared size")
			case err == io.EOF:
				return text, nil
			}
			return text, err
		}
		n, err := r.Read(text[len(text):cap(text)])
		text = text[:len(text)+n]
		if err == io.EOF {
			return text, nil
		}
		if err != nil {
			// the decoder may hold decoded bytes it had not handed over
			// when it stopped: drain them a byte at a time
			var one [1]byte
			for room() {
				if k, _ := r.Read(one[:]); k == 0 {
					break
				}
				text = append(text, one[0])
			}
			return text, err
		}
	}
}

// lzmaProblem words a decoder error for people.
func lzmaProblem(err error, m *member) string {
	s := err.Error()
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || m.short:
		s = "the LZMA stream ends before its end"
	case s == "lzma: wrong uncompressed data size":
		s = "the LZMA stream's length disagrees with the size its header declares"
	}
	if m.size >= 0 {
		return fmt.Sprintf("%s: %d of the %d declared text bytes decoded", s, len(m.text), m.size)
	}
	return fmt.Sprintf("%s: %d text bytes decoded", s, len(m.text))
}

// memberDiags reports what stopped a member's decompression, at the
// compressed byte it stopped at and at the end of the text it gave.
func (d *decoder) memberDiags(m *member) {
	if m.plain {
		d.diag(model.Warning, at(m.off, min(m.n, 64)), m.what,
			fmt.Sprintf("the %s block is stored as plain text, not LZMA (a test writer's shortcut); read as it is, but osu! and osrparse refuse it", m.what),
			"an LZMA header", fmt.Sprintf("%q", truncate(m.text, 16)))
	}
	if m.err == "" {
		if m.header && m.size >= 0 && int64(len(m.text)) != m.size && !m.budget {
			d.diag(model.Warning, at(m.off+5, 8), m.what, "the LZMA header's size disagrees with the text decoded",
				fmt.Sprint(m.size), fmt.Sprint(len(m.text)))
		}
		if m.header && m.used < m.n && !m.budget && !m.short {
			d.diag(model.Warning, at(m.off+m.used, m.n-m.used), m.what,
				fmt.Sprintf("%d bytes of the %s block follow the end of its LZMA stream", m.n-m.used, m.what), "", "")
		}
		return
	}
	d.diags = append(d.diags, model.Diagnostic{Severity: model.Error, Source: source,
		Span: at(min(m.errOff, len(d.data)), 0), Frame: -1, Subject: m.what,
		Message: m.err + "; the text before is kept"})
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
