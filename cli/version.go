package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// version is set when packaging (go build -ldflags "-X main.version=v1.2.0");
// otherwise the Go toolchain's build information says what was built.
var version = ""

// versionLine is what --version prints, from the build information Go
// stamps into the binary: the module version (a tag, or a pseudo-version
// made from the commit), the VCS revision with its time and whether the
// work tree had changes, and the toolchain. go build in a git checkout
// stamps the revision; go run, go build -buildvcs=false and a build outside
// a checkout do not, and then the line says so rather than inventing one.
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	return versionText(version, bi, ok)
}

func versionText(ldflagsVersion string, bi *debug.BuildInfo, ok bool) string {
	goVersion := runtime.Version()
	setting := map[string]string{}
	v := ldflagsVersion
	if ok && bi != nil {
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			setting[s.Key] = s.Value
		}
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	toolchain := fmt.Sprintf("%s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
	rev := setting["vcs.revision"]
	switch {
	case rev == "" && v == "":
		return fmt.Sprintf("rewind (devel, no VCS information; %s)", toolchain)
	case rev == "":
		return fmt.Sprintf("rewind %s (%s)", v, toolchain)
	case v == "":
		v = "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	parts := []string{"commit " + rev}
	if setting["vcs.modified"] == "true" {
		parts[0] += " with uncommitted changes"
	}
	if t, err := time.Parse(time.RFC3339, setting["vcs.time"]); err == nil {
		parts = append(parts, "committed "+t.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	parts = append(parts, toolchain)
	return fmt.Sprintf("rewind %s (%s)", v, strings.Join(parts, ", "))
}
