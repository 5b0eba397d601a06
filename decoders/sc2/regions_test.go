package sc2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/model"
)

// TestRegions: the archive's structure is listed in file order, every
// sector is linked to the member it decompresses to and those links cover
// each member that read, and the tables are found where the header says.
func TestRegions(t *testing.T) {
	for _, p := range samples(t) {
		name := filepath.Base(p)
		data, _ := os.ReadFile(p)
		d, err := decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := d.r
		if len(r.Regions) == 0 {
			t.Errorf("%s: no regions", name)
			continue
		}
		for i := 1; i < len(r.Regions); i++ {
			if r.Regions[i].Span.Off < r.Regions[i-1].Span.Off {
				t.Errorf("%s: region %d before region %d", name, i, i-1)
			}
		}
		if strings.HasPrefix(name, "broken") {
			// its tables are cut off: the user data and the archive
			// header are all there is
			if g := r.RegionAt("", d.arc.Offset); g < 0 || r.Regions[g].Kind != "archive header" {
				t.Errorf("%s: no archive header region", name)
			}
			continue
		}
		if g := r.RegionAt("", d.arc.HashTableAt); g < 0 || r.Regions[g].Kind != "hash table" {
			t.Errorf("%s: hash table not found at %#x", name, d.arc.HashTableAt)
		}
		if g := r.RegionAt("", d.arc.BlockTableAt); g < 0 || r.Regions[g].Kind != "block table" {
			t.Errorf("%s: block table not found at %#x", name, d.arc.BlockTableAt)
		}
		covered := map[string]int64{}
		for _, g := range r.Regions {
			if g.Kind == "sector" && g.Link.Stream != "" {
				covered[g.Link.Stream] += g.Link.Len
				if g.Label == "" || len(g.Fields) == 0 {
					t.Errorf("%s: sector %q without a label or fields", name, g.Label)
				}
			}
		}
		for _, m := range []string{fDetails, fGame, fTracker} {
			b, err := d.st.get(m)
			if err != nil || len(b) == 0 {
				continue
			}
			if covered[m] != int64(len(b)) {
				t.Errorf("%s: %s's sectors hold %d bytes, the member has %d", name, m, covered[m], len(b))
			}
			// o goes from the member's first byte to its sector and back
			g := r.RegionAt(m, 0)
			if g < 0 {
				t.Errorf("%s: no region holds %s+0", name, m)
				continue
			}
			to := r.Regions[g].Across(m, 0)
			if back := r.RegionAt(to.Stream, to.Off); back != g {
				t.Errorf("%s: %s+0 -> %+v -> region %d, want %d", name, m, to, back, g)
			}
		}
	}
}

// TestRegionsOfDamage: the region that holds a broken sector's offset is
// that sector, so the problem and the structure meet in the file's bytes.
func TestRegionsOfDamage(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(samples(t)[0]), "lotv-5.0.15-winter-madness.SC2Replay"))
	bad := append([]byte(nil), data...)
	for i := 80000; i < 80008; i++ {
		bad[i] ^= 0xA5
	}
	r, err := Decode(bad, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, dg := range r.Diagnostics {
		if dg.Severity != model.Error || dg.Subject != fTracker {
			continue
		}
		found = true
		g := r.RegionAt("", dg.Span.Off)
		if g < 0 || r.Regions[g].Link.Stream != fTracker {
			t.Errorf("the problem at %#x is in no tracker sector (region %d)", dg.Span.Off, g)
		}
	}
	if !found {
		t.Fatalf("no error for the tracker stream: %v", r.Diagnostics)
	}
}
