package counter

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAdderFastPathDisassembly builds testdata/addcaller for amd64 and
// reads its loop of Adder.Add calls (go tool objdump): Add must be inlined
// (no call to it), and its only locked instruction on the way to the next
// iteration must be one LOCK XADDQ, with no CMPXCHG: a compare-and-swap
// needs a load of the word first, and that load waits for the previous
// Add's locked instruction (the Adder of commit e220a9c, load + LOCK
// CMPXCHGQ, cost 1.77 times an atomic add at one goroutine in halbench
// peers, and fails this test).
func TestAdderFastPathDisassembly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and disassembles a program; skipped in -short")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goTool); err != nil {
		t.Skipf("no go tool: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "addcaller")
	cmd := exec.Command(goTool, "build", "-o", bin, "./testdata/addcaller")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(goTool, "tool", "objdump", "-s", `^main\.addMany$`, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool objdump: %v\n%s", err, out)
	}
	code := string(out)
	if !strings.Contains(code, "TEXT main.addMany") {
		t.Fatalf("no main.addMany in the disassembly:\n%s", code)
	}
	if strings.Contains(code, "counter.(*Adder).Add(SB)") {
		t.Errorf("Add is called, not inlined:\n%s", code)
	}
	if n := strings.Count(code, "LOCK XADDQ"); n != 1 {
		t.Errorf("%d LOCK XADDQ in the loop, want 1:\n%s", n, code)
	}
	if strings.Contains(code, "CMPXCHG") {
		t.Errorf("a compare-and-swap in the inlined fast path:\n%s", code)
	}
}
