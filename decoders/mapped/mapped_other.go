//go:build !linux

package mapped

import (
	"io"
	"time"

	"rewind/decoders"
)

// With opens a regular file and calls fn with its bytes, which fn must not
// keep. Here the file is read whole; Linux maps large files.
func With(path string, whole bool, fn func(data []byte)) (size int64, mtime time.Time, err error) {
	f, err := decoders.OpenRegular(path)
	if err != nil {
		return 0, time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, time.Time{}, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return st.Size(), st.ModTime(), err
	}
	fn(data)
	return int64(len(data)), st.ModTime(), nil
}
