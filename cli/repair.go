package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

var repairAbout = `Write a repaired copy of a damaged replay to OUT, which other tools open, and
say what was kept, cut, synthesised and fixed. FILE is only read: rewind never
repairs in place, refuses an OUT that is FILE itself (also through a link), and
replaces an existing OUT only with --force. OUT is written to a temporary file
in its folder and renamed, so it is whole or absent, never half written. The
new file always decodes without a problem (rewind check OUT says clean).

` + repairFormats()

// repairFormats lists what each format's repair does, from the registry.
func repairFormats() string {
	var b strings.Builder
	for _, f := range decoders.Formats {
		does := f.RepairDoes
		if f.Repair == nil {
			does = "no repair: " + f.NoRepair
		}
		b.WriteString(wrapIndented(fmt.Sprintf("  %-14s", f.ID), does, 80))
	}
	return b.String()
}

const repairNotes = `A replay that needs no repair is said to be whole and nothing is written,
unless --force asks for a copy.

Output with --json: one object {"path", "out", "format", "status" (repaired,
whole or failed), "reason", "bytesIn", "bytesOut", "bytesCut", "frames",
"framesIn", "steps": [{"action", "text"}], "facts": {...}}.

Exit status: 0 repaired (or whole), 1 could not repair (the reason is said),
2 FILE unreadable or no replay, OUT refused, or the command line is wrong.
`

// repairJSON is what `rewind repair --json` writes.
type repairJSON struct {
	Path     string         `json:"path"`
	Out      string         `json:"out,omitempty"`
	Format   model.Format   `json:"format"`
	Status   string         `json:"status"` // repaired, whole, failed
	Reason   string         `json:"reason,omitempty"`
	BytesIn  int64          `json:"bytesIn"`
	BytesOut int64          `json:"bytesOut"`
	BytesCut int64          `json:"bytesCut"`
	Frames   int            `json:"frames"`
	FramesIn int            `json:"framesIn"`
	Steps    []repairStep   `json:"steps"`
	Facts    map[string]any `json:"facts,omitempty"`
}

type repairStep struct {
	Action string `json:"action"`
	Text   string `json:"text"`
}

// repairOptions are repair's flags.
type repairOptions struct {
	out         string
	force, json bool
}

func repairCommand() *cobra.Command {
	o := &repairOptions{}
	cmd := &cobra.Command{
		Use:                   "repair FILE -o OUT [--force] [--json]",
		Short:                 "repair a damaged replay into a new file, saying what was kept and cut",
		Long:                  repairAbout,
		Annotations:           map[string]string{notesKey: repairNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "write the repaired replay to `OUT`, e.g. fixed.slp")
	f.BoolVar(&o.force, "force", false, "replace OUT if it exists; with a whole replay, write a copy")
	f.BoolVar(&o.json, "json", false, "write the report as one JSON object")
	return cmd
}

func (o *repairOptions) run(c *call, paths []string) int {
	switch {
	case len(paths) == 0:
		return c.errorf("name the replay to repair, like rewind repair broken.slp -o fixed.slp")
	case len(paths) > 1:
		return c.errorf("repairs one replay, and %d were given", len(paths))
	case o.out == "":
		return c.errorf("name the new file with -o OUT; rewind never repairs a replay in place")
	}
	path := paths[0]

	in, err := decoders.OpenRegular(path)
	if err != nil {
		return c.errorf("%s", unreadable(c.epath(path), err))
	}
	st, err := in.Stat()
	if err != nil {
		in.Close()
		return c.errorf("%s", unreadable(c.epath(path), err))
	}
	data, err := io.ReadAll(in)
	in.Close()
	if err != nil {
		return c.errorf("%s", unreadable(c.epath(path), err))
	}
	f, err := decoders.Detect(data, path)
	if err != nil {
		return c.errorf("%s: %s", c.epath(path), err)
	}
	if f.Repair == nil {
		return c.errorf("%s: %s", c.epath(path), f.NoRepair)
	}
	// a file its decoder refuses outright is no replay to repair (an
	// F-Zero GX emblem, a Slippi file whose stream is not one)
	if _, err := decoders.Decode(data, path, model.DecodeOptions{HeaderOnly: true}); err != nil {
		return c.errorf("%s: %s", c.epath(path), reason(path, err))
	}
	if why := refuseOut(st, c.epath, o.out, o.force); why != "" {
		return c.errorf("%s", why)
	}

	rep, err := f.Repair(data, model.RepairOptions{ModTime: st.ModTime()})
	j := repairJSON{Path: path, Format: f.ID, BytesIn: int64(len(data)), Steps: []repairStep{}}
	if err != nil {
		j.Status, j.Reason = "failed", repairReason(err)
		if o.json {
			writeJSON(c.stdout, j)
		}
		c.notef("could not repair %s: %s", c.epath(path), j.Reason)
		return 1
	}
	j.Frames, j.FramesIn, j.BytesCut = rep.Frames, rep.FramesIn, rep.BytesCut
	for _, s := range rep.Steps {
		j.Steps = append(j.Steps, repairStep{s.Action, s.Text})
	}
	if len(rep.Facts) > 0 {
		j.Facts = map[string]any{}
		for _, fa := range rep.Facts {
			j.Facts[fa.Key] = fa.Value
		}
	}
	out := rep.Data
	j.Status = "repaired"
	if rep.Whole != "" {
		j.Status, j.Reason = "whole", rep.Whole
		out = nil
		if o.force {
			out = data // the copy --force asks for
		}
	}
	if out != nil {
		if err := writeAtomic(o.out, c.epath, out, o.force); err != nil {
			return c.errorf("%v", err)
		}
		j.Out, j.BytesOut = o.out, int64(len(out))
	}
	if o.json {
		writeJSON(c.stdout, j)
		return 0
	}
	w := c.output()
	writeRepair(w, j)
	w.Flush()
	return 0
}

// writeRepair prints the report for people.
func writeRepair(w *output, j repairJSON) {
	in, out := w.path(j.Path), w.path(j.Out)
	switch {
	case j.Status == "whole" && j.Out != "":
		fmt.Fprintf(w, "%s needs no repair: %s\ncopied it to %s (--force)\n", in, theme.Safe(j.Reason), out)
		return
	case j.Status == "whole":
		fmt.Fprintf(w, "%s needs no repair: %s\nnothing written\n", in, theme.Safe(j.Reason))
		return
	}
	fmt.Fprintf(w, "repaired %s -> %s (%s -> %s bytes)\n", in, out, model.FormatCount(j.BytesIn), model.FormatCount(j.BytesOut))
	for _, s := range j.Steps {
		fmt.Fprintf(w, "  %-11s  %s\n", s.Action, theme.Safe(s.Text))
	}
	fmt.Fprintf(w, "%s decodes without a problem (rewind check %s)\n", out, out)
}

// unreadable words why FILE could not be read, path first.
func unreadable(path string, err error) string {
	var nr *decoders.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path + ": no such file"
	case errors.As(err, &nr):
		return nr.Error()
	}
	return path + ": " + reason(path, err)
}

// repairReason is a repair error without the format's prefix.
func repairReason(err error) string {
	var re *model.RepairError
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

// refuseOut says why OUT cannot be written, or "" when it can: it is the
// file being repaired (by any path or link), a folder, or an existing file
// without --force.
func refuseOut(in os.FileInfo, show func(string) string, outPath string, force bool) string {
	out := show(outPath)
	st, err := os.Stat(outPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(outPath)); err != nil {
			return fmt.Sprintf("-o %s: its folder %s does not exist", out, show(filepath.Dir(outPath)))
		}
		return ""
	case err != nil:
		return fmt.Sprintf("-o %s: %s", out, reason(outPath, err))
	case os.SameFile(in, st):
		return fmt.Sprintf("-o %s is the replay being repaired (the same file%s); rewind never writes to the file it reads", out, viaLink(outPath))
	case st.IsDir():
		return fmt.Sprintf("-o %s is a folder; name the new file, like -o %s", out, show(filepath.Join(outPath, "repaired"+filepath.Ext(in.Name()))))
	case !st.Mode().IsRegular():
		return fmt.Sprintf("-o %s is not a regular file; rewind writes the repair only to a new or regular file", out)
	case !force:
		return fmt.Sprintf("-o %s exists; add --force to replace it", out)
	}
	return ""
}

func viaLink(path string) string {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return " through a symlink"
	}
	return " through another path or a hard link"
}

// writeAtomic writes data to path through a temporary file in the same
// folder, so path is whole or absent. Without replace, an existing path is
// never replaced, even one created while the repair ran.
func writeAtomic(path string, show func(string) string, data []byte, replace bool) error {
	shown := show(path)
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("-o %s: cannot write in %s: %s", shown, show(dir), reason(dir, err))
	}
	name := tmp.Name()
	defer os.Remove(name) // gone after the rename or link; removed on failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("-o %s: %s", shown, reason(name, err))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("-o %s: %s", shown, reason(name, err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("-o %s: %s", shown, reason(name, err))
	}
	if err := os.Chmod(name, 0o644); err != nil {
		return fmt.Errorf("-o %s: %s", shown, reason(name, err))
	}
	if replace {
		err = os.Rename(name, path)
	} else {
		// a link fails when path exists: no replacing a file that appeared
		// meanwhile. A file system without hard links (FAT on a USB stick)
		// gets one more look, then the rename.
		err = os.Link(name, path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if _, serr := os.Lstat(path); serr == nil {
				err = fs.ErrExist
			} else {
				err = os.Rename(name, path)
			}
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("-o %s exists; add --force to replace it", shown)
	}
	if err != nil {
		return fmt.Errorf("-o %s: %s", shown, strings.TrimPrefix(reason(path, err), name+" "))
	}
	return nil
}
