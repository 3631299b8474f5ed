package gohal_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// modulePath is the library's module path.
const modulePath = "github.com/gohal/gohal"

// isLab reports whether the package at import path p is measurement code
// or a command (under lab/ or cmd/) rather than library code.
func isLab(p string) bool {
	for _, dir := range []string{"lab", "cmd"} {
		if d := modulePath + "/" + dir; p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// labEdges reads the output of go list -deps -f '{{.ImportPath}}
// {{join .Imports " "}}' (a package, then what it imports, per line) and
// returns each import of a lab or cmd package by a package that is not
// one, as "importer imports imported", sorted. The packages listed are
// the library's and everything they depend on, so a lab package among
// them is reached from the library through those edges.
func labEdges(list string) []string {
	var edges []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || isLab(f[0]) {
			continue
		}
		for _, imp := range f[1:] {
			if isLab(imp) {
				edges = append(edges, f[0]+" imports "+imp)
			}
		}
	}
	sort.Strings(edges)
	return edges
}

func TestLabEdges(t *testing.T) {
	list := modulePath + "/hal " + modulePath + "/dispatch unsafe\n" +
		modulePath + "/refcount " + modulePath + "/lab/refimpl sync\n" +
		modulePath + "/lab/refimpl " + modulePath + "/hal " + modulePath + "/lab/cyclebench\n" +
		modulePath + "/spin " + modulePath + "/cmd/halbench " + modulePath + "/labs\n"
	want := []string{
		modulePath + "/refcount imports " + modulePath + "/lab/refimpl",
		modulePath + "/spin imports " + modulePath + "/cmd/halbench",
	}
	if got := labEdges(list); !slices.Equal(got, want) {
		t.Errorf("labEdges = %q, want %q", got, want)
	}
}

// TestLibraryDoesNotDependOnLab holds the layout to its rule: no non-test
// package of the library (every package of the module but those under lab/
// and cmd/: hal, hal/..., dispatch, spin, counter, percpu, refcount,
// internal/...) depends on measurement code (lab/) or a command (cmd/), in
// any of the builds CI makes. It asks the go command (go list -deps, which
// leaves tests out) rather than reading import lines.
func TestLibraryDoesNotDependOnLab(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	goList := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return string(out)
	}
	type build struct {
		name string
		env  []string
		tags string
	}
	builds := []build{
		{name: "default"},
		{name: "purego", tags: "purego"},
		{name: "gohal_static", tags: "gohal_static"},
		{name: "gohal_nolinkname", tags: "gohal_nolinkname"},
		{name: "linux/386", env: []string{"GOOS=linux", "GOARCH=386"}},
	}
	// Every GOARCH with assembly (.ci/zarches, generated from gen's
	// backends).
	zarches, err := os.ReadFile(filepath.Join(".ci", "zarches"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(zarches), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			builds = append(builds, build{name: "linux/" + f[0], env: []string{"GOOS=linux", "GOARCH=" + f[0]}})
		}
	}
	for _, c := range builds {
		t.Run(strings.ReplaceAll(c.name, "/", "-"), func(t *testing.T) {
			tags := []string{"-tags=" + c.tags}
			var library []string
			for _, p := range strings.Fields(goList(c.env, append(tags, "./...")...)) {
				if !isLab(p) {
					library = append(library, p)
				}
			}
			for _, p := range []string{"hal", "dispatch", "refcount", "internal/pin"} {
				if !slices.Contains(library, modulePath+"/"+p) {
					t.Fatalf("library packages %q lack %s/%s", library, modulePath, p)
				}
			}
			args := append(tags, "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`)
			for _, e := range labEdges(goList(c.env, append(args, library...)...)) {
				t.Errorf("%s: library code depends on lab or cmd code", e)
			}
		})
	}
}

// TestHalOnlyGoSum: a program that imports only hal, in a fresh module
// outside this one, gets only golang.org/x/sys and klauspost/cpuid in its
// go.sum and go.mod after go mod tidy: what the library and the lab
// need beyond them (x/perf, gonum, the peers' xsync) never reaches a user.
func TestHalOnlyGoSum(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy in a fresh module; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "init", "example.com/halonly")
	const program = `package main

import (
	"fmt"

	"github.com/gohal/gohal/hal"
)

func main() {
	var n uint64
	fmt.Println(hal.FetchAddUint64(&n, 1))
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	run("mod", "edit", "-require="+modulePath+"@v0.0.0-00010101000000-000000000000", "-replace="+modulePath+"="+root)
	run("mod", "tidy")

	allowed := map[string]bool{"golang.org/x/sys": true, "github.com/klauspost/cpuid/v2": true}
	seen := map[string]bool{}
	check := func(file string, module func(fields []string) string) {
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := module(strings.Fields(sc.Text()))
			if m == "" || m == modulePath {
				continue
			}
			seen[m] = true
			if !allowed[m] {
				t.Errorf("%s names %s: a program importing only hal must need only golang.org/x/sys and github.com/klauspost/cpuid/v2", file, m)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	check("go.sum", func(f []string) string {
		if len(f) != 3 {
			return ""
		}
		return f[0]
	})
	inRequire := false
	check("go.mod", func(f []string) string {
		switch {
		case len(f) >= 2 && f[0] == "require" && f[1] == "(":
			inRequire = true
		case len(f) >= 1 && f[0] == ")":
			inRequire = false
		case len(f) >= 3 && f[0] == "require":
			return f[1]
		case inRequire && len(f) >= 2:
			return f[0]
		}
		return ""
	})
	// hal needs both (dispatch reads the CPU's features through them):
	// a check that saw neither would check nothing.
	for m := range allowed {
		if !seen[m] {
			t.Errorf("go.sum and go.mod do not name %s: did go mod tidy run?", m)
		}
	}
}
