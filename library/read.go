package library

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"rewind/decoders"
	"rewind/decoders/mapped"
	"rewind/decoders/pack"
	"rewind/model"
)

// ReadHeader reads one walked file header-only.
//
// A file on disk is mapped into memory rather than read: a decoder's
// header-only pass touches only the bytes it needs (a Slippi file's Event
// Payloads and Game Start at the front and Game End and metadata at the
// back; a BSOR file's info section and one frame; the MPQ header, tables
// and three small members of an SC2 archive), so only those pages come off
// the disk. Nothing format-specific lives here: each decoder's HeaderOnly
// path defines the byte ranges, and a sixth format gets ranged reads for
// free. Where mapping is unavailable (another OS, a file that shrinks while
// it is read) the file is read whole instead.
func ReadHeader(e Entry) Header { return readEntry(e, false) }

// readEntry reads a walked file header-only, or with full in full (the
// check and the summary too).
func readEntry(e Entry, full bool) Header {
	h := entryHeader(e)
	if e.Kind != File {
		return h
	}
	failed := func(err string) Header {
		h.Err = err
		if full {
			h.Check, h.Summary = &Check{Err: h.Err}, &Summary{Err: h.Err}
		}
		return h
	}
	if e.Packed {
		readPacked(e, &h, full)
		return h
	}
	if e.FS != nil {
		data, err := fs.ReadFile(e.FS, e.Path)
		if err != nil {
			return failed(pathError(e.Path, err).Error())
		}
		h.Size = int64(len(data))
		decodeHeader(&h, data, full)
		return h
	}
	var got Header
	size, mtime, err := mapped.With(e.Path, full, func(data []byte) {
		got = h
		got.Size = int64(len(data))
		decodeHeader(&got, data, full)
	})
	if err != nil {
		if _, _, packed := pack.Split(e.Path); packed {
			// a member of a pack the entry did not say was one (a row of
			// the index handed to the checker)
			readPacked(e, &h, full)
			return h
		}
		h.Kind = Unreadable
		return failed(pathError(e.Path, err).Error())
	}
	// the freshness key is the file's as it was read
	got.Size, got.ModTime = size, mtime
	return got
}

// entryHeader is what the walk already knows of an entry; for one that is
// no file to read, why.
func entryHeader(e Entry) Header {
	h := Header{Path: e.Path, Kind: e.Kind, Size: e.Size, ModTime: e.ModTime}
	switch {
	case e.Kind == File:
	case e.Err != nil:
		h.Err = e.Err.Error()
	default:
		h.Err = e.Path + ": not a regular file"
	}
	return h
}

// decodeHeader fills h from a header-only decode of data, or with full
// from a whole decode, which also gives the check. It copies what it keeps,
// so data may be unmapped afterwards. A decoder that panics costs this one
// file, not the scan.
func decodeHeader(h *Header, data []byte, full bool) {
	defer func() {
		if p := recover(); p != nil {
			if _, fault := p.(interface{ Addr() uintptr }); fault {
				panic(p) // a fault on mapped memory: mapped() falls back to a full read
			}
			h.Err = fmt.Sprintf("%s: decoder failed: %v", h.Path, p)
			if full {
				h.Check = &Check{Err: h.Err}
				h.Summary = &Summary{Err: h.Err}
			}
		}
	}()
	f, err := decoders.Detect(data, h.Path)
	if err != nil {
		h.Err, h.NotReplay = notReplay(err), true
		if full {
			h.Check = &Check{Err: h.Err}
			h.Summary = &Summary{Err: h.Err}
		}
		return
	}
	h.Format, h.FormatName = f.ID, f.Name
	// a full decode here is a check: every byte read, no event list kept
	r, err := decoders.Decode(data, h.Path, model.DecodeOptions{HeaderOnly: !full, NoEvents: full})
	if full {
		h.Check = checkOf(r, err)
		h.Summary = summaryOf(r, err)
	}
	if r == nil {
		if err == nil {
			err = errors.New("nothing decoded")
		}
		h.Err = err.Error()
		return
	}
	fromReplay(h, r)
}

// notReplay shortens Describe's sentence to what the file is: the row
// already shows the name.
func notReplay(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); strings.HasPrefix(s, "not a replay") && i > 0 {
		return "not a replay: " + s[i+2:]
	}
	return s
}

// ReadFull reads one walked file and decodes it in full: the header as
// the whole decode gives it (a BSOR file's frame count and rate, which its
// header read cannot know), the check and the summary, all from the one
// decode. A large file is mapped rather than copied (a full decode still
// touches every page).
func ReadFull(e Entry) Header { return readEntry(e, true) }

// CheckFile decodes a walked file in full and says what is wrong with it.
func CheckFile(e Entry) *Check { return ReadFull(e).Check }

// CheckReplay summarises a replay decoded in full elsewhere (the replay
// view opened it) so the browser and the index can keep the result;
// SummaryOf makes its summary.
func CheckReplay(r *model.Replay, err error) *Check { return checkOf(r, err) }
