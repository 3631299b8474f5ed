// Command gen writes gohal's assembly and its Go declarations into package
// hal, from the op spec.
//
// It writes package hal and its sub-package hal/direct from the op spec in
// package spec (github.com/gohal/gohal/gen/spec):
//
//	cd gen && go run . -out ../hal
//
// (go generate ./... at the repository root runs exactly that.) The output
// is a pure function of the spec and the backends: running it twice writes
// the same bytes, and the test in this module fails when hal's copies are
// stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gohal/gohal/gen/arches"
	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/rwread"
)

// backends are gen/arches' constructors, one per architecture.
var backends = arches.Backends

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
	rw, err := rwread.Files()
	if err != nil {
		return nil, err
	}
	for name, data := range rw {
		all[name] = data
	}
	return all, nil
}

// generatedLine is Go's convention for a generated file
// (go.dev/s/generatedcode): a line of this form before the first non-comment.
var generatedLine = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// isGeneratedName reports whether name (relative to hal's directory, as
// generateAll's keys are) follows the naming rule: its base starts with z,
// as x/sys's generated files do, or it is hal's own asm_<arch>.s, the name
// gohal's design fixes.
func isGeneratedName(name string) bool {
	dir, base := path.Split(name)
	if strings.HasPrefix(base, "z") {
		return true
	}
	return dir == "" && strings.HasPrefix(base, "asm_") && strings.HasSuffix(base, ".s")
}

// strays returns the files in the directories gen writes (out, and out
// joined with each generated name's directory) that look generated but
// that generateAll no longer writes: those named by the rule of
// isGeneratedName and those with a "Code generated ... DO NOT EDIT." line.
// Names are relative to out, with slashes. A file a renamed or removed
// output left behind is one; so is a hand-written file named like a
// generated one.
func strays(out string, files map[string][]byte) ([]string, error) {
	dirs := map[string]bool{"": true}
	for name := range files {
		if d, _ := path.Split(name); d != "" {
			dirs[d] = true
		}
	}
	var found []string
	for d := range dirs {
		entries, err := os.ReadDir(filepath.Join(out, filepath.FromSlash(d)))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name := d + e.Name()
			if !e.Type().IsRegular() || files[name] != nil {
				continue
			}
			if !isGeneratedName(name) {
				data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
				if err != nil {
					return nil, err
				}
				if !generatedLine.Match(header(data)) {
					continue
				}
			}
			found = append(found, name)
		}
	}
	sort.Strings(found)
	return found, nil
}

// header is data up to its package clause (all of it when there is none,
// as in an assembly file).
func header(data []byte) []byte {
	if i := bytes.Index(data, []byte("\npackage ")); i >= 0 {
		return data[:i]
	}
	return data
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
	// A generated file gen no longer writes (an output renamed or
	// removed) is deleted, so that go generate leaves no stale copy to
	// compile; one that is not generated but named as if it were is an
	// error for a person to resolve.
	stale, err := strays(*out, files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for _, name := range stale {
		p := filepath.Join(*out, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		if !generatedLine.Match(header(data)) {
			fmt.Fprintf(os.Stderr, "gen: %s is named like a generated file but is not one: rename it (see gen/README.md, \"gen: gohal's assembly generator\")\n", p)
			os.Exit(1)
		}
		if err := os.Remove(p); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "gen: removed", p, "(no longer generated)")
	}
	// The generated parts of hand-written files (the README's list of
	// GOARCHes, docs/variants.md's table), between their markers.
	for name, sps := range backend.Splices(archNames()) {
		p := filepath.Join(*out, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err == nil {
			var fresh []byte
			if fresh, err = backend.Apply(data, sps); err == nil && !bytes.Equal(fresh, data) {
				err = os.WriteFile(p, fresh, 0o644)
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "gen: %s: %v\n", p, err)
			os.Exit(1)
		}
	}
}

// archNames returns the GOARCH of every backend, in the order of backends.
func archNames() []string {
	var out []string
	for _, nb := range backends {
		out = append(out, nb().Arch())
	}
	return out
}
