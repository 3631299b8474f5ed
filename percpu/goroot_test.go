package percpu

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gohal/gohal/internal/testexec"
)

// TestGOROOTRWMutexTests runs the standard library's own tests of
// sync.RWMutex (GOROOT's src/sync/rwmutex_test.go, unmodified but for its
// package clause and its dot-import) against RWMutex: parallel readers,
// the writer-exclusion hammer with GOMAXPROCS up to 10, TryLock and
// TryRLock, RLocker. The file and a package that aliases RWMutex and
// Locker are laid into the module with go test -overlay, so nothing is
// copied into the repository.
func TestGOROOTRWMutexTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary with the go command")
	}
	src := filepath.Join(runtime.GOROOT(), "src", "sync", "rwmutex_test.go")
	text, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("GOROOT's sources are not here: %v", err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const dotImport = "\t. \"sync\"\n"
	s := string(text)
	if !strings.Contains(s, dotImport) || !strings.Contains(s, "package sync_test\n") {
		t.Fatalf("%s no longer has the package clause and dot-import this test rewrites", src)
	}
	s = strings.Replace(s, "package sync_test\n", "package rwshim_test\n", 1)
	s = strings.Replace(s, dotImport, "\t. \"github.com/gohal/gohal/percpu/internal/rwshim\"\n", 1)

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shim := filepath.Join(dir, "shim.go")
	test := filepath.Join(dir, "rwmutex_test.go")
	if err := os.WriteFile(shim, []byte("// Package rwshim names percpu.RWMutex as sync's tests expect.\npackage rwshim\n\n"+
		"import (\n\t\"sync\"\n\n\t\"github.com/gohal/gohal/percpu\"\n)\n\n"+
		"type (\n\tRWMutex = percpu.RWMutex\n\tLocker  = sync.Locker\n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(wd, "internal", "rwshim")
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(pkgDir, "shim.go"):         shim,
		filepath.Join(pkgDir, "rwmutex_test.go"): test,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	// Build the test binary, then run it from the temporary directory:
	// the package's directory exists only in the overlay.
	bin := filepath.Join(dir, "rwshim.test")
	build := testexec.BuildCommand(goCmd, "test", "-c", "-vet=off", "-overlay="+ov, "-o", bin, "./internal/rwshim/")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building GOROOT's sync.RWMutex tests against percpu.RWMutex: %v\n%s", err, out)
	}
	// The binary is built for testexec.TargetGOARCH (this test's GOARCH
	// unless GOHAL_TEST_GOARCH names another): under qemu-user
	// GOHAL_TEST_EXEC names the emulator that runs it, as for the
	// subprocess tests (runChildUnder).
	// Where it is set and still cannot run the binary, the test fails
	// rather than skips, so that CI's emulated runs cannot pass unseen.
	run := testexec.Command(bin, "-test.count=1", "-test.v")
	run.Dir = dir
	out, err := run.CombinedOutput()
	t.Logf("%s", out)
	testexec.SkipUnrunnable(t, err)
	if err != nil {
		t.Fatalf("GOROOT's sync.RWMutex tests against percpu.RWMutex: %v", err)
	}
}
