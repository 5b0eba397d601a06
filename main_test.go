package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestLayers holds the shape DESIGN.md draws: data flows one way, so no
// package imports one above it. main is the only importer of cli (the
// commands); tui, library and the packages under them reach formats only
// through the decoders registry, never a format's own package; model and
// theme import nothing of rewind's but each other's leaves.
func TestLayers(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		imports[p.ImportPath] = p.Imports
	}
	// a format package is one the registry lists that declares a format
	var formats []string
	for _, p := range imports["rewind/decoders"] {
		if slices.Contains(imports[p], "rewind/decoders/format") {
			formats = append(formats, p)
		}
	}
	if len(formats) < 6 {
		t.Fatalf("found %d format packages under the registry (%v); want the six", len(formats), formats)
	}
	isFormat := func(p string) bool {
		for _, f := range formats {
			if p == f || strings.HasPrefix(p, f+"/") {
				return true
			}
		}
		return false
	}
	under := func(p, top string) bool { return p == top || strings.HasPrefix(p, top+"/") }
	for pkg, imps := range imports {
		for _, imp := range imps {
			switch {
			case imp == "rewind/cli" && pkg != "rewind":
				t.Errorf("%s imports the commands (rewind/cli); only main does", pkg)
			case (under(pkg, "rewind/tui") || under(pkg, "rewind/library")) && isFormat(imp):
				t.Errorf("%s imports the format package %s; it should ask the decoders registry", pkg, imp)
			case (pkg == "rewind/model" || pkg == "rewind/theme") && strings.HasPrefix(imp, "rewind/") && imp != "rewind/model" && imp != "rewind/theme":
				t.Errorf("%s imports %s; model and theme sit below everything", pkg, imp)
			case under(pkg, "rewind/library") && under(imp, "rewind/tui"):
				t.Errorf("%s imports %s; the TUI draws what library computes, not the reverse", pkg, imp)
			case under(pkg, "rewind/decoders") && (under(imp, "rewind/library") || under(imp, "rewind/tui")):
				t.Errorf("%s imports %s; decoders sit below the library and the TUI", pkg, imp)
			}
		}
	}
}
