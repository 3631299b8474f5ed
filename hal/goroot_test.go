package hal_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/gohal/gohal/internal/testexec"
)

// TestGOROOTSyncAtomicTests runs the standard library's own tests of
// sync/atomic (GOROOT's src/sync/atomic/atomic_test.go, unmodified but for
// its package clause and its dot-import) against hal: a shim package
// names every function of sync/atomic as hal's (the unsafe.Pointer forms
// and the types stay sync/atomic's, as hal has no pointer ops), so the
// tests' hammers, their 64-bit alignment checks on 32-bit architectures
// (TestUnaligned64: a misaligned word must panic) and their nil checks run
// hal's chosen variants. The file and the shim are laid into the module
// with go test -overlay, so nothing is copied into the repository.
func TestGOROOTSyncAtomicTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary with the go command")
	}
	dir := filepath.Join(runtime.GOROOT(), "src", "sync", "atomic")
	text, err := os.ReadFile(filepath.Join(dir, "atomic_test.go"))
	if err != nil {
		t.Skipf("GOROOT's sources are not here: %v", err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const dotImport = "\t. \"sync/atomic\"\n"
	s := string(text)
	if !strings.Contains(s, dotImport) || !strings.Contains(s, "package atomic_test\n") {
		t.Fatalf("%s no longer has the package clause and dot-import this test rewrites", dir)
	}
	s = strings.Replace(s, "package atomic_test\n", "package atomicshim_test\n", 1)
	s = strings.Replace(s, dotImport, "\t. \"github.com/gohal/gohal/hal/internal/atomicshim\"\n", 1)
	shimSrc, n, err := atomicShim(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n < 35 {
		t.Fatalf("the shim routes only %d functions through hal; reading sync/atomic's sources is broken", n)
	}

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	shim := filepath.Join(tmp, "shim.go")
	test := filepath.Join(tmp, "atomic_test.go")
	if err := os.WriteFile(shim, []byte(shimSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(wd, "internal", "atomicshim")
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(pkgDir, "shim.go"):        shim,
		filepath.Join(pkgDir, "atomic_test.go"): test,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	// Build the test binary, then run it from the temporary directory:
	// the package's directory exists only in the overlay.
	bin := filepath.Join(tmp, "atomicshim.test")
	build := testexec.BuildCommand(goCmd, "test", "-c", "-vet=off", "-overlay="+ov, "-o", bin, "./internal/atomicshim/")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building GOROOT's sync/atomic tests against hal: %v\n%s", err, out)
	}
	// The binary is built for testexec.TargetGOARCH (this test's GOARCH
	// unless GOHAL_TEST_GOARCH names another): under qemu-user
	// GOHAL_TEST_EXEC names the emulator that runs it. Where it is set and
	// still cannot run the binary, the test fails rather than skips, so
	// that CI's emulated runs cannot pass unseen.
	goarch := testexec.TargetGOARCH()
	args := []string{"-test.count=1", "-test.short", "-test.v"}
	switch emulated := testexec.Emulated(); {
	case goarch == "arm64" && emulated:
		// qemu-aarch64 (7.2) does not keep an STLR before a later LDAR
		// in order, so Go's own store/load seq-cst tests fail under it
		// with sync/atomic itself: they can only run on hardware.
		args = append(args, "-test.skip", "^TestStoreLoadSeqCst(32|64)$")
		t.Log("TestStoreLoadSeqCst32/64 skipped: qemu-aarch64 reorders STLR and a later LDAR, for sync/atomic too")
	case strings.HasPrefix(goarch, "ppc64") && emulated:
		// qemu-ppc64le (7.2) now and then reports a nil atomic access's
		// SIGSEGV at a wrong, non-nil address, which the runtime must
		// take for a real fault ("unexpected fault address", fatal), not
		// a nil dereference, in sync/atomic's own (*Int32).Add as in
		// hal's ops. Hardware reports address 0.
		args = append(args, "-test.skip", "^TestNilDeref$")
		t.Log("TestNilDeref skipped: qemu-ppc64le now and then reports a nil atomic access's fault at a wrong address, for sync/atomic too")
	}
	run := testexec.Command(bin, args...)
	run.Dir = tmp
	out, err := run.CombinedOutput()
	t.Logf("%s", out)
	testexec.SkipUnrunnable(t, err)
	if err != nil {
		t.Fatalf("GOROOT's sync/atomic tests against hal: %v", err)
	}
}

// atomicShim returns the source of package atomicshim: every exported
// function of sync/atomic (read from its sources in dir) bound to hal's
// function of that name, but the unsafe.Pointer forms, and every exported
// type an alias of sync/atomic's. It also returns how many functions go
// through hal.
func atomicShim(dir string) (string, int, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", 0, err
	}
	funcs := map[string]bool{}
	types := map[string]string{} // name -> type parameter list, "" if none
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return "", 0, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					funcs[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					tp := ""
					if ts.TypeParams != nil {
						var ps []string
						for _, p := range ts.TypeParams.List {
							for _, n := range p.Names {
								ps = append(ps, n.Name)
							}
						}
						tp = strings.Join(ps, ", ")
					}
					types[ts.Name.Name] = tp
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("// Package atomicshim names hal's functions as sync/atomic's tests expect.\npackage atomicshim\n\n")
	b.WriteString("import (\n\t\"sync/atomic\"\n\n\t\"github.com/gohal/gohal/hal\"\n)\n\n")
	var tnames, fnames []string
	for n := range types {
		tnames = append(tnames, n)
	}
	for n := range funcs {
		fnames = append(fnames, n)
	}
	sort.Strings(tnames)
	sort.Strings(fnames)
	for _, n := range tnames {
		if tp := types[n]; tp != "" {
			fmt.Fprintf(&b, "type %s[%s any] = atomic.%s[%s]\n", n, tp, n, tp)
		} else {
			fmt.Fprintf(&b, "type %s = atomic.%s\n", n, n)
		}
	}
	viaHal := 0
	for _, n := range fnames {
		pkg := "hal"
		if strings.Contains(n, "Pointer") {
			pkg = "atomic"
		} else {
			viaHal++
		}
		fmt.Fprintf(&b, "var %s = %s.%s\n", n, pkg, n)
	}
	return b.String(), viaHal, nil
}
