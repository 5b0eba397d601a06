package model

import "fmt"

// CutOff shapes the fields of a record that the end of the data cut
// through, for a partial event (FlagPartial): fields whose bytes are all
// before end stay as they are; the field end cuts through stays with its
// label saying how much of it is there and without a value (the rest of
// its bytes do not exist); fields after it, and fields with no bytes of
// their own (values computed from the whole record), go; a last field,
// "cutOff", says where the bytes stopped. have and size are how much of
// the record is there and how much a whole one has, in unit ("bytes", or
// "bits" for a bit-packed record). fields were decoded from
// the record padded to its size, so their spans are where a whole
// record's would be.
func CutOff(fields []Field, end int64, have, size int, unit string) []Field {
	out := cutFields(fields, end)
	return append(out, Field{Key: "cutOff", Label: "Cut off",
		Value: fmt.Sprintf("after %d of %d %s: the data ends here", have, size, unit),
		Span:  Span{Off: end, Len: 0}})
}

func cutFields(fields []Field, end int64) []Field {
	var out []Field
	for _, f := range fields {
		s := f.Span
		switch {
		case s.Len == 0 || s.Off >= end:
			continue
		case s.End() <= end:
			out = append(out, f)
		default:
			// the field the end cuts through
			f.Label = fmt.Sprintf("%s (cut off: %d of %d bytes)", f.Label, end-s.Off, s.Len)
			f.Value, f.Name, f.Span.Len = nil, "", end-s.Off
			f.Fields = cutFields(f.Fields, end)
			out = append(out, f)
		}
	}
	return out
}
