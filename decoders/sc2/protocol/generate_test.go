package protocol

import (
	"testing"

	"rewind/decoders/sc2/internal/gendata"
)

// TestGeneratedTablesAreCurrent: tables.txt is what gen writes from
// specs/sc2-protocols and gen/patches.txt.
func TestGeneratedTablesAreCurrent(t *testing.T) {
	gendata.CheckCurrent(t, tablesText, "sc2-protocols")
}
