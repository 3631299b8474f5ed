package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/spec"
)

// TestForgottenFallbackFailsToBuild adds an op to the spec, as a
// contributor would, but not its Go fallback in hal/portable.go: the
// generated code must then fail to compile on every build (default,
// purego, gohal_static, each GOARCH with a backend and one without; a race
// build compiles the same zportable.go as purego, and building the
// standard library with the race tag would take minutes), naming the
// missing function — never build and fail at
// init. It also shows the op's DispatchTable rows and portable binding need
// no hand-written line: they are generated.
func TestForgottenFallbackFailsToBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds package hal several times")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// The op has only a Go variant everywhere, so no backend needs a
	// body: what is missing is exactly hal's forgetme_portable.
	op := spec.Op{
		Name: "forgetme", GoName: "ForgetMe",
		Results: []spec.Param{{Type: "uint64"}},
		Doc:     "ForgetMe is an op added without its fallback.",
		Arch:    map[string][]spec.Variant{},
	}
	for _, nb := range backends {
		op.Arch[nb().Arch()] = []spec.Variant{spec.Portable("the only variant")}
	}
	saved := spec.Ops
	spec.Ops = append(append([]spec.Op(nil), saved...), op)
	defer func() { spec.Ops = saved }()
	files, err := generateAll()
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	for _, want := range []string{"rowForgetMe(nil, []variant[fnForgetMe]{{name: \"portable\", fn: forgetme_portable}})"} {
		if !strings.Contains(string(files["ztable.go"]), want) {
			t.Errorf("ztable.go lacks the generated %q", want)
		}
	}
	for _, name := range []string{"internal/tooling/ztable.go", "haltool/ztable.go"} {
		if want := regexp.MustCompile(`\n\tForgetMe +Entry\[func\(\) uint64\]\n`); !want.Match(files[name]) {
			t.Errorf("%s lacks the generated field %q", name, want)
		}
	}

	// A copy of the module with the regenerated package hal.
	root := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join("..", f), filepath.Join(root, f))
	}
	for _, dir := range []string{"dispatch", "hal", "internal/binding", "internal/cacheline", "internal/fencelight"} {
		copyTree(t, filepath.Join("..", dir), filepath.Join(root, dir))
	}
	for name, data := range files {
		if strings.HasPrefix(name, "../") {
			continue // lab/probe: not imported by hal
		}
		p := filepath.Join(root, "hal", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type build struct{ name, goarch, tags string }
	builds := []build{
		{"default amd64", "amd64", ""},
		{"purego", "amd64", "purego"},
		{"gohal_static", "amd64", "gohal_static"},
		{"386, no backend", "386", ""},
	}
	for _, a := range spec.Arches() {
		if a != "amd64" {
			builds = append(builds, build{a, a, ""})
		}
	}
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			args := []string{"build", "-o", os.DevNull}
			if b.tags != "" {
				args = append(args, "-tags", b.tags)
			}
			cmd := exec.Command(gobin, append(args, "./hal/")...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOARCH="+b.goarch, "GOOS=linux", "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("package hal built without forgetme_portable")
			}
			if !strings.Contains(string(out), "undefined: forgetme_portable") {
				t.Fatalf("build failed, but not naming forgetme_portable:\n%s", out)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
