// Command gen writes gohal's generated assembly and its Go declarations
// into package hal and its sub-package hal/direct, from the op spec in
// gen/spec:
//
//	cd gen && go run . -out ../hal
//
// (go generate ./... at the repository root runs exactly that.) The output
// is a pure function of the spec and the backends: running it twice writes
// the same bytes, and the test in this module fails when hal's copies are
// stale.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/gohal/gohal/gen/amd64"
	"github.com/gohal/gohal/gen/arm64"
	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/riscv64"
)

// backends lists one constructor per architecture. A new architecture is
// one more line here and one more package beside amd64, arm64 and riscv64
// (see ARCHITECTURES.md at the repository root).
var backends = []func() backend.Backend{
	func() backend.Backend { return amd64.New() },
	func() backend.Backend { return arm64.New() },
	func() backend.Backend { return riscv64.New() },
}

// generateAll runs every backend and returns all files by name.
func generateAll() (map[string][]byte, error) {
	all := map[string][]byte{}
	var arches []string
	for _, nb := range backends {
		b := nb()
		arches = append(arches, b.Arch())
		files, err := backend.Generate(b)
		if err != nil {
			return nil, err
		}
		for name, data := range files {
			all[name] = data
		}
	}
	common, err := backend.CommonFiles(arches)
	if err != nil {
		return nil, err
	}
	for name, data := range common {
		all[name] = data
	}
	return all, nil
}

func main() {
	// avo's build package registers its own flags on flag.CommandLine,
	// so this command uses a FlagSet of its own.
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	out := fs.String("out", "../hal", "directory of package hal")
	fs.Parse(os.Args[1:])
	files, err := generateAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
