package names

import (
	"testing"

	"rewind/decoders/sc2/internal/gendata"
)

// TestGeneratedNamesAreCurrent: names.txt is what gen writes from
// specs/ids/sc2.
func TestGeneratedNamesAreCurrent(t *testing.T) {
	gendata.CheckCurrent(t, namesText, "ids", "sc2")
}
