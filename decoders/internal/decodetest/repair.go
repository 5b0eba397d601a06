package decodetest

import (
	"fmt"
	"strings"
	"testing"

	"rewind/model"
)

// Repaired decodes what a repair wrote and checks what every repaired file
// of every format must be: something was written, it decodes, and it has
// no warning or error. It returns the replay for the format's own checks.
func Repaired(t testing.TB, name string, rep *model.Repaired, decode func([]byte, model.DecodeOptions) (*model.Replay, error)) *model.Replay {
	t.Helper()
	if rep.Whole != "" || rep.Data == nil {
		t.Fatalf("%s: nothing written (whole: %q)", name, rep.Whole)
	}
	r, err := decode(rep.Data, model.DecodeOptions{})
	if err != nil {
		t.Fatalf("%s: repaired file does not decode: %v", name, err)
	}
	for _, d := range r.Diagnostics {
		if d.Severity >= model.Warning {
			t.Errorf("%s: repaired file has a problem: %s", name, d)
		}
	}
	return r
}

// Steps is a repair's report as lines, for failure messages.
func Steps(rep *model.Repaired) string {
	var b strings.Builder
	for _, s := range rep.Steps {
		fmt.Fprintf(&b, "%s: %s\n", s.Action, s.Text)
	}
	return b.String()
}
