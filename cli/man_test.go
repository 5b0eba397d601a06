package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestManPages: rewind man DIR writes a page for rewind and one per
// command, each with the command's synopsis and its exit status.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	r := rewind(t, "man", dir)
	r.want(t, "man", 0, "*")
	if !strings.Contains(r.stderr, "wrote ") {
		t.Errorf("man says %q", r.stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "rewind-check.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`.TH "REWIND" "1"`, ".SH SYNOPSIS", `\fBrewind check [--json] [--quiet] PATH...\fP`, "Exit status: 0 every replay clean"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("rewind-check.1 has no %q:\n%.1200s", want, page)
		}
	}
	for _, name := range []string{"rewind.1", "rewind-info.1", "rewind-dump.1", "rewind-stats.1", "rewind-repair.1", "rewind-find.1", "rewind-export.1", "rewind-follow.1", "rewind-completion.1"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no %s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "rewind-man.1")); err == nil {
		t.Error("the hidden man command has a page")
	}
	// man reads it, where man is installed
	if man, err := exec.LookPath("man"); err == nil {
		out, err := exec.Command(man, "-l", filepath.Join(dir, "rewind-check.1")).CombinedOutput()
		if err == nil && !strings.Contains(string(out), "rewind check") {
			t.Errorf("man -l: %s", out)
		}
	}
}

// TestVersionText: what --version says with and without the VCS
// information go build stamps.
func TestVersionText(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "rewind", Version: "v0.0.0-20260102030405-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	bare := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "rewind", Version: "(devel)"}}
	for _, tt := range []struct {
		ld   string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"", stamped, true, "rewind v0.0.0-20260102030405-0123456789ab+dirty (commit 0123456789ab with uncommitted changes, committed 2026-01-02 03:04:05 UTC, go1.26.0 "},
		{"v1.2.0", stamped, true, "rewind v1.2.0 (commit 0123456789ab with uncommitted changes, "},
		{"", bare, true, "rewind (devel, no VCS information; go1.26.0 "},
		{"v1.2.0", bare, true, "rewind v1.2.0 (go1.26.0 "},
		{"", nil, false, "rewind (devel, no VCS information; go"},
	} {
		if got := versionText(tt.ld, tt.bi, tt.ok); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q: %q, want it to start %q", tt.ld, got, tt.want)
		}
	}
}

// TestVersionFromGit: a binary go build makes in a git checkout names the
// commit it was built from (this machine's GOFLAGS may turn VCS stamping
// off; the build turns it on).
func TestVersionFromGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git here")
	}
	head, err := exec.Command(git, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	top, _ := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if st, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !st.IsDir() {
		// go finds a repository by a .git folder; a worktree has a .git file
		t.Skip("a git worktree: go build stamps no VCS information here")
	}
	exe := filepath.Join(t.TempDir(), "rewind")
	build := exec.Command(goTool(), "build", "-buildvcs=true", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("go build -buildvcs=true: %v\n%s", err, out) // git too old or the checkout not trusted
	}
	out, err := exec.Command(exe, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "commit " + string(head[:12]); !strings.Contains(string(out), want) || strings.Contains(string(out), "no VCS") {
		t.Errorf("--version: %q, want %q in it", out, want)
	}
}
