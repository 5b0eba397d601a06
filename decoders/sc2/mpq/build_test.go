package mpq

import (
	"bytes"
	"fmt"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// TestWriteReadsBack: what Write makes opens without a warning, every
// member reads back byte for byte, the list file names them in order, and
// the user data is the one given.
func TestWriteReadsBack(t *testing.T) {
	big := bytes.Repeat([]byte("replay.game.events "), 5000) // several sectors
	members := []Member{
		{Name: "replay.details", Data: []byte("details")},
		{Name: "replay.game.events", Data: big},
		{Name: "replay.empty"},
		{Name: "tiny", Data: []byte("t"), Stored: true},
		{Name: "(listfile)", Data: []byte("ignored: Write writes its own")},
	}
	for _, shift := range []uint16{3, 4} {
		t.Run(fmt.Sprint("shift ", shift), func(t *testing.T) {
			out := Write([]byte("user data"), shift, members)
			a, err := Open(out, budget.New(int64(len(out)), model.Limits{}))
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Warnings) > 0 {
				t.Errorf("warnings: %v", a.Warnings)
			}
			if a.UserData == nil || string(a.UserData.Content) != "user data" {
				t.Errorf("user data = %+v", a.UserData)
			}
			if a.Header.FormatVersion != 1 || a.Header.SectorSizeShift != shift {
				t.Errorf("header = %+v", a.Header)
			}
			for _, m := range members[:4] {
				got, err := a.ReadFile(m.Name)
				if err != nil || !bytes.Equal(got, m.Data) {
					t.Errorf("%s: %d bytes, %v; want %d bytes", m.Name, len(got), err, len(m.Data))
				}
			}
			names, err := a.Files()
			if err != nil || fmt.Sprint(names) != "[replay.details replay.game.events replay.empty tiny]" {
				t.Errorf("list file: %q, %v", names, err)
			}
		})
	}
}
