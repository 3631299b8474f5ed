package arm

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with a real ARM toolchain, Debian's
// binutils-arm-linux-gnueabihf, and skip when it is not installed.

// armTools is the ARM toolchain these tests use.
const armTools = asmtest.Binutils("arm-linux-gnueabihf")

// TestWordsMatchBinutils assembles the GNU syntax written beside every WORD
// in the generated file (YIELD, which the Go assembler lacks) in ARM state
// and checks that it produces exactly the word the emitter computed.
func TestWordsMatchBinutils(t *testing.T) {
	armTools.CheckWords(t, asmtest.Asm(t, New()), 1, "-march=armv6k")
}

// notAsOrdered reports an instruction (as objdump prints it) that hal's
// arm design never uses: a doubleword access that is not exclusive (LDRD
// and STRD are single-copy atomic only with LPAE), a barrier weaker than a
// full inner-shareable one (DMB ISHST, ISHLD, OSH...), or a CP15 operation
// other than the ARMv6 data memory barrier.
func notAsOrdered(insn string) bool {
	m := strings.Fields(insn)[0]
	switch {
	case m == "ldrd" || m == "strd":
		return true
	case m == "dmb":
		return insn != "dmb ish"
	case m == "mcr":
		return insn != "mcr 15, 0, r8, cr7, cr10, {5}"
	}
	return false
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"dmb ish":                       false,
		"dmb ishst":                     true, // Go's runtime before a STREX
		"dmb sy":                        true,
		"mcr 15, 0, r8, cr7, cr10, {5}": false,
		"mcr 15, 0, r8, cr7, cr10, {4}": true, // the v6 DSB
		"ldrd r2, [r1]":                 true,
		"ldrexd r4, [r1]":               false,
		"ldr r0, [r1]":                  false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds package hal's tests for arm (GOARM=7)
// and disassembles the binary: every variant and entry the spec lists must
// be there with the barriers the design asks for, including what the Go
// assembler encodes itself (DMB ISH, the CP15 barrier, LDREXD/STREXD
// register pairs), and no assembly function of hal's may hold a weaker
// barrier or a plain doubleword access. It checks the committed
// hal/asm_arm.s and hal/direct/zdirect_arm.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestGoToolchainEncodings(t *testing.T) {
	armTools.Need(t, "objdump")
	// objdump prints an LDREXD/STREXD pair by its first register
	// ("ldrexd r4, [r1]" loads r4 and r5): the A1 encoding names only it.
	syms := armTools.Disassemble(t, asmtest.HalTestBinary(t, "arm", "GOARM=7"), asmtest.AllFields)
	funcs := asmtest.NewFuncs("arm", syms)
	bar := map[string]string{"dmb": "dmb ish", "mcr": "mcr 15, 0, r8, cr7, cr10, {5}"}
	expect := map[string][]string{
		"pause_yield": {"yield", "add pc, lr, #0"},
		"pause_nop":   {"add pc, lr, #0"},
		"cpu_syscall": {"add r0, sp, #4", "mov r1, #0", "mov r2, #0", "movw r7, #345", "svc 0x00000000", "cmp r0, #0"},
		"Pause":       {"ldrb r0, [fp]", "cmp r0, #0", "yield"},
		"CPU":         {"svc 0x00000000"},
	}
	for v, b := range bar {
		w64 := []string{"ands r0, r1, #7", b, "ldrexd r4, [r1]"}
		expect["cas32_"+v] = []string{b, "ldrex r0, [r1]", "cmp r0, r2", "strex r4, r3, [r1]", "cmp r4, #0", b, b}
		expect["cas64_"+v] = append(w64, "cmp r4, r2", "cmp r5, r3", "strexd r0, r6, [r1]", "cmp r0, #0", b, b)
		expect["fetchadd32_"+v] = []string{b, "ldrex r0, [r1]", "add r3, r0, r2", "strex r4, r3, [r1]", b}
		expect["fetchadd64_"+v] = append(w64, "adds r6, r4, r2", "adc r7, r5, r3", "strexd r0, r6, [r1]", b)
		expect["swap32_"+v] = []string{b, "ldrex r0, [r1]", "strex r4, r2, [r1]", b}
		expect["swap64_"+v] = append(w64, "strexd r0, r2, [r1]", b)
		expect["fetchor32_"+v] = []string{b, "ldrex r0, [r1]", "orr r3, r0, r2", "strex r4, r3, [r1]", b}
		expect["fetchor64_"+v] = append(w64, "orr r6, r4, r2", "orr r7, r5, r3", "strexd r0, r6, [r1]", b)
		expect["fetchand32_"+v] = []string{b, "ldrex r0, [r1]", "and r3, r0, r2", "strex r4, r3, [r1]", b}
		expect["fetchand64_"+v] = append(w64, "and r6, r4, r2", "and r7, r5, r3", "strexd r0, r6, [r1]", b)
		expect["loadacquire32_"+v] = []string{"ldr r0, [r1]", b}
		expect["loadacquire64_"+v] = []string{"ands r0, r1, #7", "ldrexd r2, [r1]", b}
		expect["storerelease32_"+v] = []string{b, "str r2, [r1]"}
		expect["storerelease64_"+v] = []string{"ands r0, r1, #7", b, "ldrexd r4, [r1]", "strexd r0, r2, [r1]"}
		expect["fence_"+v] = []string{b, "add pc, lr, #0"}
		expect["spinlock32_"+v] = []string{"ldr r0, [r1]", "yield", b, "ldrex r0, [r1]", "strex r4, r3, [r1]", b}
		for _, w := range []string{"cas", "fetchadd", "swap", "loadacquire", "storerelease"} {
			expect[w+"uintptr_"+v] = expect[w+"32_"+v]
		}
	}
	// The entries: flag byte, then the dmb body first.
	for _, op := range []string{"cas32", "cas64", "fetchadd64", "swap64", "fetchor64", "fetchand64", "loadacquire64", "storerelease64", "fence"} {
		o := spec.Find(op)
		expect[o.GoName] = append([]string{"ldrb r0, [fp]", "cmp r0, #1"}, expect[op+"_dmb"]...)
	}
	n := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		names := []string{}
		for _, v := range op.AsmVariants("arm") {
			names = append(names, op.Symbol(v.Name))
		}
		n += funcs.Check(t, names, expect, notAsOrdered, "is not in hal's arm design")
	}
	if n < 40 {
		t.Errorf("checked only %d variants", n)
	}
	t.Logf("fetchadd64_dmb: %s", strings.Join(funcs.Get(t, "fetchadd64_dmb"), "; "))
}
