package i386

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// This test checks the generated code with a real x86 toolchain, Debian's
// binutils-i686-linux-gnu, and skips when it is not installed. The 386
// backend writes no WORD: the Go assembler has every instruction it needs,
// so what is checked is what it encoded.
const x86Tools = asmtest.Binutils("i686-linux-gnu")

// TestGoToolchainEncodings builds package hal's tests for 386 and
// disassembles the binary: every variant and entry the spec lists must be
// there, every CMPXCHG, CMPXCHG8B and XADD locked (objdump prints the
// prefix with the instruction).
func TestGoToolchainEncodings(t *testing.T) {
	x86Tools.Need(t, "objdump")
	syms := x86Tools.Disassemble(t, asmtest.HalTestBinary(t, "386"), asmtest.AllFields)
	funcs := asmtest.NewFuncs("386", syms)
	w64 := []string{"test $0x7,%ebp", "jne"}
	loop64 := []string{"lock cmpxchg8b 0x0(%ebp)", "jne", "mov %eax,0x10(%esp)", "mov %edx,0x14(%esp)", "ret", "jmp"}
	expect := map[string][]string{
		"pause_pause":             {"pause", "ret"},
		"cas32_lock":              {"lock cmpxchg %ecx,(%ebx)", "sete"},
		"fetchadd32_lock":         {"lock xadd %eax,(%ebx)"},
		"swap32_lock":             {"xchg %eax,(%ebx)"},
		"fetchor32_lock":          {"mov (%ebx),%eax", "mov %eax,%ecx", "or %edx,%ecx", "lock cmpxchg %ecx,(%ebx)", "jne"},
		"fetchand32_lock":         {"mov (%ebx),%eax", "mov %eax,%ecx", "and %edx,%ecx", "lock cmpxchg %ecx,(%ebx)", "jne"},
		"loadacquire32_mov":       {"mov (%ebx),%eax", "mov %eax,0x8(%esp)"},
		"storerelease32_mov":      {"mov %eax,(%ebx)", "ret"},
		"cas64_lock":              append(append([]string{}, w64...), "lock cmpxchg8b 0x0(%ebp)", "sete 0x18(%esp)"),
		"fetchadd64_lock":         append(append([]string{}, w64...), append([]string{"add 0x8(%esp),%ebx", "adc 0xc(%esp),%ecx"}, loop64...)...),
		"fetchor64_lock":          append(append([]string{}, w64...), append([]string{"or 0x8(%esp),%ebx", "or 0xc(%esp),%ecx"}, loop64...)...),
		"fetchand64_lock":         append(append([]string{}, w64...), append([]string{"and 0x8(%esp),%ebx", "and 0xc(%esp),%ecx"}, loop64...)...),
		"swap64_lock":             append(append([]string{}, w64...), append([]string{"mov 0x8(%esp),%ebx", "mov 0xc(%esp),%ecx"}, loop64...)...),
		"loadacquire64_sse2":      append(append([]string{}, w64...), "movq 0x0(%ebp),%xmm0", "movq %xmm0,0x8(%esp)"),
		"loadacquire64_mmx":       append(append([]string{}, w64...), "movq 0x0(%ebp),%mm0", "movq %mm0,0x8(%esp)", "emms"),
		"storerelease64_sse2":     append(append([]string{}, w64...), "movq 0x8(%esp),%xmm0", "movq %xmm0,0x0(%ebp)"),
		"storerelease64_mmx":      append(append([]string{}, w64...), "movq 0x8(%esp),%mm0", "movq %mm0,0x0(%ebp)", "emms"),
		"fence_lockor":            {"lock orl $0x0,(%esp)"},
		"fence_mfence":            {"mfence"},
		"cycles_rdtscp":           {"rdtscp"},
		"cycles_lfence_rdtsc":     {"lfence", "rdtsc"},
		"cycles_rdtsc":            {"rdtsc"},
		"spinlock32_pause":        {"mov (%ebx),%eax", "pause", "lock cmpxchg %ecx,(%ebx)"},
		"cpu_rdpid":               {"rdpid %eax", "and $0xfff,%eax"},
		"cpu_rdtscp":              {"rdtscp", "and $0xfff,%ecx"},
		"cpu_lsl":                 {"mov $0x7b,%eax", "lsl %eax,%eax"},
		"cpu_syscall":             {"mov $0x13e,%eax", "int $0x80"},
		"casuintptr_lock":         {"lock cmpxchg %ecx,(%ebx)", "sete"},
		"fetchadduintptr_lock":    {"lock xadd %eax,(%ebx)"},
		"swapuintptr_lock":        {"xchg %eax,(%ebx)"},
		"loadacquireuintptr_mov":  {"mov (%ebx),%eax"},
		"storereleaseuintptr_mov": {"mov %eax,(%ebx)"},
		"CompareAndSwapUint64":    {"lock cmpxchg8b 0x0(%ebp)", "sete 0x18(%esp)"},
		"LoadAcquireUint64":       {"movzbl", "test %al,%al", "jne", "movq 0x0(%ebp),%xmm0", "movq 0x0(%ebp),%mm0", "emms"},
		"Fence":                   {"movzbl", "lock orl $0x0,(%esp)", "mfence"},
	}
	// An x86 read-modify-write of memory without the lock prefix would
	// not be atomic: objdump prints the prefix in the same line.
	unlocked := func(insn string) bool {
		m := strings.Fields(insn)[0]
		return m == "cmpxchg" || m == "cmpxchg8b" || m == "xadd"
	}
	n := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		names := []string{}
		for _, v := range op.AsmVariants("386") {
			names = append(names, op.Symbol(v.Name))
		}
		n += funcs.Check(t, names, expect, unlocked, "is not locked")
	}
	n += funcs.Check(t, []string{"CompareAndSwapUint64", "LoadAcquireUint64", "Fence"}, expect, unlocked, "is not locked")
	if n < 30 {
		t.Errorf("checked only %d functions", n)
	}
}
