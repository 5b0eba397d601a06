//go:build unix

package cli

// Bad paths through the real binary (issue 11): every one gets one line and
// counts as unreadable, everything else is still checked, the exit status
// is 2 at the end, and --json always ends with its summary object.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tree builds a folder of replays under a fresh temporary folder that any
// user can read, and returns the folder and a function that puts a sample
// at a relative path.
func tree(t *testing.T) (string, func(rel, sample string)) {
	t.Helper()
	root := t.TempDir()
	// t.TempDir's folders are private; the permission tests run the binary
	// as an unprivileged user, who must reach the tree
	os.Chmod(filepath.Dir(root), 0o755)
	os.Chmod(root, 0o755)
	put := func(rel, sample string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(sample)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, put
}

// unprivileged makes a run as a user that file permissions apply to: as
// root (where mode 000 blocks nothing) the binary runs as nobody (65534);
// otherwise as the current user.
func unprivileged(t *testing.T) func(*exec.Cmd) {
	if os.Geteuid() != 0 {
		return nil
	}
	as := func(c *exec.Cmd) {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534, Groups: []uint32{}}}
	}
	probe := exec.Command(bin, "--version")
	as(probe)
	if err := probe.Run(); err != nil {
		t.Skipf("running as root, and cannot run the binary as nobody to test permissions: %v", err)
	}
	return as
}

// lock makes a path unreadable until the test ends.
func lock(t *testing.T, p string) {
	t.Helper()
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(p, 0o755) })
}

// summaryOf checks that --json output ends with the summary object and
// returns it.
func summaryOf(t *testing.T, out string) checkSummary {
	t.Helper()
	objs := ndjson(t, out)
	if len(objs) == 0 || objs[len(objs)-1]["type"] != "summary" {
		t.Fatalf("--json does not end with the summary object:\n%s", out)
	}
	var s checkSummary
	b, _ := json.Marshal(objs[len(objs)-1])
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(objs)-1 != s.Total.Files+s.Skipped {
		t.Errorf("%d file objects, summary counts %d files and %d skipped", len(objs)-1, s.Total.Files, s.Skipped)
	}
	return s
}

func TestCheckPaths(t *testing.T) {
	for _, tt := range []struct {
		name    string
		setup   func(t *testing.T, root string, put func(rel, sample string)) []string // the arguments after check
		as      func(t *testing.T) func(*exec.Cmd)
		exit    int
		stdout  string // exact, with ROOT for the tree
		stderr  string
		summary tally
		skipped int
	}{
		{
			name: "a device",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				return []string{"/dev/zero"}
			},
			exit:    2,
			stdout:  "/dev/zero: unreadable: a character device, not a regular file; rewind reads only regular files\n\nformat           files   clean  problems  unreadable\nunknown              1       0         0           1\n",
			summary: tally{Files: 1, Unreadable: 1},
		},
		{
			name: "a FIFO named on the command line is refused at once, never opened",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				if err := syscall.Mkfifo(filepath.Join(root, "p.slp"), 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{filepath.Join(root, "p.slp")}
			},
			exit:    2,
			stdout:  "ROOT/p.slp: unreadable: a FIFO (named pipe), not a regular file; rewind reads only regular files\n\nformat           files   clean  problems  unreadable\nunknown              1       0         0           1\n",
			summary: tally{Files: 1, Unreadable: 1},
		},
		{
			name: "a FIFO in a folder is listed as skipped",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("games/a.slp", netplay)
				if err := syscall.Mkfifo(filepath.Join(root, "games", "p.slp"), 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{filepath.Join(root, "games")}
			},
			exit:    0,
			stdout:  "ROOT/games/p.slp: skipped: a FIFO (named pipe), not a regular file; rewind reads only regular files\n\nformat           files   clean  problems  unreadable\nslippi               1       1         0           0\nskipped 1 special file (devices, FIFOs and sockets are never opened)\n",
			summary: tally{Files: 1, Clean: 1},
			skipped: 1,
		},
		{
			name: "a good file and a missing one",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("good.slp", netplay)
				return []string{filepath.Join(root, "good.slp"), "/nonexistent"}
			},
			exit:    2,
			stdout:  "/nonexistent: unreadable: no such file or folder\n\nformat           files   clean  problems  unreadable\nslippi               1       1         0           0\nunknown              1       0         0           1\nall                  2       1         0           1\n",
			summary: tally{Files: 2, Clean: 1, Unreadable: 1},
		},
		{
			name: "a tree with one unreadable folder",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("a/one.slp", netplay)
				put("b/locked/two.slp", netplay)
				put("c/three.bsor", "testdata/samples/bsor/easy-full-play.bsor")
				lock(t, filepath.Join(root, "b", "locked"))
				return []string{root}
			},
			as:      unprivileged,
			exit:    2,
			stdout:  "ROOT/b/locked: unreadable: permission denied\n\nformat           files   clean  problems  unreadable\nbsor                 1       1         0           0\nslippi               1       1         0           0\nunknown              1       0         0           1\nall                  3       2         0           1\n",
			summary: tally{Files: 3, Clean: 2, Unreadable: 1},
		},
		{
			name: "an unreadable file is unreadable, never not a replay",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("d/one.slp", netplay)
				put("d/locked.slp", netplay)
				put("d/locked-no-extension", netplay)
				lock(t, filepath.Join(root, "d", "locked.slp"))
				lock(t, filepath.Join(root, "d", "locked-no-extension"))
				return []string{filepath.Join(root, "d")}
			},
			as:      unprivileged,
			exit:    2,
			stdout:  "ROOT/d/locked-no-extension: unreadable: permission denied\nROOT/d/locked.slp: unreadable: permission denied\n\nformat           files   clean  problems  unreadable\nslippi               1       1         0           0\nunknown              2       0         0           2\nall                  3       1         0           2\n",
			summary: tally{Files: 3, Clean: 1, Unreadable: 2},
		},
		{
			name: "a folder of symlinks to replays",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("real/one.slp", netplay)
				put("real/two.SC2Replay", "testdata/samples/sc2/hots-2.0.8-tracker.SC2Replay")
				os.Mkdir(filepath.Join(root, "links"), 0o755)
				os.Symlink("../real/one.slp", filepath.Join(root, "links", "one.slp"))
				os.Symlink(filepath.Join(root, "real", "two.SC2Replay"), filepath.Join(root, "links", "two.SC2Replay"))
				return []string{filepath.Join(root, "links")}
			},
			exit:    0,
			stdout:  "\nformat           files   clean  problems  unreadable\nsc2                  1       1         0           0\nslippi               1       1         0           0\nall                  2       2         0           0\n",
			summary: tally{Files: 2, Clean: 2},
		},
		{
			name: "a symlinked folder without a trailing slash",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("real/one.slp", netplay)
				os.Symlink("real", filepath.Join(root, "link"))
				return []string{filepath.Join(root, "link")}
			},
			exit:    0,
			stdout:  "\nformat           files   clean  problems  unreadable\nslippi               1       1         0           0\n",
			summary: tally{Files: 1, Clean: 1},
		},
		{
			name: "a symlink loop",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("games/one.slp", netplay)
				os.Symlink("..", filepath.Join(root, "games", "up"))
				os.Symlink("self.slp", filepath.Join(root, "games", "self.slp"))
				return []string{filepath.Join(root, "games")}
			},
			exit:    2,
			stdout:  "ROOT/games/self.slp: unreadable: symlink loop\nROOT/games/up/games: unreadable: symlink loop: it leads back to ROOT/games, which is being walked\n\nformat           files   clean  problems  unreadable\nslippi               1       1         0           0\nunknown              2       0         0           2\nall                  3       1         0           2\n",
			summary: tally{Files: 3, Clean: 1, Unreadable: 2},
		},
		{
			name: "a folder without replays",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				put("notes/README.md", "testdata/samples/teehistorian/README.md")
				return []string{filepath.Join(root, "notes")}
			},
			exit:   2,
			stdout: "\nformat           files   clean  problems  unreadable\nall                  0       0         0           0\n",
			stderr: "rewind check: no replay found in ROOT/notes\n",
		},
		{
			name: "an empty file with a replay's name",
			setup: func(t *testing.T, root string, put func(string, string)) []string {
				os.WriteFile(filepath.Join(root, "empty.slp"), nil, 0o644)
				return []string{filepath.Join(root, "empty.slp")}
			},
			exit:    2,
			stdout:  "ROOT/empty.slp: not a replay although its name ends in .slp: an empty file\n\nformat           files   clean  problems  unreadable\nnot a replay         1       0         0           1\n",
			summary: tally{Files: 1, Unreadable: 1},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, put := tree(t)
			args := tt.setup(t, root, put)
			real, _ := filepath.EvalSymlinks(root)
			fix := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, real, "ROOT"), root, "ROOT") }
			o := runOpts{}
			if tt.as != nil {
				o.cmd = tt.as(t)
			}
			r := rewindWith(t, o, append([]string{"check"}, args...)...)
			r.want(t, "check", tt.exit, "*")
			if fix(r.stdout) != tt.stdout || fix(r.stderr) != tt.stderr {
				t.Errorf("stdout\n%s\nwant\n%s\nstderr %q, want %q", fix(r.stdout), tt.stdout, fix(r.stderr), tt.stderr)
			}
			j := rewindWith(t, o, append([]string{"check", "--json"}, args...)...)
			j.want(t, "check --json", tt.exit, "*")
			s := summaryOf(t, j.stdout)
			if s.Total != tt.summary || s.Skipped != tt.skipped || s.Exit != tt.exit {
				t.Errorf("summary %+v skipped %d exit %d, want %+v skipped %d exit %d", s.Total, s.Skipped, s.Exit, tt.summary, tt.skipped, tt.exit)
			}
			// info and dump refuse the same paths the same way
			if tt.exit == 2 && len(args) == 1 && !strings.HasSuffix(tt.stdout, "all                  0       0         0           0\n") {
				i := rewindWith(t, o, "info", args[0])
				i.want(t, "info", 2, "*")
			}
		})
	}
}

// TestPermissionDeniedAsRoot: a file root cannot read either (a
// write-only sysctl), so the error path runs whoever runs the tests.
func TestPermissionDeniedAsRoot(t *testing.T) {
	const p = "/proc/sys/vm/drop_caches"
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: %v (Linux only)", p, err)
	}
	r := rewind(t, "check", p)
	r.want(t, "check "+p, 2, "*")
	if !strings.HasPrefix(r.stdout, p+": unreadable: permission denied\n") || !strings.Contains(r.stdout, "\nunknown              1       0         0           1\n") {
		t.Errorf("check %s:\n%s", p, r.stdout)
	}
	r = rewind(t, "dump", p)
	r.want(t, "dump "+p, 2, "rewind dump: "+p+": permission denied\n")
	r = rewind(t, "info", p)
	r.want(t, "info "+p, 2, "")
	if r.stdout != p+"\n  unreadable  permission denied\n" {
		t.Errorf("info %s: %q", p, r.stdout)
	}
}

// TestDumpRefusesSpecialFiles: dump and info stat first and never block on
// a FIFO or read a device.
func TestDumpRefusesSpecialFiles(t *testing.T) {
	root, _ := tree(t)
	fifo := filepath.Join(root, "p.slp")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", "/dev/urandom"} {
		r := rewind(t, "dump", p)
		r.want(t, "dump "+p, 2, "*")
		if !strings.HasPrefix(r.stderr, "rewind dump: "+p+": a ") || !strings.HasSuffix(r.stderr, ", not a regular file; rewind reads only regular files\n") {
			t.Errorf("dump %s: %q", p, r.stderr)
		}
		r = rewind(t, "info", "--json", p)
		r.want(t, "info "+p, 2, "")
		if !strings.Contains(r.stdout, `"reason":"read"`) {
			t.Errorf("info --json %s: %s", p, r.stdout)
		}
	}
}
