package hal_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal/haltool"
)

// The ops testdata/guardcaller calls, with the function that calls each,
// the guard byte and flag entry the generator names for it, and the
// encoding of the 64-bit LSE instruction the intrinsic emits (mask, value).
var guardedCalls = []struct {
	fn, op, guard, entry string
	lseMask, lse         uint32
	lseName              string
}{
	{"main.callFetchAdd", "fetchadd64", "guardFetchadd64", "fetchadd64Flag", 0xffe0fc00, 0xf8e00000, "LDADDAL"},
	{"main.callCAS", "cas64", "guardCas64", "cas64Flag", 0xffe0fc00, 0xc8e0fc00, "CASAL"},
	{"main.callSwap", "swap64", "guardSwap64", "swap64Flag", 0xffe0fc00, 0xf8e08000, "SWPAL"},
}

const halPkg = "github.com/gohal/gohal/hal."

type inst struct {
	addr uint64
	word uint32
	asm  string
}

// TestGuardedDisassembly builds testdata/guardcaller for arm64 at
// GOARM64=v8.0 and v8.1 and reads its machine code (go tool objdump): in
// each caller of FetchAddUint64, CompareAndSwapUint64 and SwapUint64, every
// path on which the op's guard byte reads 0 runs the intrinsic inline (the
// LSE instruction, and at v8.0 also the runtime flag test and the
// LDAXR/STLXR loop) and reaches no call but the prologue's stack growth,
// while the path on which it reads non-zero calls the op's flag entry. Then,
// where qemu-aarch64 is installed, it runs the binaries with qemu's
// instruction log (-d in_asm) and checks which code really ran: no flag
// entry by default on an LSE CPU, and under GOHAL=...=llsc each op's flag
// entry with its LDAXR loop.
func TestGuardedDisassembly(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds for arm64; skipped in -short")
	}
	if b := haltool.Binding("fetchadd64"); b == haltool.Static || b == haltool.Portable {
		t.Skipf("the child build would need this test's build tags (binding %q)", b)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	bins := map[string]string{}
	for _, level := range []string{"v8.0", "v8.1"} {
		bin := filepath.Join(dir, "guardcaller-"+level)
		bins[level] = bin
		cmd := exec.Command(gobin, "build", "-o", bin, "./testdata/guardcaller")
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "GOARM64="+level, "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("GOARM64=%s go build: %v\n%s", level, err, out)
		}
		syms := nm(t, gobin, bin)
		for _, c := range guardedCalls {
			code := objdump(t, gobin, bin, c.fn)
			checkGuardedPaths(t, level, c.fn, c.op, code, syms, syms[halPkg+c.guard],
				halPkg+c.entry+".abi0", c.lseMask, c.lse, c.lseName)
		}
	}
	qemu, err := exec.LookPath("qemu-aarch64")
	if err != nil {
		t.Log("no qemu-aarch64: the disassembly is checked, the execution is not")
		return
	}
	override := "fetchadd64=llsc,cas64=llsc,swap64=llsc"
	for _, r := range []struct{ level, cpu, gohal, inlined string }{
		{"v8.0", "max", "", "true true true"},
		{"v8.1", "max", "", "true true true"},
		{"v8.0", "max", override, "false false false"},
		{"v8.1", "max", override, "false false false"},
		// No LSE: the intrinsic runs its LL/SC loop, which is hal's
		// llsc (IntrinsicFallback), so the guard stays clear.
		{"v8.0", "cortex-a53", "", "true true true"},
		{"v8.0", "cortex-a53", override, "true true true"},
	} {
		log := filepath.Join(dir, "in_asm.log")
		cmd := exec.Command(qemu, "-cpu", r.cpu, "-d", "in_asm", "-D", log, bins[r.level])
		cmd.Env = append(os.Environ(), "QEMU_LD_PREFIX=/", "GOHAL="+r.gohal)
		out, err := cmd.CombinedOutput()
		what := fmt.Sprintf("GOARM64=%s, -cpu %s, GOHAL=%q", r.level, r.cpu, r.gohal)
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		// 40 → fetch-add 2 returns 40 → CAS 42→7 succeeds → swap 9 returns 7.
		if want := "40 true 7 9 " + r.inlined + "\n"; string(out) != want {
			t.Errorf("%s: printed %q, want %q", what, out, want)
		}
		blocks := ranBlocks(t, log)
		for _, c := range guardedCalls {
			code, ran := blocks[halPkg+c.entry+".abi0"]
			switch {
			case r.inlined == "true true true" && ran:
				t.Errorf("%s: %s's flag entry ran, though its guard is clear", what, c.op)
			case r.inlined != "true true true" && !ran:
				t.Errorf("%s: %s's flag entry never ran, though its guard is set", what, c.op)
			case ran && (!strings.Contains(code, "ldaxr") || strings.Contains(code, strings.ToLower(c.lseName))):
				t.Errorf("%s: %s's flag entry ran without its LDAXR loop, or with %s:\n%s", what, c.op, c.lseName, code)
			}
		}
	}
}

// nm returns the binary's symbol addresses.
func nm(t *testing.T, gobin, bin string) map[string]uint64 {
	t.Helper()
	out, err := exec.Command(gobin, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	syms := map[string]uint64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 {
			if a, err := strconv.ParseUint(f[0], 16, 64); err == nil {
				syms[f[2]] = a
			}
		}
	}
	return syms
}

// objdump returns fn's instructions.
func objdump(t *testing.T, gobin, bin, fn string) []inst {
	t.Helper()
	out, err := exec.Command(gobin, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(fn)+"$", bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	var code []inst
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
		a, err1 := strconv.ParseUint(f[1][2:], 16, 64)
		w, err2 := strconv.ParseUint(f[2], 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot parse objdump line %q", line)
		}
		code = append(code, inst{a, uint32(w), f[3]})
	}
	if len(code) == 0 {
		t.Fatalf("objdump: no code for %s:\n%s", fn, out)
	}
	return code
}

var pcRel = regexp.MustCompile(`(-?\d+)\(PC\)$`)

// target returns the address a branch at i goes to, if PC-relative.
func target(i inst) (uint64, bool) {
	m := pcRel.FindStringSubmatch(i.asm)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return uint64(int64(i.addr) + 4*n), true
}

func isCondBranch(asm string) bool {
	op, _, _ := strings.Cut(asm, " ")
	switch op {
	case "CBZ", "CBNZ", "CBZW", "CBNZW", "TBZ", "TBNZ",
		"BEQ", "BNE", "BCS", "BHS", "BCC", "BLO", "BMI", "BPL", "BVS", "BVC", "BHI", "BLS", "BGE", "BLT", "BGT", "BLE":
		return true
	}
	return false
}

// loadAddr returns the address a MOVBU at code[k] reads, when code[k-1]
// is the ADRP that sets its base register.
func loadAddr(code []inst, k int) (uint64, string, bool) {
	var off int64
	var rd string
	if _, err := fmt.Sscanf(code[k].asm, "MOVBU %d(R27), %s", &off, &rd); err != nil || k == 0 {
		return 0, "", false
	}
	var page int64
	if _, err := fmt.Sscanf(code[k-1].asm, "ADRP %d(PC), R27", &page); err != nil {
		return 0, "", false
	}
	return uint64(int64(code[k-1].addr&^0xfff) + page + off), rd, true
}

// walk follows every path through code from its entry, taking at the
// guard test only the direction for guard value zero (or non-zero), and
// returns the instructions it reaches.
func walk(code []inst, guardTest int, zero bool) []inst {
	at := map[uint64]int{}
	for k, i := range code {
		at[i.addr] = k
	}
	seen := map[int]bool{}
	var reached []inst
	work := []int{0}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		for k < len(code) && !seen[k] {
			seen[k] = true
			i := code[k]
			reached = append(reached, i)
			op, _, _ := strings.Cut(i.asm, " ")
			if op == "RET" {
				break
			}
			tgt, rel := target(i)
			if op == "JMP" {
				if rel {
					k = at[tgt]
					continue
				}
				break // back to the entry (stack growth) or a tail call
			}
			if isCondBranch(i.asm) && rel {
				taken := at[tgt]
				if k == guardTest {
					// CBNZ branches when the guard is set, CBZ when clear.
					if strings.HasPrefix(op, "CBNZ") != zero {
						k = taken
					} else {
						k++
					}
					continue
				}
				work = append(work, taken)
			}
			k++
		}
	}
	return reached
}

func checkGuardedPaths(t *testing.T, level, fn, op string, code []inst, syms map[string]uint64, guardAddr uint64, entry string, lseMask, lse uint32, lseName string) {
	t.Helper()
	if guardAddr == 0 {
		t.Fatalf("GOARM64=%s: no guard symbol for %s", level, op)
	}
	guardTest := -1
	for k := range code {
		if a, rd, ok := loadAddr(code, k); ok && a == guardAddr && k+1 < len(code) {
			next := code[k+1].asm
			if (strings.HasPrefix(next, "CBNZW "+rd+",") || strings.HasPrefix(next, "CBZW "+rd+",")) && isCondBranch(next) {
				guardTest = k + 1
			}
		}
	}
	if guardTest < 0 {
		t.Errorf("GOARM64=%s %s: no load of %s's guard followed by a branch on it:\n%s", level, fn, op, dump(code))
		return
	}
	zero := walk(code, guardTest, true)
	var hasLSE, hasLDAXR, hasSTLXR, testsRuntime bool
	for _, i := range zero {
		op, _, _ := strings.Cut(i.asm, " ")
		if op == "CALL" && !strings.Contains(i.asm, "runtime.morestack") {
			t.Errorf("GOARM64=%s %s: a call on the path with the guard clear: %s", level, fn, i.asm)
		}
		hasLSE = hasLSE || i.word&lseMask == lse
		hasLDAXR = hasLDAXR || strings.HasPrefix(i.asm, "LDAXR ")
		hasSTLXR = hasSTLXR || strings.HasPrefix(i.asm, "STLXR ")
	}
	for k := range code {
		if a, _, ok := loadAddr(code, k); ok && a == syms["runtime.arm64HasATOMICS"] {
			testsRuntime = true
		}
	}
	if !hasLSE {
		t.Errorf("GOARM64=%s %s: no %s inline on the path with the guard clear:\n%s", level, fn, lseName, dump(code))
	}
	switch level {
	case "v8.0":
		if !hasLDAXR || !hasSTLXR || !testsRuntime {
			t.Errorf("GOARM64=v8.0 %s: want the runtime's LSE flag test and an LDAXR/STLXR loop inline (flag test %v, LDAXR %v, STLXR %v):\n%s",
				fn, testsRuntime, hasLDAXR, hasSTLXR, dump(code))
		}
	default:
		if hasLDAXR || testsRuntime {
			t.Errorf("GOARM64=%s %s: want bare %s, found a flag test or an LDAXR loop:\n%s", level, fn, lseName, dump(code))
		}
	}
	calls := false
	for _, i := range walk(code, guardTest, false) {
		calls = calls || strings.HasPrefix(i.asm, "CALL "+entry+"(SB)")
	}
	if !calls {
		t.Errorf("GOARM64=%s %s: the path with the guard set does not call %s:\n%s", level, fn, entry, dump(code))
	}
}

func dump(code []inst) string {
	var b strings.Builder
	for _, i := range code {
		fmt.Fprintf(&b, "\t%#x %08x %s\n", i.addr, i.word, i.asm)
	}
	return b.String()
}

// ranBlocks reads a qemu -d in_asm log: for every function symbol, the
// instructions of the blocks qemu translated in it (a block is translated
// when it is about to run).
func ranBlocks(t *testing.T, log string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	cur := ""
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "IN: "):
			cur = strings.TrimPrefix(line, "IN: ")
		case strings.HasPrefix(line, "0x") && cur != "":
			blocks[cur] += line + "\n"
		case line == "":
			cur = ""
		}
	}
	return blocks
}
