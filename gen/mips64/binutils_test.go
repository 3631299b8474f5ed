package mips64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with Debian's
// binutils-mips64el-linux-gnuabi64 and binutils-mips64-linux-gnuabi64, and
// skip when they are not installed.

var (
	// little assembles the WORDs: asmtest reads words little-endian.
	little = asmtest.Binutils("mips64el-linux-gnuabi64")
	big    = asmtest.Binutils("mips64-linux-gnuabi64")
)

// TestWordsMatchBinutils assembles the GNU syntax beside every WORD of the
// generated files (PAUSE) with -march=mips64r2, the release that named it.
func TestWordsMatchBinutils(t *testing.T) {
	little.CheckWords(t, asmtest.Asm(t, New()), 2, "-march=mips64r2")
}

// disassemble returns the functions of hal's test binary for goarch
// (their symbols carry no ".abi0": asmtest.ABI0Suffix).
func disassemble(t *testing.T, b asmtest.Binutils, goarch string) *asmtest.Funcs {
	syms := b.Disassemble(t, asmtest.HalTestBinary(t, goarch), asmtest.FirstField)
	// The names come from mips64's spec, the variants of both GOARCHes
	// (mips64le's registers in gen/mips64le, which this package cannot
	// import).
	return asmtest.NewFuncs("mips64", syms)
}

// notAsOrdered reports an instruction hal's mips64 design never uses: a
// lightweight SYNC (an stype other than 0, which orders less), or the
// branch-likely forms (BEQL, BNEL: deprecated, removed in Release 6).
func notAsOrdered(insn string) bool {
	f := strings.Fields(insn)
	switch {
	case f[0] == "sync" && len(f) > 1:
		return true
	case strings.HasSuffix(f[0], "l") && strings.HasPrefix(f[0], "b") && f[0] != "bal":
		return true
	}
	return false
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"sync":           false,
		"sync 0x10":      true,
		"ll a0,0(at)":    false,
		"beql v1,zero":   true,
		"beqz v1,2119c8": false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds hal's tests for mips64 and mips64le,
// disassembles both, and checks every variant and entry the spec implies:
// the SYNCs on both sides of each LL/SC loop, the loop itself, PAUSE, the
// system call.
func TestGoToolchainEncodings(t *testing.T) {
	expect := map[string][]string{
		"pause_pause":     {"sll zero,zero,0x5", "jr"},
		"pause_nop":       {"jr"},
		"fence_sync":      {"sync", "jr"},
		"cpu_syscall":     {"daddiu a0,sp,8", "move a1,zero", "move a2,zero", "daddiu v0,zero,5271", "syscall", "bnez a3", "lwu v0,0(a0)", "sd v0,8(sp)", "jr", "sd zero,8(sp)"},
		"spinlock32_llsc": {"lwu v0,16(sp)", "lw a0,0(at)", "bnez a0", "sync", "ll a0,0(at)", "bnez a0", "sc v1,0(at)", "beqz v1", "sync", "sb v1,24(sp)", "jr", "beqz v0", "daddiu v0,v0,-1", "sll zero,zero,0x5", "b", "sb zero,24(sp)"},
		"Pause":           {"lbu at", "bnez at", "sll zero,zero,0x5", "jr", "jr"},
		"Fence":           {"sync", "jr"},
		"CPU":             {"lbu at", "bnez at", "syscall"},
	}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	for _, w := range []struct{ op, name, l, s, ld, st string }{
		{"32", "Uint32", "ll", "sc", "lw", "sw"},
		{"64", "Uint64", "lld", "scd", "ld", "sd"},
		{"uintptr", "Uintptr", "lld", "scd", "ld", "sd"},
	} {
		add := map[string]string{"32": "addu", "64": "daddu", "uintptr": "daddu"}[w.op]
		expect["cas"+w.op+"_llsc"] = []string{"sync", "or v1,zero,a1", w.l + " a0,0(at)", "bne v0,a0", w.s + " v1,0(at)", "beqz v1", "sync", "daddiu v1,zero,1", "sb v1", "jr", "sync", "sb zero", "jr"}
		expect["fetchadd"+w.op+"_llsc"] = []string{"sync", w.l + " at,0(v0)", add + " a0,v1,at", w.s + " a0,0(v0)", "beqz a0", "sync", w.st + " at"}
		expect["swap"+w.op+"_llsc"] = []string{"sync", w.l + " at,0(v0)", "or a0,zero,v1", w.s + " a0,0(v0)", "beqz a0", "sync", w.st + " at"}
		for _, b := range []string{"or", "and"} {
			expect["fetch"+b+w.op+"_llsc"] = []string{"sync", w.l + " at,0(v0)", b + " a0,v1,at", w.s + " a0,0(v0)", "beqz a0", "sync", w.st + " at"}
		}
		expect["loadacquire"+w.op+"_sync"] = []string{w.ld + " v0,0(at)", "sync", w.st + " v0"}
		expect["storerelease"+w.op+"_sync"] = []string{"sync", w.st + " v0,0(at)", "jr"}
		for _, op := range [][2]string{{"CompareAndSwap", "cas"}, {"FetchAdd", "fetchadd"}, {"Swap", "swap"}, {"FetchOr", "fetchor"}, {"FetchAnd", "fetchand"}} {
			expect[op[0]+w.name] = expect[op[1]+w.op+"_llsc"]
		}
		expect["LoadAcquire"+w.name] = expect["loadacquire"+w.op+"_sync"]
		expect["StoreRelease"+w.name] = expect["storerelease"+w.op+"_sync"]
	}
	for _, c := range []struct {
		goarch string
		b      asmtest.Binutils
	}{{"mips64", big}, {"mips64le", little}} {
		t.Run(c.goarch, func(t *testing.T) {
			c.b.Need(t, "objdump")
			funcs := disassemble(t, c.b, c.goarch)
			checked := 0
			for i := range spec.Ops {
				op := &spec.Ops[i]
				var names []string
				for _, v := range op.AsmVariants("mips64") {
					names = append(names, op.Symbol(v.Name))
				}
				if !op.GoEntry("mips64") {
					names = append(names, op.GoName)
				}
				checked += funcs.Check(t, names, expect, notAsOrdered, "is not an ordering the design uses")
			}
			if checked < 40 {
				t.Errorf("checked only %d functions", checked)
			}
			t.Logf("checked %d functions; cas64_llsc: %s", checked, strings.Join(funcs.Get(t, "cas64_llsc"), "; "))
		})
	}
}
