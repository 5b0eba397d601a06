package cli

import (
	"errors"
	"io/fs"

	"rewind/decoders"
	"rewind/library"
	"rewind/model"
)

// input is one path a command was asked to read: a file to decode, or a
// path that cannot be decoded, with the reason.
type input struct {
	Name    string // as the person named it; samples/... for the built-in library
	Size    int64  // bytes, from the file system; -1 when unknown
	Err     error  // why the path cannot be read (unreadable or skipped)
	Skipped bool   // a device, FIFO or socket met in a folder: listed, never opened
	Named   bool   // named on the command line, not found in a folder
	fsys    fs.FS  // the sample library; nil for the operating system's files
	path    string // the path inside fsys
}

// collect turns command-line paths into inputs with library.Walk: files
// named are taken as they are, folders are walked (symlinks followed, loops
// reported) for files with a replay's extension or magic bytes, and every
// path that cannot be read becomes an input with its Err, so one bad path
// never hides the others. No path means the built-in samples. found, when
// set, is called with the count so far, for a progress line.
func collect(paths []string, found func(n int)) []input {
	var out []input
	eachInput(paths, func(in input) bool {
		out = append(out, in)
		if found != nil {
			found(len(out))
		}
		return true
	})
	return out
}

// eachInput is collect without the list: fn gets each input as the walk
// finds it, so a million paths cost no memory; it returns false to stop.
func eachInput(paths []string, fn func(input) bool) {
	add := func(e library.Entry) bool {
		in := input{Name: e.Path, Size: e.Size, Err: e.Err, Skipped: e.Kind == library.Skipped, Named: e.Named, fsys: e.FS, path: e.Path}
		if e.Kind == library.Unreadable && e.Size == 0 {
			in.Size = -1
		}
		return fn(in)
	}
	if len(paths) == 0 {
		library.WalkFS(samplesFS, "samples", add)
	} else {
		library.Walk(paths, add)
	}
}

// decodeInput decodes one input. Files on disk go through decoders.Open,
// which reads only regular files and only as much as the replay needs.
func decodeInput(in input, opt model.DecodeOptions) (*model.Replay, error) {
	if in.Err != nil {
		return nil, in.Err
	}
	if in.fsys == nil {
		r, err := decoders.Open(in.Name, opt)
		if r != nil {
			r.Path = in.Name
		}
		return r, err
	}
	data, err := fs.ReadFile(in.fsys, in.path)
	if err != nil {
		return nil, err
	}
	r, err := decoders.Decode(data, in.Name, opt)
	if r != nil {
		r.Path = in.Name
	}
	return r, err
}

// How a path failed to give a replay.
const (
	failRead      = "read"      // the path could not be read: missing, permission, a device, a loop
	failNotReplay = "notReplay" // read, but no format claims the bytes
	failRefused   = "refused"   // its format's decoder refused it
)

// failure says how err kept a replay from coming out of a path, and the
// format when a decoder recognised the file.
func failure(err error) (string, model.Format) {
	var nr *decoders.NotReplayError
	var de *decoders.Error
	switch {
	case errors.As(err, &de):
		return failRefused, de.Format
	case errors.As(err, &nr):
		return failNotReplay, ""
	}
	return failRead, ""
}

// stray reports whether err, the decode of in, makes in a stray file: one
// found in a folder that gives no replay (no format claims it, or its
// format's decoder refuses it), which commands that summarise replays pass
// over with a note. A file named on the command line is never stray, and
// a path that cannot be read is unreadable, not stray.
func (in input) stray(err error) bool {
	if err == nil || in.Named || in.Skipped || in.Err != nil {
		return false
	}
	how, _ := failure(err)
	return how != failRead
}
