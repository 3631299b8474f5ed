package mips

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// TestGoToolchainEncodings builds hal's tests for mips and mipsle,
// disassembles both with Debian's binutils-mips-linux-gnu and
// binutils-mipsel-linux-gnu (skipping when they are not installed), and
// checks every variant and entry the spec implies: the SYNCs on both
// sides of each LL/SC loop, PAUSE, the o32 system call, and no 64-bit
// instruction. (gen/mips64 checks PAUSE's word against binutils.)
func TestGoToolchainEncodings(t *testing.T) {
	expect := map[string][]string{
		"pause_pause":     {"sll zero,zero,0x5", "jr"},
		"pause_nop":       {"jr"},
		"fence_sync":      {"sync", "jr"},
		"cpu_syscall":     {"addiu a0,sp,4", "move a1,zero", "move a2,zero", "li v0,4312", "syscall", "bnez a3", "lw v0,0(a0)", "sw v0,4(sp)", "jr", "sw zero,4(sp)"},
		"spinlock32_llsc": {"lw v0,8(sp)", "lw a0,0(at)", "bnez a0", "sync", "ll a0,0(at)", "bnez a0", "sc v1,0(at)", "beqz v1", "sync", "sb v1,12(sp)", "jr", "beqz v0", "addiu v0,v0,-1", "sll zero,zero,0x5", "b", "sb zero,12(sp)"},
		"Pause":           {"lbu at", "bnez at", "sll zero,zero,0x5", "jr", "jr"},
		"Fence":           {"sync", "jr"},
		"CPU":             {"lbu at", "bnez at", "syscall"},
	}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	for _, w := range []struct{ op, name string }{{"32", "Uint32"}, {"uintptr", "Uintptr"}} {
		expect["cas"+w.op+"_llsc"] = []string{"sync", "or v1,zero,a1", "ll a0,0(at)", "bne v0,a0", "sc v1,0(at)", "beqz v1", "sync", "li v1,1", "sb v1,16(sp)", "jr", "sync", "sb zero,16(sp)", "jr"}
		expect["fetchadd"+w.op+"_llsc"] = []string{"sync", "ll at,0(v0)", "addu a0,v1,at", "sc a0,0(v0)", "beqz a0", "sync", "sw at,12(sp)"}
		expect["swap"+w.op+"_llsc"] = []string{"sync", "ll at,0(v0)", "or a0,zero,v1", "sc a0,0(v0)", "beqz a0", "sync", "sw at,12(sp)"}
		for _, b := range []string{"or", "and"} {
			expect["fetch"+b+w.op+"_llsc"] = []string{"sync", "ll at,0(v0)", b + " a0,v1,at", "sc a0,0(v0)", "beqz a0", "sync", "sw at,12(sp)"}
		}
		expect["loadacquire"+w.op+"_sync"] = []string{"lw v0,0(at)", "sync", "sw v0,8(sp)"}
		expect["storerelease"+w.op+"_sync"] = []string{"sync", "sw v0,0(at)", "jr"}
		for _, op := range [][2]string{{"CompareAndSwap", "cas"}, {"FetchAdd", "fetchadd"}, {"Swap", "swap"}, {"FetchOr", "fetchor"}, {"FetchAnd", "fetchand"}} {
			expect[op[0]+w.name] = expect[op[1]+w.op+"_llsc"]
		}
		expect["LoadAcquire"+w.name] = expect["loadacquire"+w.op+"_sync"]
		expect["StoreRelease"+w.name] = expect["storerelease"+w.op+"_sync"]
	}
	for _, c := range []struct {
		goarch string
		b      asmtest.Binutils
	}{{"mips", "mips-linux-gnu"}, {"mipsle", "mipsel-linux-gnu"}} {
		t.Run(c.goarch, func(t *testing.T) {
			c.b.Need(t, "objdump")
			syms := c.b.Disassemble(t, asmtest.HalTestBinary(t, c.goarch), asmtest.FirstField)
			// mips's spec names the functions of both GOARCHes
			// (mipsle's is the same, registered in gen/mipsle).
			funcs := asmtest.NewFuncs("mips", syms)
			checked := 0
			for i := range spec.Ops {
				op := &spec.Ops[i]
				var names []string
				for _, v := range op.AsmVariants("mips") {
					names = append(names, op.Symbol(v.Name))
				}
				if !op.GoEntry("mips") {
					names = append(names, op.GoName)
				}
				checked += funcs.Check(t, names, expect, is64, "is a MIPS64 instruction or not an ordering the design uses")
			}
			if checked < 25 {
				t.Errorf("checked only %d functions", checked)
			}
			t.Logf("checked %d functions", checked)
		})
	}
}

// is64 reports an instruction a MIPS32 body must not hold: a doubleword
// load, store, LL/SC or arithmetic, or a lightweight SYNC.
func is64(insn string) bool {
	f := strings.Fields(insn)
	switch f[0] {
	case "ld", "sd", "lld", "scd", "daddu", "daddiu", "dsubu":
		return true
	case "sync":
		return len(f) > 1
	}
	return false
}
