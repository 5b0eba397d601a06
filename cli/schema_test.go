package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The JSON Schemas in testdata/schema document what scripts read: info and
// find, stats, stats --by, moments and dump. This test holds real outputs
// of every format to them, so a change of shape shows up here first.
func TestJSONSchemas(t *testing.T) {
	c := jsonschema.NewCompiler()
	files, _ := filepath.Glob("testdata/schema/*.schema.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := c.AddResource("https://rewind.invalid/schema/"+filepath.Base(f), doc); err != nil {
			t.Fatal(err)
		}
	}
	schema := func(name string) *jsonschema.Schema {
		s, err := c.Compile("https://rewind.invalid/schema/" + name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	check := func(name, what string, out string, min int) {
		t.Helper()
		s := schema(name)
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err != nil {
				t.Fatalf("%s: not JSON: %v: %.200s", what, err, line)
			}
			if err := s.Validate(v); err != nil {
				t.Errorf("%s does not fit %s: %v\n%.600s", what, name, err, line)
			}
			n++
		}
		if n < min {
			t.Errorf("%s: %d objects, want at least %d", what, n, min)
		}
	}
	samples := "testdata/samples"
	check("info.schema.json", "info --json", rewind(t, "info", "--json", samples).stdout, 20)
	check("info.schema.json", "info --json --check", rewind(t, "info", "--json", "--check", samples).stdout, 20)
	check("info.schema.json", "find --json", rewind(t, "find", "--json", samples, "len:>0s").stdout, 10)
	check("stats.schema.json", "stats --json", rewind(t, "stats", "--json", samples).stdout, 20)
	for _, by := range []string{"character", "player,month", "matchup", "format,stage", "session"} {
		check("stats-by.schema.json", "stats --by "+by, rewind(t, "stats", "--json", "--by", by, samples).stdout, 2)
	}
	check("moments.schema.json", "moments --json", rewind(t, "moments", "--json", samples, "").stdout, 50)
	dumped := 0
	filepath.WalkDir(samples, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".tsv") || strings.HasSuffix(p, ".md") {
			return nil
		}
		r := rewind(t, "dump", "--frames", "..40", p)
		if r.code == 2 {
			return nil // a sample that is no replay
		}
		check("dump.schema.json", "dump "+p, r.stdout, 2)
		dumped++
		return nil
	})
	if dumped < 20 {
		t.Errorf("dumped %d samples", dumped)
	}
	// every format's stats object is held to its own part of the schema
	var st map[string]any
	data, _ := os.ReadFile("testdata/schema/stats.schema.json")
	json.Unmarshal(data, &st)
	if n := len(st["allOf"].([]any)); n < 6 {
		t.Errorf("stats.schema.json describes %d formats", n)
	}
}
