package ppc64le

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with a real Power toolchain,
// Debian's binutils-powerpc64le-linux-gnu, and skip when it is not
// installed.

// power is the Power toolchain these tests use.
const power = asmtest.Binutils("powerpc64le-linux-gnu")

// TestWordsMatchBinutils assembles the GNU syntax written beside every WORD
// of the generated files and of the quadword bodies (quad.go) with
// powerpc64le-linux-gnu-as and checks that it produces exactly the word
// the emitter computed. The generated files hold no WORD today (every
// instruction they use is the Go assembler's own): the quadword bodies'
// are the ones checked.
func TestWordsMatchBinutils(t *testing.T) {
	// -mpower8: the ISA level Go's ppc64le requires (lq, stq, lqarx and
	// stqcx. are in it); -mregnames: accept r4 for register 4.
	power.CheckWords(t, asmtest.Asm(t, New())+renderQuad(t, false)+renderQuad(t, true), 2*len(quadBodies), "-mpower8", "-mregnames")
}

// notAsOrdered reports an instruction (as objdump prints it) that hal's
// ppc64le design never uses: a load-and-reserve with the EH hint set
// (",1"), which tells the core the word is a lock about to be released,
// or the ordering-free eieio/mbar in place of a sync.
func notAsOrdered(insn string) bool {
	f := strings.Fields(insn)
	switch f[0] {
	case "lwarx", "ldarx", "lqarx":
		return len(f) > 1 && strings.Count(f[1], ",") != 2
	case "eieio", "mbar":
		return true
	}
	return false
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"lwarx r6,0,r3":   false,
		"lwarx r6,0,r3,1": true, // Go's LWAR (R3), $1, R6
		"ldarx r5,0,r3":   false,
		"ldarx r5,0,r3,1": true,
		"stdcx. r6,0,r3":  false,
		"hwsync":          false,
		"eieio":           true,
		"ld r4,0(r3)":     false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds package hal's tests for ppc64le and
// disassembles the binary: every variant and entry the spec lists must be
// there with the fences the design asks for (the Go assembler encodes
// every instruction of them: SYNC as hwsync, the priority hints as mr
// rN,rN, or 27,27,27 as yield, MOVD SPR(268) as mftb), and no assembly
// function of hal's may hold a load-and-reserve with the EH hint. It checks
// the committed hal/asm_ppc64le.s and hal/direct/zdirect_ppc64le.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestGoToolchainEncodings(t *testing.T) {
	power.Need(t, "objdump")
	funcs := asmtest.NewFuncs("ppc64le", power.Disassemble(t, asmtest.HalTestBinary(t, "ppc64le"), asmtest.FirstField))
	lead := map[string]string{"lwsync": "lwsync", "sync": "hwsync"}
	expect := map[string][]string{
		"pause_ppr":                  {"mr r1,r1", "mr r6,r6", "blr"},
		"pause_yield":                {"yield", "blr"},
		"fence_sync":                 {"hwsync", "blr"},
		"loadacquire32_isync":        {"lwz r4,0(r3)", "cmpw r4,r4", "bne", "isync"},
		"loadacquire64_isync":        {"ld r4,0(r3)", "cmpd r4,r4", "bne", "isync"},
		"loadacquire32_lwsync":       {"lwz r4,0(r3)", "lwsync"},
		"loadacquire64_lwsync":       {"ld r4,0(r3)", "lwsync"},
		"storerelease32_lwsync":      {"lwsync", "stw r4,0(r3)"},
		"storerelease64_lwsync":      {"lwsync", "std r4,0(r3)"},
		"cycles_isync_mftb":          {"isync", "mftb r3"},
		"cycles_mftb":                {"mftb r3"},
		"cpu_syscall":                {"li r0,302", "sc", "xor r0,r0,r0", "cmpdi r3,0", "bne", "lwz r3,0(r4)", "std r3"},
		"Pause":                      {"lbz r3", "cmpdi r3,0", "bne", "mr r1,r1", "mr r6,r6", "blr", "yield"},
		"Fence":                      {"hwsync"},
		"Cycles":                     {"lbz r3", "isync", "mftb r3", "blr", "mftb r3"},
		"CPU":                        {"lbz r3", "sc", "b"},
		"spinlock32_llsc":            {"lwz r7,0(r3)", "cmpwi r7,0", "bne", "lwsync", "lwarx r7,0,r3", "cmpwi r7,0", "bne", "stwcx. r5,0,r3", "bne", "hwsync", "stb r5", "blr", "cmpwi r4,0", "beq", "addi r4,r4,-1", "mr r1,r1", "mr r6,r6", "b", "stb r0", "blr"},
		"StoreReleaseUint32":         {"lwsync", "stw r4,0(r3)"},
		"StoreReleaseUint64":         {"lwsync", "std r4,0(r3)"},
		"StoreReleaseUintptr":        {"lwsync", "std r4,0(r3)"},
		"storereleaseuintptr_lwsync": {"lwsync", "std r4,0(r3)"},
	}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	// The read-modify-writes of each width (uintptr is 64 bits), their
	// entries (the flag byte, the branch, both bodies) and the acquire
	// loads' entries.
	entry := func(a, b []string) []string {
		return append(append([]string{"lbz r3", "cmpdi r3,0", "bne"}, a...), b...)
	}
	for _, w := range []struct{ op, name, x, cmp, load string }{
		{"32", "Uint32", "w", "cmpw", "32"},
		{"64", "Uint64", "d", "cmpd", "64"},
		{"uintptr", "Uintptr", "d", "cmpd", "64"},
	} {
		larx, stcx := "l"+w.x+"arx", "st"+w.x+"cx."
		for v, f := range lead {
			expect["cas"+w.op+"_"+v] = []string{f, larx + " r6,0,r3", w.cmp + " r6,r4", "bne", stcx + " r5,0,r3", "bne", "hwsync", "li r6,1", "stb r6", "blr", "isync", "stb r0", "blr"}
			expect["fetchadd"+w.op+"_"+v] = []string{f, larx + " r5,0,r3", "add r6,r5,r4", stcx + " r6,0,r3", "bne", "hwsync"}
			expect["swap"+w.op+"_"+v] = []string{f, larx + " r5,0,r3", stcx + " r4,0,r3", "bne", "hwsync"}
			for _, b := range []string{"or", "and"} {
				expect["fetch"+b+w.op+"_"+v] = []string{f, larx + " r5,0,r3", b + " r6,r5,r4", stcx + " r6,0,r3", "bne", "hwsync"}
			}
		}
		for _, op := range [][2]string{{"CompareAndSwap", "cas"}, {"FetchAdd", "fetchadd"}, {"Swap", "swap"}, {"FetchOr", "fetchor"}, {"FetchAnd", "fetchand"}} {
			expect[op[0]+w.name] = entry(expect[op[1]+w.op+"_lwsync"], expect[op[1]+w.op+"_sync"])
		}
		expect["loadacquire"+w.op+"_isync"] = expect["loadacquire"+w.load+"_isync"]
		expect["loadacquire"+w.op+"_lwsync"] = expect["loadacquire"+w.load+"_lwsync"]
		expect["LoadAcquire"+w.name] = entry(expect["loadacquire"+w.load+"_isync"], expect["loadacquire"+w.load+"_lwsync"])
	}
	// Every assembly function the spec implies is checked.
	checked := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		names := []string{}
		for _, v := range op.AsmVariants("ppc64le") {
			names = append(names, op.Symbol(v.Name))
		}
		if !op.GoEntry("ppc64le") {
			names = append(names, op.GoName)
		}
		checked += funcs.Check(t, names, expect, notAsOrdered, "is not an ordering the design uses")
	}
	t.Logf("checked %d functions; fetchadd64_lwsync: %s", checked, strings.Join(funcs.Get(t, "fetchadd64_lwsync"), "; "))
}
