package folders

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recorder is the OS's file system that remembers every path asked for,
// so a test can hold Find to reading inside its fake machine.
type recorder struct {
	mu    sync.Mutex
	paths []string
}

func (r *recorder) note(name string) {
	r.mu.Lock()
	r.paths = append(r.paths, name)
	r.mu.Unlock()
}
func (r *recorder) Stat(name string) (fs.FileInfo, error) { r.note(name); return os.Stat(name) }
func (r *recorder) ReadDir(name string) ([]fs.DirEntry, error) {
	r.note(name)
	return os.ReadDir(name)
}
func (r *recorder) Open(name string) (io.ReadCloser, error) { r.note(name); return os.Open(name) }

// machine is a fake machine in a temporary folder: dirs are made under it,
// files written, links made, and the paths a test names are relative to it.
type machine struct {
	t    *testing.T
	root string
}

func newMachine(t *testing.T) machine { return machine{t, t.TempDir()} }

func (m machine) path(rel string) string {
	return filepath.Join(m.root, filepath.FromSlash(rel))
}

func (m machine) dirs(rels ...string) {
	for _, r := range rels {
		if err := os.MkdirAll(m.path(r), 0o755); err != nil {
			m.t.Fatal(err)
		}
	}
}

func (m machine) file(rel, content string) {
	m.dirs(filepath.Dir(filepath.FromSlash(rel)))
	if err := os.WriteFile(m.path(rel), []byte(content), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// link makes a symbolic link where the system lets this process make one
// (Windows asks for a privilege): without it a test has one path less to
// the same folder and the same result.
func (m machine) link(rel, target string) {
	m.dirs(filepath.Dir(filepath.FromSlash(rel)))
	if err := os.Symlink(filepath.FromSlash(target), m.path(rel)); err != nil {
		m.t.Logf("no symbolic link %s: %v", rel, err)
	}
}

// vdfPath is p as libraryfolders.vdf writes it: backslashes doubled.
func vdfPath(p string) string { return strings.ReplaceAll(p, `\`, `\\`) }

// find runs Find on env in m and checks that it read nothing outside m;
// it returns the folders as "game: path relative to m".
func (m machine) find(env Env) []string {
	m.t.Helper()
	rec := &recorder{}
	got := finder{env: env, fs: rec}.find()
	for _, p := range rec.paths {
		if rel, err := filepath.Rel(m.root, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !filepath.IsAbs(p) {
			m.t.Errorf("read %q, outside the fake machine %s", p, m.root)
		}
	}
	var out []string
	for _, f := range got {
		rel, err := filepath.Rel(m.root, f.Path)
		if err != nil {
			m.t.Fatal(err)
		}
		out = append(out, f.Game+": "+filepath.ToSlash(rel))
	}
	return out
}

func (m machine) env(osName, home string, vars map[string]string) Env {
	return Env{OS: osName, Home: m.path(home), Root: m.path("root"), Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return m.path(v)
		}
		return ""
	}}
}

func expect(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// The SC2 account tree every layout shares: two toons with replays, a
// Hotkeys folder and a toon that never played multiplayer, none of which
// is a replay folder.
func sc2Accounts(m machine, accounts string) {
	m.dirs(
		accounts+"/111/2-S2-1-2/Replays/Multiplayer",
		accounts+"/111/1-S2-1-1/Replays/Multiplayer",
		accounts+"/111/Hotkeys",
		accounts+"/222/1-S2-1-3/Replays/Unsaved",
	)
}

func TestFindLinux(t *testing.T) {
	m := newMachine(t)
	m.dirs(
		"home/me/Slippi",
		"home/me/xdg/osu/exports",
		"home/me/.local/share/osu/exports",
		"home/me/.var/app/sh.ppy.osu/data/osu/exports",
		"home/me/.local/share/Steam/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"games/SteamLibrary/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"home/me/Library/Application Support/osu/exports", // macOS's: not here
		"root/Applications/osu!.app/Contents/Resources/drive_c/osu!/Replays",
	)
	sc2Accounts(m, "home/me/Documents/StarCraft II/Accounts")
	m.link("home/me/.steam/steam", "../.local/share/Steam") // as Steam's installer makes it
	m.file("home/me/.local/share/Steam/steamapps/libraryfolders.vdf", `"libraryfolders"
{
	"0"
	{
		"path"		"`+vdfPath(m.path("home/me/.local/share/Steam"))+`"
		"label"		""
		"apps"
		{
			"228980"		"1234567"
		}
	}
	"1"
	{
		"path"		"`+vdfPath(m.path("games/SteamLibrary"))+`"
		"apps"
		{
			"620980"		"7654321"
		}
	}
}
`)
	got := m.find(m.env("linux", "home/me", map[string]string{"XDG_DATA_HOME": "home/me/xdg"}))
	expect(t, got, []string{
		"Slippi: home/me/Slippi",
		"StarCraft II: home/me/Documents/StarCraft II/Accounts/111/1-S2-1-1/Replays/Multiplayer",
		"StarCraft II: home/me/Documents/StarCraft II/Accounts/111/2-S2-1-2/Replays/Multiplayer",
		"osu! lazer: home/me/xdg/osu/exports",
		"osu! lazer: home/me/.local/share/osu/exports",
		"osu! lazer: home/me/.var/app/sh.ppy.osu/data/osu/exports",
		"BeatLeader: home/me/.local/share/Steam/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"BeatLeader: games/SteamLibrary/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
	})
}

// TestFindWine: StarCraft II and osu! stable in Wine prefixes on Linux:
// $WINEPREFIX, ~/.wine with the older "My Documents", and Lutris games.
func TestFindWine(t *testing.T) {
	m := newMachine(t)
	sc2Accounts(m, "home/me/prefixes/sc2/drive_c/users/me/Documents/StarCraft II/Accounts")
	m.dirs(
		"home/me/.wine/drive_c/users/me/My Documents/StarCraft II/Accounts/5/2-S2-1-5/Replays/Multiplayer",
		"home/me/.wine/drive_c/users/me/AppData/Local/osu!/Replays",
		"home/me/.wine/drive_c/users/Public/Documents",
		"home/me/Games/starcraft-ii/drive_c/users/me/Documents/StarCraft II/Accounts/9/3-S2-1-9/Replays/Multiplayer",
		"home/me/Games/osu/drive_c/osu!/Replays",
		"home/me/Games/old-wine/drive_c/users/me/Local Settings/Application Data/osu!/Replays",
	)
	got := m.find(m.env("linux", "home/me", map[string]string{"WINEPREFIX": "home/me/prefixes/sc2"}))
	expect(t, got, []string{
		"StarCraft II: home/me/prefixes/sc2/drive_c/users/me/Documents/StarCraft II/Accounts/111/1-S2-1-1/Replays/Multiplayer",
		"StarCraft II: home/me/prefixes/sc2/drive_c/users/me/Documents/StarCraft II/Accounts/111/2-S2-1-2/Replays/Multiplayer",
		"StarCraft II: home/me/.wine/drive_c/users/me/My Documents/StarCraft II/Accounts/5/2-S2-1-5/Replays/Multiplayer",
		"StarCraft II: home/me/Games/starcraft-ii/drive_c/users/me/Documents/StarCraft II/Accounts/9/3-S2-1-9/Replays/Multiplayer",
		"osu!: home/me/.wine/drive_c/users/me/AppData/Local/osu!/Replays",
		"osu!: home/me/Games/old-wine/drive_c/users/me/Local Settings/Application Data/osu!/Replays",
		"osu!: home/me/Games/osu/drive_c/osu!/Replays",
	})
}

// TestFindProton: Proton prefixes of each Steam library (native Steam and
// the Flatpak), Beat Saber under Proton, and the older libraryfolders.vdf
// that lists libraries as numbered strings.
func TestFindProton(t *testing.T) {
	m := newMachine(t)
	steam := "home/me/.local/share/Steam/steamapps"
	flat := "home/me/.var/app/com.valvesoftware.Steam/.local/share/Steam/steamapps"
	m.dirs(
		steam+"/common/Beat Saber/UserData/BeatLeader/Replays",
		steam+"/compatdata/620980/pfx/drive_c/users/steamuser/Documents",
		steam+"/compatdata/3733590677/pfx/drive_c/users/steamuser/Documents/StarCraft II/Accounts/7/1-S2-1-7/Replays/Multiplayer",
		flat+"/compatdata/123/pfx/drive_c/users/steamuser/AppData/Local/osu!/Replays",
		"mnt/lib2/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
	)
	m.file(flat+"/libraryfolders.vdf", `"LibraryFolders"
{
	"TimeNextStatsReport"		"1700000000"
	"ContentStatsID"		"-123"
	"1"		"`+vdfPath(m.path("mnt/lib2"))+`"
}
`)
	got := m.find(m.env("linux", "home/me", nil))
	expect(t, got, []string{
		"StarCraft II: " + steam + "/compatdata/3733590677/pfx/drive_c/users/steamuser/Documents/StarCraft II/Accounts/7/1-S2-1-7/Replays/Multiplayer",
		"osu!: " + flat + "/compatdata/123/pfx/drive_c/users/steamuser/AppData/Local/osu!/Replays",
		"BeatLeader: " + steam + "/common/Beat Saber/UserData/BeatLeader/Replays",
		"BeatLeader: mnt/lib2/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
	})
}

func TestFindDarwin(t *testing.T) {
	m := newMachine(t)
	sc2Accounts(m, "Users/me/Library/Application Support/Blizzard/StarCraft II/Accounts")
	m.dirs(
		"Users/me/Slippi",
		"Users/me/Library/Application Support/osu/exports",
		"root/Applications/osu!.app/Contents/Resources/drive_c/osu!/Replays",
		"Users/me/Documents/StarCraft II/Accounts/1/1-S2-1-1/Replays/Multiplayer", // Linux's place
		"Users/me/.local/share/Steam/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
	)
	got := m.find(m.env("darwin", "Users/me", nil))
	expect(t, got, []string{
		"Slippi: Users/me/Slippi",
		"StarCraft II: Users/me/Library/Application Support/Blizzard/StarCraft II/Accounts/111/1-S2-1-1/Replays/Multiplayer",
		"StarCraft II: Users/me/Library/Application Support/Blizzard/StarCraft II/Accounts/111/2-S2-1-2/Replays/Multiplayer",
		"osu!: root/Applications/osu!.app/Contents/Resources/drive_c/osu!/Replays",
		"osu! lazer: Users/me/Library/Application Support/osu/exports",
	})
}

// TestFindWindows: Documents moved into OneDrive (the known folder says
// so, and %OneDrive% agrees), with an older Slippi folder left in
// %USERPROFILE%\Documents; osu! in %LOCALAPPDATA%, lazer in %APPDATA%,
// Beat Saber in Program Files (x86)\Steam and in a second library.
func TestFindWindows(t *testing.T) {
	m := newMachine(t)
	sc2Accounts(m, "Users/me/OneDrive/Documents/StarCraft II/Accounts")
	m.dirs(
		"Users/me/OneDrive/Documents/Slippi",
		"Users/me/Documents/Slippi",
		"Users/me/Slippi", // the home folder is other systems' place
		"Users/me/AppData/Local/osu!/Replays",
		"Users/me/AppData/Roaming/osu/exports",
		"Program Files (x86)/Steam/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"SteamLibrary/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"Users/me/.local/share/osu/exports",
	)
	m.file("Program Files (x86)/Steam/steamapps/libraryfolders.vdf", `"libraryfolders"
{
	"0" { "path" "`+vdfPath(m.path("Program Files (x86)/Steam"))+`" }
	"1" { "path" "`+vdfPath(m.path("SteamLibrary"))+`" }
}`)
	env := m.env("windows", "Users/me", map[string]string{
		"USERPROFILE":       "Users/me",
		"OneDrive":          "Users/me/OneDrive",
		"LOCALAPPDATA":      "Users/me/AppData/Local",
		"APPDATA":           "Users/me/AppData/Roaming",
		"ProgramFiles(x86)": "Program Files (x86)",
		"ProgramFiles":      "Program Files",
	})
	env.Documents = m.path("Users/me/OneDrive/Documents")
	expect(t, m.find(env), []string{
		"Slippi: Users/me/OneDrive/Documents/Slippi",
		"Slippi: Users/me/Documents/Slippi",
		"StarCraft II: Users/me/OneDrive/Documents/StarCraft II/Accounts/111/1-S2-1-1/Replays/Multiplayer",
		"StarCraft II: Users/me/OneDrive/Documents/StarCraft II/Accounts/111/2-S2-1-2/Replays/Multiplayer",
		"osu!: Users/me/AppData/Local/osu!/Replays",
		"osu! lazer: Users/me/AppData/Roaming/osu/exports",
		"BeatLeader: Program Files (x86)/Steam/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
		"BeatLeader: SteamLibrary/steamapps/common/Beat Saber/UserData/BeatLeader/Replays",
	})
}

// TestFindNothing: a machine without any game, and an Env that knows
// nothing, give no folder and read nothing relative to the working folder
// (an unset variable must not become a path like "osu/exports").
func TestFindNothing(t *testing.T) {
	m := newMachine(t)
	m.dirs("home/me/Slippi-not", "home/me/Documents")
	m.file("home/me/Slippi", "a file, not a folder")
	for _, osName := range []string{"linux", "darwin", "windows", "freebsd"} {
		if got := m.find(m.env(osName, "home/me", nil)); len(got) != 0 {
			t.Errorf("%s: %q", osName, got)
		}
		rec := &recorder{}
		if got := (finder{env: Env{OS: osName}, fs: rec}).find(); len(got) != 0 {
			t.Errorf("%s, empty Env: %v", osName, got)
		}
		for _, p := range rec.paths {
			// Root "" is the real root: Windows calls \Applications rooted, not absolute
			if !filepath.IsAbs(p) && !strings.HasPrefix(p, string(filepath.Separator)) {
				t.Errorf("%s, empty Env: read %q", osName, p)
			}
		}
	}
}

func TestLibraryPaths(t *testing.T) {
	tests := []struct {
		name, vdf string
		want      []string
	}{
		{"current", `"libraryfolders" { "0" { "path" "C:\\Program Files (x86)\\Steam" "apps" { "620980" "123" } } "1" { "path" "D:\\SteamLibrary" } }`,
			[]string{`C:\Program Files (x86)\Steam`, `D:\SteamLibrary`}},
		{"older", "\"LibraryFolders\"\n{\n\t\"TimeNextStatsReport\"\t\t\"1\"\n\t\"1\"\t\t\"/mnt/games/steam\"\n}\n",
			[]string{"/mnt/games/steam"}},
		{"escaped quote", `"libraryfolders" { "0" { "path" "/a \"b\"" } }`, []string{`/a "b"`}},
		{"comment", "// made by hand\n\"libraryfolders\" { \"0\" { \"path\" \"/x\" } }", []string{"/x"}},
		{"cut in a string", `"libraryfolders" { "0" { "path" "/x" } "1" { "path" "/y`, []string{"/x"}},
		{"empty", ``, nil},
	}
	for _, tt := range tests {
		if got := libraryPaths([]byte(tt.vdf)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
