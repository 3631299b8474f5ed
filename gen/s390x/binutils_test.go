package s390x

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with a real s390x toolchain,
// Debian's binutils-s390x-linux-gnu, and skip when it is not installed.

// s390 is the s390x toolchain these tests use.
const s390 = asmtest.Binutils("s390x-linux-gnu")

// rawLine matches an instruction written as raw bytes: WORD and BYTE
// directives joined by "; ", then the GNU syntax as a comment.
var rawLine = regexp.MustCompile(`^\t(?:WORD|BYTE)\s+(\$0x[0-9a-f]+(?:; (?:WORD|BYTE) \$0x[0-9a-f]+)*) // (.+)$`)

// rawBytes returns the bytes the directives of a rawLine emit: a WORD's four
// big-endian, a BYTE's one.
func rawBytes(t *testing.T, line string) []byte {
	t.Helper()
	var out []byte
	for _, d := range strings.Split(strings.SplitN(line, " // ", 2)[0], ";") {
		f := strings.Fields(d)
		if len(f) != 2 || !strings.HasPrefix(f[1], "$0x") {
			t.Fatalf("bad directive %q in %q", d, line)
		}
		h := strings.TrimPrefix(f[1], "$0x")
		want := map[string]int{"WORD": 8, "BYTE": 2}[f[0]]
		if len(h) != want {
			t.Fatalf("%s with %d hex digits in %q", f[0], len(h), line)
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// TestRawMatchesBinutils assembles the GNU syntax written beside every
// raw-bytes instruction in the generated files with s390x-linux-gnu-as and
// checks that it produces exactly the bytes the emitter computed, and
// that each is one whole instruction (the lengths add up).
func TestRawMatchesBinutils(t *testing.T) {
	var want []byte
	var src strings.Builder
	n := 0
	for _, line := range strings.Split(generate(t), "\n") {
		m := rawLine.FindStringSubmatch(line)
		if m == nil {
			if f := strings.Fields(line); len(f) > 0 && (f[0] == "WORD" || f[0] == "BYTE") {
				t.Errorf("raw-bytes line without GNU syntax comment: %q", line)
			}
			continue
		}
		want = append(want, rawBytes(t, line)...)
		src.WriteString(m[2] + "\n")
		n++
	}
	if n == 0 {
		t.Fatal("no raw-bytes instruction in the s390x assembly")
	}
	// -march=z13: Go's minimum; the assembler rejects what the z13 lacks.
	got := s390.Assemble(t, src.String(), "-march=z13")
	// binutils pads .text to an alignment with NOPR (07 07).
	if len(got) < len(want) || !bytes.Equal(got[:len(want)], want) || strings.Trim(string(got[len(want):]), "\x07") != "" {
		t.Errorf("emitter wrote\n% x\nbinutils assembles\n% x\nfrom\n%s", want, got, src.String())
	}
	t.Logf("%d raw-bytes instructions match binutils", n)
}

// reserved reports an instruction that touches a register the backend must
// leave alone: R11 (REGTMP2), R12 (closure context) or R13 (g) at all, or
// R10 (REGTMP) other than in the assembler's own load of a flag byte (LARL
// of the symbol into R10, then LLGC from it).
func reserved(insn string) bool {
	if regexp.MustCompile(`%r1[123]\b`).MatchString(insn) {
		return true
	}
	if strings.Contains(insn, "%r10") {
		return !strings.HasPrefix(insn, "larl %r10,") && insn != "llgc %r1,0(%r10)"
	}
	return false
}

func TestReserved(t *testing.T) {
	for insn, want := range map[string]bool{
		"larl %r10,66bf5a":     false,
		"llgc %r1,0(%r10)":     false,
		"lg %r10,8(%r15)":      true,
		"lgr %r13,%r2":         true,
		"stg %r12,8(%r15)":     true,
		"cs %r4,%r5,0(%r2)":    false,
		"cdsg %r2,%r4,0(%r6)":  false,
		"la %r5,8(%r15,%r0)":   false,
		"laag %r4,%r11,0(%r2)": true,
	} {
		if got := reserved(insn); got != want {
			t.Errorf("reserved(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds package hal's tests for s390x and
// disassembles the binary with binutils: every variant and entry the spec
// implies must be there with the instructions the design asks for,
// including the raw-bytes ones (CDSG, LPQ, STPQ, BCR 15,0) in their place
// and STPQ followed by BCR 14,0; and no assembly function of hal's may touch
// a reserved register. It checks the committed
// hal/asm_s390x.s and hal/direct/zdirect_s390x.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestGoToolchainEncodings(t *testing.T) {
	s390.Need(t, "objdump")
	funcs := asmtest.NewFuncs("s390x", s390.Disassemble(t, asmtest.HalTestBinary(t, "s390x", "GOFLAGS="), asmtest.AllFields))
	flag := []string{"larl %r10", "llgc %r1,0(%r10)", "cgij %r1,0,7"}
	seq := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cas128 := []string{"tmll %r6,15", "jne", "cdsg %r2,%r4,0(%r6)", "stg %r2,48(%r15)", "stg %r3,56(%r15)", "jne", "mvi 64(%r15),1", "br %r14", "mvi 64(%r15),0", "br %r14", "jg"}
	lpq := []string{"tmll %r6,15", "jne", "lpq %r2,0(%r6)", "stg %r2,16(%r15)", "stg %r3,24(%r15)", "br %r14", "jg"}
	load128cdsg := []string{"tmll %r6,15", "jne", "lghi %r2,0", "lghi %r3,0", "lghi %r4,0", "lghi %r5,0", "cdsg %r2,%r4,0(%r6)", "stg %r2,16(%r15)", "stg %r3,24(%r15)"}
	stpq := []string{"tmll %r6,15", "jne", "lg %r2,16(%r15)", "lg %r3,24(%r15)", "stpq %r2,0(%r6)", "bnor %r0", "br %r14", "jg"}
	store128cdsg := []string{"tmll %r6,15", "jne", "lg %r4,16(%r15)", "lg %r5,24(%r15)", "lg %r2,0(%r6)", "lg %r3,8(%r6)", "cdsg %r2,%r4,0(%r6)", "jne", "br %r14"}
	uentry := []string{"lg %r2,8(%r15)", "lg %r3,0(%r2)", "lg %r4,8(%r2)", "xgr %r4,%r3", "cgrj %r2,%r4,7", "stg %r3,8(%r15)", "jg", "jg"}
	expect := map[string][]string{
		"pause_nop":                {"br %r14"},
		"Pause.abi0":               {"br %r14"},
		"fence_bcr14":              {"bnor %r0", "br %r14"},
		"fence_bcr15":              {"br %r0", "br %r14"},
		"Fence.abi0":               seq(flag, []string{"bnor %r0", "br %r14", "br %r0", "br %r14"}),
		"cas32_cs":                 {"llgf %r3,16(%r15)", "llgf %r4,20(%r15)", "cs %r3,%r4,0(%r2)", "jne", "mvi 24(%r15),1"},
		"cas64_cs":                 {"lg %r3,16(%r15)", "lg %r4,24(%r15)", "csg %r3,%r4,0(%r2)", "jne", "mvi 32(%r15),1"},
		"fetchadd32_laa":           {"laa %r4,%r3,0(%r2)", "st %r4,24(%r15)"},
		"fetchadd64_laa":           {"laag %r4,%r3,0(%r2)", "stg %r4,24(%r15)"},
		"fetchadd32_cs":            {"llgf %r4,0(%r2)", "ark %r5,%r4,%r3", "cs %r4,%r5,0(%r2)", "jne", "st %r4"},
		"fetchadd64_cs":            {"lg %r4,0(%r2)", "agrk %r5,%r4,%r3", "csg %r4,%r5,0(%r2)", "jne", "stg %r4"},
		"fetchor32_lao":            {"lao %r4,%r3,0(%r2)", "st %r4,24(%r15)"},
		"fetchor64_lao":            {"laog %r4,%r3,0(%r2)", "stg %r4,24(%r15)"},
		"fetchand32_lan":           {"lan %r4,%r3,0(%r2)", "st %r4,24(%r15)"},
		"fetchand64_lan":           {"lang %r4,%r3,0(%r2)", "stg %r4,24(%r15)"},
		"fetchor32_cs":             {"llgf %r4,0(%r2)", "ork %r5", "cs %r4,%r5,0(%r2)", "jne"},
		"fetchor64_cs":             {"lg %r4,0(%r2)", "ogrk %r5", "csg %r4,%r5,0(%r2)", "jne"},
		"fetchand32_cs":            {"llgf %r4,0(%r2)", "nrk %r5", "cs %r4,%r5,0(%r2)", "jne"},
		"fetchand64_cs":            {"lg %r4,0(%r2)", "ngrk %r5", "csg %r4,%r5,0(%r2)", "jne"},
		"swap32_cs":                {"llgf %r4,0(%r2)", "cs %r4,%r3,0(%r2)", "jne", "st %r4,24(%r15)"},
		"swap64_cs":                {"lg %r4,0(%r2)", "csg %r4,%r3,0(%r2)", "jne", "stg %r4,24(%r15)"},
		"loadacquire32_mov":        {"llgf %r3,0(%r2)", "st %r3,16(%r15)", "br %r14"},
		"loadacquire64_mov":        {"lg %r3,0(%r2)", "stg %r3,16(%r15)", "br %r14"},
		"storerelease32_mov":       {"st %r3,0(%r2)", "br %r14"},
		"storerelease64_mov":       {"stg %r3,0(%r2)", "br %r14"},
		"cas128_cdsg":              cas128,
		"cas128.abi0":              cas128,
		"load128_pq":               lpq,
		"load128_cdsg":             load128cdsg,
		"load128.abi0":             seq(flag, lpq, load128cdsg),
		"store128_pq":              stpq,
		"store128_cdsg":            store128cdsg,
		"store128.abi0":            seq(flag, stpq, store128cdsg),
		"cas128U.abi0":             uentry,
		"load128U.abi0":            uentry,
		"store128U.abi0":           uentry,
		"cycles_stckf":             {"stckf 8(%r15)", "br %r14"},
		"cycles_stck":              {"stck 8(%r15)", "br %r14"},
		"Cycles.abi0":              seq(flag, []string{"stckf 8(%r15)", "br %r14", "stck 8(%r15)", "br %r14"}),
		"spinlock32_cs":            {"llgf %r4,0(%r2)", "cgije %r4,0", "cgije %r3,0", "aghi %r3,-1", "j", "lghi %r4,0", "cs %r4,%r5,0(%r2)", "jne", "mvi 24(%r15),1", "br %r14", "mvi 24(%r15),0", "br %r14"},
		"cpu_syscall":              {"la %r5,8(%r15", "lgr %r2,%r5", "lghi %r3,0", "lghi %r4,0", "lghi %r1,311", "svc 0", "cgij %r2,0,7", "llgf %r2,0(%r5)", "stg %r2,8(%r15)"},
		"CPU.abi0":                 seq(flag, []string{"lghi %r1,311", "svc 0", "jg"}),
		"fetchadd32Flag.abi0":      seq(flag, []string{"laa %r4,%r3,0(%r2)", "br %r14", "cs %r4,%r5,0(%r2)"}),
		"fetchadd64Flag.abi0":      seq(flag, []string{"laag %r4,%r3,0(%r2)", "br %r14", "csg %r4,%r5,0(%r2)"}),
		"fetchadduintptrFlag.abi0": seq(flag, []string{"laag %r4,%r3,0(%r2)", "br %r14", "csg %r4,%r5,0(%r2)"}),
		"FetchOrUint32.abi0":       seq(flag, []string{"lao %r4,%r3,0(%r2)", "br %r14", "cs %r4,%r5,0(%r2)"}),
		"FetchOrUint64.abi0":       seq(flag, []string{"laog %r4,%r3,0(%r2)", "br %r14", "csg %r4,%r5,0(%r2)"}),
		"FetchAndUint32.abi0":      seq(flag, []string{"lan %r4,%r3,0(%r2)", "br %r14", "cs %r4,%r5,0(%r2)"}),
		"FetchAndUint64.abi0":      seq(flag, []string{"lang %r4,%r3,0(%r2)", "br %r14", "csg %r4,%r5,0(%r2)"}),
		"spinLockUint32.abi0":      {"cs %r4,%r5,0(%r2)"},
		"casuintptr_cs":            {"csg %r3,%r4,0(%r2)"},
		"fetchadduintptr_laa":      {"laag %r4,%r3,0(%r2)"},
		"fetchadduintptr_cs":       {"csg %r4,%r5,0(%r2)"},
		"swapuintptr_cs":           {"csg %r4,%r3,0(%r2)"},
		"loadacquireuintptr_mov":   {"lg %r3,0(%r2)"},
		"storereleaseuintptr_mov":  {"stg %r3,0(%r2)"},
	}
	var names []string
	for i := range spec.Ops {
		op := &spec.Ops[i]
		for _, v := range op.AsmVariants("s390x") {
			names = append(names, op.Symbol(v.Name))
		}
		if op.InlineBinding("s390x") || op.PlainBinding("s390x") || op.GoEntry("s390x") {
			continue // no assembly entry: Go code the compiler inlines
		}
		entry := op.GoName
		if op.GuardedBinding("s390x") {
			entry = op.FlagEntry()
		}
		names = append(names, entry+".abi0")
		if op.Uint128 {
			names = append(names, op.UEntry()+".abi0")
		}
	}
	funcs.Check(t, names, expect, reserved, "touches a register the Go toolchain reserves")
	var buf bytes.Buffer
	for _, s := range []string{"cas128_cdsg", "store128.abi0"} {
		buf.WriteString(s + ": " + strings.Join(funcs.Get(t, s), "; ") + "\n")
	}
	t.Logf("disassembly:\n%s", buf.String())
}

// TestIntrinsicBindings builds hal/testdata/guardcaller (one noinline
// caller each of FetchAddUint64, CompareAndSwapUint64 and SwapUint64) for
// s390x and reads its callers back: the spec marks cs and laa Intrinsic,
// so hal binds CAS and swap by inlining sync/atomic (the caller must hold
// CSG, and for swap the compiler's LG; CSG; JNE loop, with no call) and
// guards fetch-add (LAAG inline, and a call of the flag entry for the
// guarded path). Where qemu-s390x is installed it also runs the program on
// each CPU model of Spec.Emulator: with no override every guard is clear,
// so all three report Inlined; with fetchadd64=cs its guard is set.
func TestIntrinsicBindings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hal/testdata/guardcaller for s390x")
	}
	s390.Need(t, "objdump")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "guardcaller")
	cmd := exec.Command(gobin, "build", "-o", bin, "./testdata/guardcaller")
	cmd.Dir = filepath.Join("..", "..", "hal")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=s390x", "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	syms := s390.Disassemble(t, bin, asmtest.AllFields)
	calls := func(insns []string, sym string) bool {
		for _, i := range insns {
			if strings.HasPrefix(i, "brasl %r14,") && strings.Contains(i, sym) {
				return true
			}
		}
		return false
	}
	for fn, want := range map[string][]string{
		"main.callFetchAdd": {"laag"},
		"main.callCAS":      {"csg"},
		"main.callSwap":     {"lg", "csg", "jne"},
	} {
		got := syms[fn]
		if !asmtest.HasSeq(got, want...) {
			t.Errorf("%s: want %q in order (sync/atomic's intrinsic, inlined), disassembly:\n\t%s", fn, want, strings.Join(got, "\n\t"))
		}
		for _, i := range got {
			if strings.HasPrefix(i, "brasl") && !strings.Contains(i, "morestack") && !(fn == "main.callFetchAdd" && calls([]string{i}, "fetchadd64Flag")) {
				t.Errorf("%s calls %q: the op should be inlined", fn, i)
			}
		}
	}
	if !calls(syms["main.callFetchAdd"], "fetchadd64Flag") {
		t.Errorf("main.callFetchAdd never calls fetchadd64Flag, the guarded path:\n\t%s", strings.Join(syms["main.callFetchAdd"], "\n\t"))
	}
	qemu, err := exec.LookPath("qemu-s390x")
	if err != nil {
		t.Log("no qemu-s390x: the disassembly is checked, the execution is not")
		return
	}
	// On every CPU model CI runs (Spec.Emulator), which also checks that
	// qemu accepts each model as written.
	for _, cpu := range Spec.Emulator.CPUs {
		for gohal, want := range map[string]string{
			"":              "40 true 7 9 true true true\n",
			"fetchadd64=cs": "40 true 7 9 false true true\n",
		} {
			cmd := exec.Command(qemu, "-cpu", cpu, bin)
			cmd.Env = append(os.Environ(), "GOHAL="+gohal)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != want {
				t.Errorf("qemu-s390x -cpu %s, GOHAL=%q: printed %q, %v; want %q", cpu, gohal, out, err, want)
			}
		}
	}
}
