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
// reads its loop of Adder.Add calls (go tool objdump) and, when Add is
// called rather than inlined, Add's own code: the only locked instruction
// on the way to the next iteration must be one LOCK XADDQ, with no
// CMPXCHG: a compare-and-swap needs a load of the word first, and that
// load waits for the previous Add's locked instruction (the Adder of
// commit e220a9c, load + LOCK CMPXCHGQ, cost 1.77 times an atomic add at
// one goroutine in halbench peers, and fails this test). No XCHG either:
// sync/atomic's Store is one on amd64, a locked instruction where the
// probe tick needs a plain store.
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
	objdump := func(sym string) string {
		out, err := exec.Command(goTool, "tool", "objdump", "-s", sym, bin).CombinedOutput()
		if err != nil {
			t.Fatalf("go tool objdump: %v\n%s", err, out)
		}
		return string(out)
	}
	code := objdump(`^main\.addMany$`)
	if !strings.Contains(code, "TEXT main.addMany") {
		t.Fatalf("no main.addMany in the disassembly:\n%s", code)
	}
	if strings.Contains(code, "counter.(*Adder).Add(SB)") {
		add := objdump(`^github.com/gohal/gohal/counter\.\(\*Adder\)\.Add$`)
		if !strings.Contains(add, "TEXT github.com/gohal/gohal/counter.(*Adder).Add(") {
			t.Fatalf("addMany calls Add, and no Add in the disassembly:\n%s", add)
		}
		code += add
	}
	if n := strings.Count(code, "LOCK XADDQ"); n != 1 {
		t.Errorf("%d LOCK XADDQ on the fast path, want 1:\n%s", n, code)
	}
	for _, op := range []string{"CMPXCHG", "XCHG"} {
		if strings.Contains(code, op) {
			t.Errorf("%s on the fast path:\n%s", op, code)
		}
	}
}
