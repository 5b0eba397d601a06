// Command testsummary reads `go test -json` on stdin and prints what
// `go test` prints (a line per package, the output of what failed), plus
// what plain `go test` hides for passing packages: how many tests skipped
// for lack of the shared corpus (../shared), and which tests passed while
// every one of their subtests skipped. It exits 1 when anything failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// notFound is corpus.NotFound: the message every test that needs the
// shared corpus skips with.
const notFound = "shared corpus not found"

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type test struct {
	action string
	output strings.Builder
}

type pkg struct {
	name    string
	action  string
	elapsed float64
	output  strings.Builder // package-level output (build errors, panics)
	tests   map[string]*test
	order   []string
}

func main() {
	pkgs := map[string]*pkg{}
	var order []string
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var e event
		if err := json.Unmarshal(in.Bytes(), &e); err != nil {
			fmt.Println(in.Text()) // not an event: pass it through
			continue
		}
		p := pkgs[e.Package]
		if p == nil {
			p = &pkg{name: e.Package, tests: map[string]*test{}}
			pkgs[e.Package] = p
			order = append(order, e.Package)
		}
		if e.Test == "" {
			switch e.Action {
			case "output", "build-output":
				p.output.WriteString(e.Output)
			case "pass", "fail", "skip":
				p.action, p.elapsed = e.Action, e.Elapsed
			}
			continue
		}
		t := p.tests[e.Test]
		if t == nil {
			t = &test{}
			p.tests[e.Test] = t
			p.order = append(p.order, e.Test)
		}
		switch e.Action {
		case "output":
			t.output.WriteString(e.Output)
		case "pass", "fail", "skip":
			t.action = e.Action
		}
	}
	failed, corpusSkips := false, 0
	var hollow, corpusPkgs []string
	for _, name := range order {
		p := pkgs[name]
		n, skipped, noCorpus := 0, 0, 0
		for _, tn := range p.order {
			t := p.tests[tn]
			n++
			switch t.action {
			case "fail":
				failed = true
				fmt.Printf("--- FAIL: %s (%s)\n%s", tn, name, t.output.String())
			case "skip":
				skipped++
				if strings.Contains(t.output.String(), notFound) {
					noCorpus++
				}
			case "pass":
				if subs := subtests(p, tn); len(subs) > 0 && allSkipped(p, subs) {
					hollow = append(hollow, name+" "+tn)
				}
			}
		}
		switch p.action {
		case "fail":
			failed = true
			fmt.Print(p.output.String())
			fmt.Printf("FAIL\t%s\t%.3fs\n", name, p.elapsed)
		case "skip":
			fmt.Printf("?   \t%s\t[no test files]\n", name)
		default:
			note := fmt.Sprintf("%d tests", n)
			if skipped > 0 {
				note += fmt.Sprintf(", %d skipped", skipped)
			}
			if noCorpus > 0 {
				note += fmt.Sprintf(" (%d for lack of the shared corpus)", noCorpus)
				corpusPkgs = append(corpusPkgs, name)
			}
			fmt.Printf("ok  \t%s\t%.3fs\t%s\n", name, p.elapsed, note)
		}
		corpusSkips += noCorpus
	}
	if corpusSkips > 0 {
		fmt.Printf("%d tests skipped for lack of the shared corpus (../shared/corpus), in %s\n", corpusSkips, strings.Join(corpusPkgs, ", "))
	}
	if len(hollow) > 0 {
		sort.Strings(hollow)
		fmt.Printf("tests that passed with every subtest skipped (they check nothing here): %s\n", strings.Join(hollow, ", "))
	}
	if failed {
		os.Exit(1)
	}
}

// subtests are the direct subtests of tn.
func subtests(p *pkg, tn string) []string {
	var out []string
	for _, s := range p.order {
		if rest, ok := strings.CutPrefix(s, tn+"/"); ok && !strings.Contains(rest, "/") {
			out = append(out, s)
		}
	}
	return out
}

func allSkipped(p *pkg, subs []string) bool {
	for _, s := range subs {
		if p.tests[s].action != "skip" {
			return false
		}
	}
	return true
}
