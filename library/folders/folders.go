// Package folders finds the replay folders that the games and their
// recorders write to by default, on each OS, among the ones that exist.
// It knows places, not formats: it imports no decoder, and a folder it
// returns may hold anything.
//
// Where each game writes, and where that was confirmed:
//
//   - Slippi: Slippi Launcher's default root replay folder is "Slippi" in
//     the Documents folder on Windows (Electron's app.getPath("documents"),
//     the Documents known folder, which OneDrive redirects) and in the home
//     folder elsewhere (slippi-launcher src/renderer/lib/directories.ts and
//     later the settings defaults, getDefaultRootSlpPath).
//   - StarCraft II: Documents\StarCraft II\Accounts on Windows,
//     ~/Library/Application Support/Blizzard/StarCraft II/Accounts on macOS,
//     ~/Documents/StarCraft II/Accounts elsewhere, and Wine prefixes' users'
//     "My Documents"/StarCraft II/Accounts under Lutris' ~/Games/* (Scelight
//     src-launcher/hu/sllauncher/service/env/OpSys.java initPaths and
//     src-app/hu/scelight/bean/repfolders/RepFoldersBean.java
//     getLutrisFolders). Below Accounts each account and each toon has
//     Replays/Multiplayer.
//   - osu! (stable): installed in %LOCALAPPDATA%\osu! on Windows, and on
//     macOS inside its Wine wrapper at
//     /Applications/osu!.app/Contents/Resources/drive_c/osu!; exported
//     replays go to its Replays folder (osu-wiki
//     wiki/Client/Program_files/en.md).
//   - osu! lazer: its data folder is %appdata%/osu on Windows,
//     ~/.local/share/osu on Linux ($XDG_DATA_HOME first, osu-framework's
//     LinuxGameHost.UserStoragePaths) and ~/Library/Application Support/osu
//     on macOS; replays exported in game go to its exports folder (osu-wiki
//     wiki/Client/Release_stream/Lazer/File_storage/en.md). The Flathub
//     build (sh.ppy.osu) keeps it in ~/.var/app/sh.ppy.osu/data/osu.
//   - BeatLeader: the mod writes UserData/BeatLeader/Replays in the Beat
//     Saber folder (beatleader-mod BeatLeader/Utils/FileManager.cs
//     ReplaysFolderPath), by default C:\Program Files (x86)\Steam\
//     steamapps\common\Beat Saber (motzel/replay-analyzer README); on Linux
//     Steam lives in ~/.local/share/Steam, ~/.steam/steam or, as a Flatpak,
//     ~/.var/app/com.valvesoftware.Steam/.local/share/Steam, and each Steam
//     root lists its other libraries in steamapps/libraryfolders.vdf.
//
// On Linux the Windows games run under Wine: in $WINEPREFIX or ~/.wine, in
// a Lutris prefix (~/Games/*) and in a Proton prefix
// (steamapps/compatdata/*/pfx of each Steam library, where the user is
// "steamuser"); each prefix's drive_c/users/* is searched as Windows'
// C:\Users, with both the current ("Documents", "AppData/Local") and the
// older ("My Documents", "Local Settings/Application Data") folder names.
package folders

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The games, as a title line names them. Find returns them in this order.
const (
	Slippi     = "Slippi"
	SC2        = "StarCraft II"
	Osu        = "osu!"
	OsuLazer   = "osu! lazer"
	BeatLeader = "BeatLeader"
)

// Folder is one replay folder and the game whose replays it holds.
type Folder struct {
	Game string
	Path string
}

// Env is everything Find looks at besides the files themselves, so that a
// test can lay out any OS's folders in a temporary directory.
type Env struct {
	OS   string // as runtime.GOOS: "windows", "darwin", "linux", ...
	Home string // the user's home folder (%USERPROFILE% on Windows)
	// Root is where fixed system paths (macOS's /Applications) are looked
	// up: "" or "/" for the real root.
	Root string
	// Documents is the Documents folder as Windows resolves it (the
	// Documents known folder, which OneDrive and group policy redirect);
	// "" elsewhere or when unknown.
	Documents string
	// Getenv reads an environment variable: XDG_DATA_HOME, WINEPREFIX,
	// USERPROFILE, APPDATA, LOCALAPPDATA, OneDrive, OneDriveConsumer,
	// OneDriveCommercial, ProgramFiles(x86), ProgramFiles. nil reads none.
	Getenv func(string) string
}

// System is the Env of this process: its OS, home, environment and, on
// Windows, the Documents known folder.
func System() Env {
	home, _ := os.UserHomeDir()
	return Env{OS: runtime.GOOS, Home: home, Documents: documentsFolder(), Getenv: os.Getenv}
}

// Find lists the folders, among the default replay folders of Slippi
// Launcher, StarCraft II, osu! (stable and lazer) and the BeatLeader mod on
// env's OS, that exist as folders, each once (two paths to one folder, as
// ~/.steam/steam and ~/.local/share/Steam often are, count once, as the
// first). The order is stable: by game as the constants above, then in the
// order the package documentation gives the places, folders found in a
// listing (accounts, toons, prefixes) by name. Only paths under env's
// Home, Root, Documents and environment variables (and the Steam
// libraries that a Steam root's libraryfolders.vdf names) are read.
//
// This is the library rewind opens when it is given no path and no
// library is configured; when Find returns nothing, rewind opens its
// built-in samples instead.
func Find(env Env) []Folder {
	return finder{env: env, fs: osFS{}}.find()
}

// fileSystem is what a finder reads: the OS, or in tests a recorder of
// every path asked for.
type fileSystem interface {
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Open(name string) (io.ReadCloser, error)
}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Open(name string) (io.ReadCloser, error)    { return os.Open(name) }

type finder struct {
	env Env
	fs  fileSystem
}

// found is a folder kept, with what os.Stat said of it for SameFile.
type found struct {
	Folder
	info fs.FileInfo
}

func (f finder) find() []Folder {
	var out []found
	add := func(game string, paths []string) {
		for _, p := range paths {
			if p == "" {
				continue
			}
			p = filepath.Clean(p)
			st, err := f.fs.Stat(p)
			if err != nil || !st.IsDir() {
				continue
			}
			dup := false
			for _, o := range out {
				if o.Path == p || os.SameFile(o.info, st) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, found{Folder{game, p}, st})
			}
		}
	}
	docs := f.documents()
	prefixes := f.winePrefixes()
	add(Slippi, f.slippi(docs))
	add(SC2, f.sc2(docs, prefixes))
	add(Osu, f.osuStable(prefixes))
	add(OsuLazer, f.osuLazer())
	add(BeatLeader, f.beatLeader())
	folders := make([]Folder, len(out))
	for i, o := range out {
		folders[i] = o.Folder
	}
	return folders
}

func (f finder) getenv(k string) string {
	if f.env.Getenv == nil {
		return ""
	}
	return f.env.Getenv(k)
}

func (f finder) home(elem ...string) string {
	if f.env.Home == "" {
		return ""
	}
	return filepath.Join(append([]string{f.env.Home}, elem...)...)
}

// under joins elem to dir, "" when dir is unknown (an unset variable
// must not make a path relative to the working folder).
func under(dir string, elem ...string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(append([]string{dir}, elem...)...)
}

// documents is the Windows Documents folder and where else it may be: the
// known folder first, then %USERPROFILE%\Documents and OneDrive's
// Documents (OneDrive's folder backup moves Documents into OneDrive).
func (f finder) documents() []string {
	if f.env.OS != "windows" {
		return nil
	}
	profile := f.getenv("USERPROFILE")
	if profile == "" {
		profile = f.env.Home
	}
	return []string{
		f.env.Documents,
		under(profile, "Documents"),
		under(f.getenv("OneDrive"), "Documents"),
		under(f.getenv("OneDriveConsumer"), "Documents"),
		under(f.getenv("OneDriveCommercial"), "Documents"),
	}
}

func (f finder) slippi(docs []string) []string {
	if f.env.OS == "windows" {
		return joinAll(docs, "Slippi")
	}
	return []string{f.home("Slippi")}
}

// sc2 is each account's and toon's Replays/Multiplayer under every
// StarCraft II Accounts folder.
func (f finder) sc2(docs []string, prefixes []string) []string {
	var accounts []string
	switch f.env.OS {
	case "windows":
		accounts = joinAll(docs, "StarCraft II", "Accounts")
	case "darwin":
		accounts = []string{f.home("Library", "Application Support", "Blizzard", "StarCraft II", "Accounts")}
	default:
		accounts = []string{f.home("Documents", "StarCraft II", "Accounts")}
		for _, u := range f.wineUsers(prefixes) {
			for _, d := range []string{"Documents", "My Documents"} {
				accounts = append(accounts, filepath.Join(u, d, "StarCraft II", "Accounts"))
			}
		}
	}
	var out []string
	for _, a := range accounts {
		for _, account := range f.subfolders(a) {
			for _, toon := range f.subfolders(account) {
				out = append(out, filepath.Join(toon, "Replays", "Multiplayer"))
			}
		}
	}
	return out
}

func (f finder) osuStable(prefixes []string) []string {
	switch f.env.OS {
	case "windows":
		return []string{under(f.getenv("LOCALAPPDATA"), "osu!", "Replays")}
	case "darwin":
		return []string{f.root("Applications", "osu!.app", "Contents", "Resources", "drive_c", "osu!", "Replays")}
	}
	var out []string
	for _, u := range f.wineUsers(prefixes) {
		for _, local := range []string{filepath.Join("AppData", "Local"), filepath.Join("Local Settings", "Application Data")} {
			out = append(out, filepath.Join(u, local, "osu!", "Replays"))
		}
	}
	for _, p := range prefixes {
		out = append(out, under(p, "drive_c", "osu!", "Replays")) // the wrapper's layout
	}
	return out
}

func (f finder) osuLazer() []string {
	switch f.env.OS {
	case "windows":
		return []string{under(f.getenv("APPDATA"), "osu", "exports")}
	case "darwin":
		return []string{f.home("Library", "Application Support", "osu", "exports")}
	}
	return []string{
		under(f.getenv("XDG_DATA_HOME"), "osu", "exports"),
		f.home(".local", "share", "osu", "exports"),
		f.home(".var", "app", "sh.ppy.osu", "data", "osu", "exports"),
	}
}

func (f finder) beatLeader() []string {
	var out []string
	for _, lib := range f.steamLibraries() {
		out = append(out, filepath.Join(lib, "steamapps", "common", "Beat Saber", "UserData", "BeatLeader", "Replays"))
	}
	return out
}

// steamRoots is where Steam itself is installed.
func (f finder) steamRoots() []string {
	switch f.env.OS {
	case "windows":
		return []string{under(f.getenv("ProgramFiles(x86)"), "Steam"), under(f.getenv("ProgramFiles"), "Steam")}
	case "darwin":
		return nil // neither Beat Saber nor Proton runs there
	}
	// ~/.steam/steam is usually a link to one of the others: after them,
	// so that the folder is named by its real path
	return []string{
		under(f.getenv("XDG_DATA_HOME"), "Steam"),
		f.home(".local", "share", "Steam"),
		f.home(".steam", "steam"),
		f.home(".var", "app", "com.valvesoftware.Steam", ".local", "share", "Steam"),
	}
}

// steamLibraries is every Steam root and the libraries each one's
// libraryfolders.vdf lists, each once.
func (f finder) steamLibraries() []string {
	var out []string
	seen := map[string]bool{}
	addLib := func(p string) {
		if p == "" {
			return
		}
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range f.steamRoots() {
		if root == "" {
			continue
		}
		addLib(root)
		for _, vdf := range []string{filepath.Join(root, "steamapps", "libraryfolders.vdf"), filepath.Join(root, "config", "libraryfolders.vdf")} {
			for _, p := range libraryPaths(f.readSmall(vdf)) {
				if filepath.IsAbs(p) {
					addLib(p)
				}
			}
		}
	}
	return out
}

// maxVDF bounds what is read of a libraryfolders.vdf: a real one is a few
// kilobytes.
const maxVDF = 1 << 20

func (f finder) readSmall(name string) []byte {
	r, err := f.fs.Open(name)
	if err != nil {
		return nil
	}
	defer r.Close()
	b, _ := io.ReadAll(io.LimitReader(r, maxVDF))
	return b
}

// winePrefixes is every Wine prefix on Linux: $WINEPREFIX, ~/.wine, each
// Lutris game's under ~/Games, each Proton prefix of each Steam library.
func (f finder) winePrefixes() []string {
	if f.env.OS == "windows" || f.env.OS == "darwin" {
		return nil
	}
	out := []string{f.getenv("WINEPREFIX"), f.home(".wine")}
	out = append(out, f.subfolders(f.home("Games"))...)
	for _, lib := range f.steamLibraries() {
		for _, app := range f.subfolders(filepath.Join(lib, "steamapps", "compatdata")) {
			out = append(out, filepath.Join(app, "pfx"))
		}
	}
	return out
}

// wineUsers is drive_c/users/* of each prefix: Windows' C:\Users.
func (f finder) wineUsers(prefixes []string) []string {
	var out []string
	for _, p := range prefixes {
		out = append(out, f.subfolders(under(p, "drive_c", "users"))...)
	}
	return out
}

func (f finder) root(elem ...string) string {
	r := f.env.Root
	if r == "" {
		r = string(filepath.Separator)
	}
	return filepath.Join(append([]string{r}, elem...)...)
}

// subfolders lists the folders in dir (symlinks to folders too), sorted by
// name; nothing when dir is "" or unreadable.
func (f finder) subfolders(dir string) []string {
	if dir == "" {
		return nil
	}
	des, err := f.fs.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range des {
		p := filepath.Join(dir, d.Name())
		if d.IsDir() {
			out = append(out, p)
		} else if d.Type()&fs.ModeSymlink != 0 {
			if st, err := f.fs.Stat(p); err == nil && st.IsDir() {
				out = append(out, p)
			}
		}
	}
	return out
}

func joinAll(dirs []string, elem ...string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, under(d, elem...))
	}
	return out
}

// libraryPaths reads the library folders out of a Steam
// libraryfolders.vdf (Valve's KeyValues text): the value of each "path"
// key, and the string values of numbered keys right inside the outer
// block, which is how the older format listed them ("1"
// "D:\\SteamLibrary"). Backslash escapes are undone. Anything it cannot
// read ends the list; it never fails.
func libraryPaths(vdf []byte) []string {
	var out []string
	var key string
	haveKey := false
	depth := 0
	for len(vdf) > 0 {
		c := vdf[0]
		switch {
		case c == '"':
			s, rest, ok := vdfString(vdf[1:])
			if !ok {
				return out
			}
			vdf = rest
			if !haveKey {
				key, haveKey = s, true
				continue
			}
			if key == "path" || depth == 1 && key != "" && strings.Trim(key, "0123456789") == "" {
				out = append(out, s)
			}
			haveKey = false
		case c == '{':
			depth++
			haveKey = false
			vdf = vdf[1:]
		case c == '}':
			depth--
			haveKey = false
			vdf = vdf[1:]
		case c == '/' && bytes.HasPrefix(vdf, []byte("//")):
			if i := bytes.IndexByte(vdf, '\n'); i >= 0 {
				vdf = vdf[i:]
			} else {
				vdf = nil
			}
		default:
			vdf = vdf[1:]
		}
	}
	return out
}

// vdfString reads a quoted string whose opening quote is already read.
func vdfString(b []byte) (s string, rest []byte, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			return sb.String(), b[i+1:], true
		case '\\':
			if i+1 < len(b) {
				i++
				switch b[i] {
				case 'n':
					sb.WriteByte('\n')
				case 't':
					sb.WriteByte('\t')
				default:
					sb.WriteByte(b[i])
				}
			}
		default:
			sb.WriteByte(b[i])
		}
	}
	return "", nil, false
}
