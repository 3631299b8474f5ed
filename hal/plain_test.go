package hal_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/cacheline"
)

// Message passing with plain data, per release store: thread 0 writes the
// data with a plain store, then the flag with the op; thread 1 reads the
// flag with an acquire load and, only if it is set (so that the race
// detector sees no race), the data with a plain load. Flag set with the
// data unset is forbidden. Where the op is bound "plain", this is what the
// compiler must keep in order: two plain stores in program order.
func TestLitmusMessagePassingPlainData(t *testing.T) {
	iters := litmusIters()
	// Each word on a cache line of its own, so that one publish does
	// not move another's line.
	type dataWord struct{ data uint64 }
	type f32Word struct{ f32 uint32 }
	type f64Word struct{ f64 uint64 }
	type fpWord struct{ fp uintptr }
	type words struct {
		dataWord
		_ [cacheline.Size - unsafe.Sizeof(dataWord{})%cacheline.Size]byte
		f32Word
		_ [cacheline.Size - unsafe.Sizeof(f32Word{})%cacheline.Size]byte
		f64Word
		_ [cacheline.Size - unsafe.Sizeof(f64Word{})%cacheline.Size]byte
		fpWord
		_ [cacheline.Size - unsafe.Sizeof(fpWord{})%cacheline.Size]byte
	}
	for _, c := range []struct {
		op      string
		publish func(w *words)
		flag    func(w *words) bool
	}{
		{"storerelease32", func(w *words) { hal.StoreReleaseUint32(&w.f32, 1) }, func(w *words) bool { return hal.LoadAcquireUint32(&w.f32) == 1 }},
		{"storerelease64", func(w *words) { hal.StoreReleaseUint64(&w.f64, 1) }, func(w *words) bool { return hal.LoadAcquireUint64(&w.f64) == 1 }},
		{"storereleaseuintptr", func(w *words) { hal.StoreReleaseUintptr(&w.fp, 1) }, func(w *words) bool { return hal.LoadAcquireUintptr(&w.fp) == 1 }},
	} {
		t.Run(c.op+"/"+string(haltool.Binding(c.op)), func(t *testing.T) {
			ws := make([]words, iters)
			var i0, i1 int
			counts := litmus(t, iters,
				func(*litmusWords) uint64 {
					w := &ws[i0]
					i0++
					w.data = 1
					c.publish(w)
					return 0
				},
				func(*litmusWords) uint64 {
					w := &ws[i1]
					i1++
					if !c.flag(w) {
						return 0
					}
					return 2 | w.data
				})
			t.Logf("MP outcomes (0,flag<<1|data): %v", counts)
			if n := counts[[2]uint64{0, 2}]; n > 0 {
				t.Errorf("MP: forbidden outcome flag=1,data=0 seen %d times in %d", n, iters)
			}
		})
	}
}

// plainArches are the GOARCHes whose release store hal binds "plain", with
// how their objdump writes the flag's store in testdata/plaincaller (the
// struct's flag, flag6 and flagp at offsets 16, 24 and 32 from the base
// register) and the data access at offset 0.
var plainArches = []struct {
	goarch, file string
	flag         [3]string // the store's destination, per publish function
	data         *regexp.Regexp
	call         *regexp.Regexp
	qemu         string
}{
	{"amd64", "zapi_amd64.go", [3]string{", 0x10(AX)", ", 0x18(AX)", ", 0x20(AX)"},
		regexp.MustCompile(`\b0\(AX\)`), regexp.MustCompile(`^CALL|^JMP [^0-9]`), ""},
	{"s390x", "zapi_s390x.go", [3]string{" 16(R2),", " 24(R2),", " 32(R2),"},
		regexp.MustCompile(`[ ,]\(R2\)`), regexp.MustCompile(`^(BL|CALL|BR R[0-9]+$)`), "qemu-s390x"},
}

// TestPlainDisassembly builds testdata/plaincaller for each GOARCH whose
// release stores are bound "plain" and reads its machine code: in each
// function, hal's release store is exactly one store instruction, to the
// flag; the data's store (publish*) or load (handoff) comes before it; and
// nothing is called. On amd64 it also reads FenceLight's inlined code
// (checkFenceLight). Where the GOARCH is native or its qemu is installed,
// it runs the binary too.
//
// What the gc compiler guarantees, and this checks: every memory
// operation of a function is on one chain of memory states in program
// order, and the scheduler keeps a load before any store that follows it
// in that chain, so earlier loads and stores are not moved after the
// plain store; an aligned word store is one MOV (ST/STG, MVHI on s390x),
// so it does not tear. What the compiler may do, and release semantics
// allow: drop a store that a later store to the same word shadows with
// nothing reading memory in between (dead-store elimination), and move a
// later access before it.
func TestPlainDisassembly(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds; skipped in -short")
	}
	if b := haltool.Binding("storerelease32"); b == haltool.Static || b == haltool.Portable {
		t.Skipf("the child build would need this test's build tags (binding %q)", b)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	for _, a := range plainArches {
		t.Run(a.goarch, func(t *testing.T) {
			bin := filepath.Join(dir, "plaincaller-"+a.goarch)
			cmd := exec.Command(gobin, "build", "-o", bin, "./testdata/plaincaller")
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+a.goarch, "CGO_ENABLED=0", "GOFLAGS=")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			for i, fn := range []string{"publish32", "publish64", "publishUintptr", "handoff"} {
				flag := a.flag[min(i, 2)]
				if fn == "handoff" {
					flag = a.flag[0]
				}
				checkPlainStore(t, gobin, bin, a.file, "main."+fn, flag, a.data, a.call)
			}
			if a.goarch == "amd64" {
				checkFenceLight(t, gobin, bin)
			}
			var run *exec.Cmd
			switch {
			case a.goarch == runtime.GOARCH:
				run = exec.Command(bin)
			case a.qemu != "":
				q, err := exec.LookPath(a.qemu)
				if err != nil {
					t.Logf("no %s: the disassembly is checked, the execution is not", a.qemu)
					return
				}
				run = exec.Command(q, bin)
			default:
				return
			}
			run.Env = append(os.Environ(), "QEMU_LD_PREFIX=/", "GOHAL=")
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			if want := "3 0 1 1 plain\n"; string(out) != want {
				t.Errorf("printed %q, want %q", out, want)
			}
		})
	}
}

// checkPlainStore checks one function of plaincaller (see
// TestPlainDisassembly).
func checkPlainStore(t *testing.T, gobin, bin, file, fn, flag string, data, call *regexp.Regexp) {
	t.Helper()
	out, err := exec.Command(gobin, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(fn)+"$", bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	var hal []int
	dataAt := -1
	var code []string
	for _, line := range strings.Split(string(out), "\n") {
		var f []string
		for _, s := range strings.Split(line, "\t") {
			if s = strings.TrimSpace(s); s != "" {
				f = append(f, s)
			}
		}
		if len(f) < 4 || !strings.HasPrefix(f[1], "0x") {
			continue
		}
		asm := f[3]
		if call.MatchString(asm) {
			t.Errorf("%s calls: %s\n%s", fn, asm, out)
		}
		if strings.HasPrefix(f[0], file+":") {
			hal = append(hal, len(code))
		} else if dataAt < 0 && data.MatchString(asm) {
			dataAt = len(code)
		}
		code = append(code, asm)
	}
	switch {
	case len(hal) != 1:
		t.Errorf("%s: %d instructions from %s, want the one store:\n%s", fn, len(hal), file, out)
	case !strings.Contains(code[hal[0]]+",", flag):
		t.Errorf("%s: hal's instruction %q is not the store to the flag (%q):\n%s", fn, code[hal[0]], flag, out)
	case dataAt < 0 || dataAt > hal[0]:
		t.Errorf("%s: the data access is not before the release store:\n%s", fn, out)
	}
}

// checkFenceLight checks plaincaller's light on amd64: FenceLight is
// inlined as a test of hal's flag byte with a call of Fence on one
// branch, the data's store comes before the test and the later load
// after it, so the compiler moved neither across the fence.
func checkFenceLight(t *testing.T, gobin, bin string) {
	t.Helper()
	out, err := exec.Command(gobin, "tool", "objdump", "-s", "^main.light$", bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	store, test, call, load := -1, -1, -1, -1
	for i, line := range strings.Split(string(out), "\n") {
		switch {
		case store < 0 && regexp.MustCompile(`MOVQ \$0x1, 0\(`).MatchString(line):
			store = i
		case strings.Contains(line, "hal.fenceHeavyReaches(SB)"):
			test = i
		case strings.Contains(line, "CALL github.com/gohal/gohal/hal.Fence"):
			call = i
		case regexp.MustCompile(`MOVQ 0x8\(`).MatchString(line):
			load = i
		}
	}
	if store < 0 || test < 0 || call < 0 || load < 0 || !(store < test && test < call && call < load) {
		t.Errorf("main.light: want the data store, the flag test, the call of Fence, then the load (lines %d %d %d %d):\n%s",
			store, test, call, load, out)
	}
}
