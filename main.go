// rewind is a terminal replay browser and debugger for game replays: the
// formats the decoders registry lists (decoders.Formats), each declared in
// its own package under decoders/. The commands are package cli; this
// file is only the entry point that `go run .` and `go install .` build,
// and the one place that can embed the sample library at testdata/samples.
package main

import (
	"embed"
	"io/fs"
	"os"

	"rewind/cli"
)

// samplesFS is the built-in sample library: small real replays of every format.
//
//go:embed testdata/samples
var samplesFS embed.FS

func main() {
	samples, err := fs.Sub(samplesFS, "testdata") // a folder holding samples/
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, samples))
}
