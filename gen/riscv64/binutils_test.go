package riscv64

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with a real RISC-V toolchain,
// Debian's binutils-riscv64-linux-gnu, and skip when it is not installed.

// riscv is the RISC-V toolchain these tests use.
const riscv = asmtest.Binutils("riscv64-linux-gnu")

// TestWordsMatchBinutils assembles the GNU syntax written beside every WORD
// in the generated file with riscv64-linux-gnu-as and checks that it
// produces exactly the word the emitter computed.
func TestWordsMatchBinutils(t *testing.T) {
	// No C extension: every instruction is 4 bytes.
	riscv.CheckWords(t, asmtest.Asm(t, New()), 1, "-march=rv64g_zihintpause")
}

// normalize maps spellings that depend on the binutils version to one:
// binutils prints PAUSE as "fence w,unknown" when the binary, as Go's do,
// carries no RISC-V attributes naming Zihintpause.
func normalize(insn string) string {
	if insn == "fence w,unknown" {
		return "pause"
	}
	return insn
}

// notAsOrdered reports an instruction (as objdump prints it) with other
// ordering than hal's riscv64 design: an LR or AMO without both aq and rl,
// an SC without rl (or with aq), or the I/O-ordering FENCE IORW,IORW that
// Go's FENCE mnemonic assembles to.
func notAsOrdered(insn string) bool {
	m := strings.Fields(insn)[0]
	switch {
	case strings.HasPrefix(m, "lr.") || strings.HasPrefix(m, "amo"):
		return !strings.HasSuffix(m, ".aqrl")
	case strings.HasPrefix(m, "sc."):
		return !strings.HasSuffix(m, ".rl")
	}
	return insn == "fence" || insn == "fence iorw,iorw"
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"lr.d.aqrl a3,(a0)":        false,
		"lr.d.aq a3,(a0)":          true, // Go's LRD
		"lr.w a3,(a0)":             true,
		"sc.d.rl a4,a2,(a0)":       false,
		"sc.w a4,a2,(a0)":          true,
		"sc.d.aqrl a4,a2,(a0)":     true,
		"amoadd.d.aqrl a2,a1,(a0)": false,
		"amoswap.w.aq a2,a1,(a0)":  true,
		"amoadd.d a2,a1,(a0)":      true,
		"fence":                    true, // Go's FENCE, as objdump prints it
		"fence rw,rw":              false,
		"fence r,rw":               false,
		"ld a1,0(a0)":              false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds package hal's tests for riscv64 and
// disassembles the binary: every variant and entry the spec lists must be
// there with the orderings the design asks for, including the
// instructions the Go assembler encodes itself (SC.rl, AMO*.aqrl, RDTIME),
// and no assembly function of hal's may hold an LR, SC or AMO with weaker
// ordering bits or Go's FENCE IORW,IORW. It checks the committed
// hal/asm_riscv64.s and hal/direct/zdirect_riscv64.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestGoToolchainEncodings(t *testing.T) {
	riscv.Need(t, "objdump")
	syms := riscv.Disassemble(t, asmtest.HalTestBinary(t, "riscv64"), asmtest.FirstField)
	for _, insns := range syms {
		for i, s := range insns {
			insns[i] = normalize(s)
		}
	}
	funcs := asmtest.NewFuncs("riscv64", syms)
	w := map[int]string{32: "w", 64: "d"}
	expect := map[string][]string{
		"pause_pause":          {"pause", "ret"},
		"fence_fence":          {"fence rw,rw", "ret"},
		"loadacquire32_fence":  {"lwu a1,0(a0)", "fence r,rw"},
		"loadacquire64_fence":  {"ld a1,0(a0)", "fence r,rw"},
		"storerelease32_fence": {"fence rw,w", "sw a1,0(a0)"},
		"storerelease64_fence": {"fence rw,w", "sd a1,0(a0)"},
		"cycles_rdtime":        {"rdtime a0"},
		"cpu_syscall":          {"li a7,168", "ecall", "bnez a0", "lwu a0,8(sp)", "sd a0,8(sp)"},
		"Pause":                {"pause"},
		"Fence":                {"fence rw,rw"},
		"Cycles":               {"rdtime a0"},
	}
	for _, bits := range []int{32, 64} {
		x := w[bits]
		n := strconv.Itoa(bits)
		lr, sc := "lr."+x+".aqrl", "sc."+x+".rl"
		expect["cas"+n+"_llsc"] = []string{lr, "bne", sc, "bnez"}
		expect["fetchadd"+n+"_amo"] = []string{"amoadd." + x + ".aqrl"}
		expect["swap"+n+"_amo"] = []string{"amoswap." + x + ".aqrl"}
		add := "add"
		if bits == 32 {
			add = "addw"
		}
		expect["fetchadd"+n+"_llsc"] = []string{lr, add, sc, "bnez"}
		expect["swap"+n+"_llsc"] = []string{lr, sc, "bnez"}
		// The entries: flag byte, branch, both bodies.
		expect["FetchAddUint"+n] = []string{"lbu t0", "bnez t0", "amoadd." + x + ".aqrl", "ret", lr, add, sc, "bnez"}
		expect["SwapUint"+n] = []string{"lbu t0", "bnez t0", "amoswap." + x + ".aqrl", "ret", lr, sc, "bnez"}
		expect["CompareAndSwapUint"+n] = []string{lr, "bne", sc, "bnez"}
		for _, b := range []string{"or", "and"} {
			expect["fetch"+b+n+"_amo"] = []string{"amo" + b + "." + x + ".aqrl"}
			expect["fetch"+b+n+"_llsc"] = []string{lr, b, sc, "bnez"}
			expect["Fetch"+strings.ToUpper(b[:1])+b[1:]+"Uint"+n] = []string{"lbu t0", "bnez t0", "amo" + b + "." + x + ".aqrl", "ret", lr, b, sc, "bnez"}
		}
	}
	// The uintptr forms are the 64-bit bodies.
	for _, c := range [][2]string{{"fetchadduintptr_amo", "fetchadd64_amo"}, {"fetchadduintptr_llsc", "fetchadd64_llsc"},
		{"swapuintptr_amo", "swap64_amo"}, {"swapuintptr_llsc", "swap64_llsc"},
		{"loadacquireuintptr_fence", "loadacquire64_fence"}, {"storereleaseuintptr_fence", "storerelease64_fence"},
		{"FetchAddUintptr", "FetchAddUint64"}, {"SwapUintptr", "SwapUint64"},
		{"LoadAcquireUintptr", "loadacquire64_fence"}, {"StoreReleaseUintptr", "storerelease64_fence"}} {
		expect[c[0]] = expect[c[1]]
	}
	for _, n := range []string{"32", "64"} {
		expect["LoadAcquireUint"+n] = expect["loadacquire"+n+"_fence"]
		expect["StoreReleaseUint"+n] = expect["storerelease"+n+"_fence"]
	}
	// spinlock32: the test load, the pause while held, then the CAS.
	expect["spinlock32_llsc"] = []string{"lw a3,0(a0)", "beqz a3", "beqz a1", "addw a1,a1,-1", "pause", "j", "lr.w.aqrl a3,(a0)", "bnez a3", "sc.w.rl a4,a2,(a0)", "bnez a4", "sb a2", "ret", "sb zero", "ret"}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	expect["casuintptr_llsc"] = expect["cas64_llsc"]
	expect["CompareAndSwapUintptr"] = expect["cas64_llsc"]
	// Every assembly function the spec implies is checked.
	for i := range spec.Ops {
		op := &spec.Ops[i]
		names := []string{}
		for _, v := range op.AsmVariants("riscv64") {
			names = append(names, op.Symbol(v.Name))
		}
		if !op.HasGoVariant("riscv64") {
			names = append(names, op.GoName)
		}
		funcs.Check(t, names, expect, notAsOrdered, "lacks the ordering the design asks for")
	}
	var buf bytes.Buffer
	for _, s := range []string{"fetchadd64_amo", "cas64_llsc"} {
		buf.WriteString(s + ": " + strings.Join(funcs.Get(t, s), "; ") + "\n")
	}
	t.Logf("disassembly:\n%s", buf.String())
}
