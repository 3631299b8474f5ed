// Package ppc64le is gohal's ppc64le backend, a small text emitter of Go
// assembler syntax like gen/riscv64 (avo is x86-only).
//
// Orderings start from the Go toolchain's own ppc64 atomics
// (internal/runtime/atomic/atomic_ppc64x.s, and the intrinsics of
// sync/atomic in cmd/compile/internal/ppc64/ssa.go), which follow the
// "leading sync" mapping of McKenney and Silvera's N2745 (Example POWER
// Implementation for C/C++ Memory Model):
//
//   - sequentially consistent load: SYNC; load; CMP; BNE; ISYNC (Go's Load);
//     sequentially consistent store: SYNC; store (Go's Store). (hal has
//     neither on 64 bits; quad.go's load128 and store128 are these.)
//   - load-acquire: load; CMP; BNE; ISYNC (the runtime's LoadAcq), or load;
//     LWSYNC; store-release: LWSYNC; store (StoreRel).
//   - read-modify-write: Go leads with LWSYNC and ends with LWSYNC (Cas,
//     Xadd, Or, And) or ISYNC (Xchg). That is sequentially consistent
//     beside Go's own SYNC-led loads and stores, but neither trailing fence
//     orders the store-conditional before a later load: on POWER, a Swap
//     followed by an acquire load of another word (hal's LoadAcquire, which
//     has no leading SYNC) can show the store-buffering outcome that hal's
//     litmus tests forbid, and that hal's read-modify-writes forbid on
//     amd64, arm64 and riscv64. So every read-modify-write here ends in
//     SYNC when it stored: variant lwsync leads with Go's LWSYNC, variant
//     sync with SYNC as Linux's fully ordered atomics do
//     (PPC_ATOMIC_ENTRY_BARRIER/PPC_ATOMIC_EXIT_BARRIER). A CAS whose
//     compare failed stored nothing and ends in ISYNC, which with the
//     branch on the value read makes that read an acquire (as Linux's
//     cmpxchg skips its exit barrier on failure).
//   - full fence: SYNC (hwsync); LWSYNC does not order a store before a
//     later load.
//
// 128-bit ops: hal's striped-lock Go variant for now. POWER8 has
// single-copy atomic quadword instructions (lq, stq, lqarx/stqcx.), and
// quad.go holds their bodies, but the qemu here cannot run a 128-bit
// LQARX/STQCX. loop (quad.go says why), so they are not in the spec.
//
// Registers: Go's ABI0 reserves R0 (always zero), R1 (SP), R2 (TOC), R13
// (TLS), R30 (g) and R31 (the assembler's temporary), and R11/R12 may hold
// a closure context or call address on entry. Bodies use R3-R10 only,
// reload their arguments from the frame, and leave R0 zero (the
// assembler's SYSCALL clears it again after the system call). The
// quadword pairs are R4:R5, R6:R7 and R8:R9, never overlapping the address
// in R3.
package ppc64le

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_ppc64le.s, or asm_ppc64.s for big-endian ppc64
// (NewBigEndian): one set of bodies serves both byte orders.
//
// Where a body depends on the byte order, bigEndian says which: only the
// quadword register pairs do (quad.go's pair). Every other body loads and
// stores whole words of the width the op names, and reloads getcpu's
// result by the address it gave the kernel (cpuSyscall), so the same
// instructions are right in both orders; gen/ppc64's tests check that
// both GOARCHes get the same instructions.
type Backend struct {
	backend.TextEmitter
	goarch    string
	bigEndian bool
}

// New returns a fresh ppc64le backend.
func New() *Backend {
	return &Backend{TextEmitter: backend.TextEmitter{LoadOp: loadOp, StoreOp: storeOp}, goarch: "ppc64le"}
}

// NewBigEndian returns a fresh backend for big-endian ppc64 (gen/ppc64).
// Go requires POWER8 (GOPPC64=power8) of ppc64 as of ppc64le. The ELF ABI
// (ELFv1 for Go 1.26's ppc64, ELFv2 from Go 1.27) does not reach hal's
// assembly: it is ABI0, called only from Go with its arguments in the
// frame, calls nothing and never touches R2 (the TOC pointer).
func NewBigEndian() *Backend {
	e := New()
	e.goarch, e.bigEndian = "ppc64", true
	return e
}

// Arch implements backend.Backend.
func (e *Backend) Arch() string { return e.goarch }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/ppr":   pausePPR,
	"pause/yield": pauseYield,
	"fence/sync":  func(e *Backend, _ string) error { e.Ins("SYNC"); e.Ret(); return nil },

	"cas32/lwsync":      casLLSC(32, "LWSYNC"),
	"cas32/sync":        casLLSC(32, "SYNC"),
	"cas64/lwsync":      casLLSC(64, "LWSYNC"),
	"cas64/sync":        casLLSC(64, "SYNC"),
	"casuintptr/lwsync": casLLSC(64, "LWSYNC"),
	"casuintptr/sync":   casLLSC(64, "SYNC"),

	"fetchadd32/lwsync":      rmwLLSC("ADD", 32, "delta", "LWSYNC"),
	"fetchadd32/sync":        rmwLLSC("ADD", 32, "delta", "SYNC"),
	"fetchadd64/lwsync":      rmwLLSC("ADD", 64, "delta", "LWSYNC"),
	"fetchadd64/sync":        rmwLLSC("ADD", 64, "delta", "SYNC"),
	"fetchadduintptr/lwsync": rmwLLSC("ADD", 64, "delta", "LWSYNC"),
	"fetchadduintptr/sync":   rmwLLSC("ADD", 64, "delta", "SYNC"),
	"fetchor32/lwsync":       rmwLLSC("OR", 32, "mask", "LWSYNC"),
	"fetchor32/sync":         rmwLLSC("OR", 32, "mask", "SYNC"),
	"fetchor64/lwsync":       rmwLLSC("OR", 64, "mask", "LWSYNC"),
	"fetchor64/sync":         rmwLLSC("OR", 64, "mask", "SYNC"),
	"fetchand32/lwsync":      rmwLLSC("AND", 32, "mask", "LWSYNC"),
	"fetchand32/sync":        rmwLLSC("AND", 32, "mask", "SYNC"),
	"fetchand64/lwsync":      rmwLLSC("AND", 64, "mask", "LWSYNC"),
	"fetchand64/sync":        rmwLLSC("AND", 64, "mask", "SYNC"),
	"swap32/lwsync":          rmwLLSC("", 32, "new", "LWSYNC"),
	"swap32/sync":            rmwLLSC("", 32, "new", "SYNC"),
	"swap64/lwsync":          rmwLLSC("", 64, "new", "LWSYNC"),
	"swap64/sync":            rmwLLSC("", 64, "new", "SYNC"),
	"swapuintptr/lwsync":     rmwLLSC("", 64, "new", "LWSYNC"),
	"swapuintptr/sync":       rmwLLSC("", 64, "new", "SYNC"),

	"loadacquire32/isync":        loadISYNC(32),
	"loadacquire32/lwsync":       loadLWSYNC(32),
	"loadacquire64/isync":        loadISYNC(64),
	"loadacquire64/lwsync":       loadLWSYNC(64),
	"loadacquireuintptr/isync":   loadISYNC(64),
	"loadacquireuintptr/lwsync":  loadLWSYNC(64),
	"storerelease32/lwsync":      storeLWSYNC(32),
	"storerelease64/lwsync":      storeLWSYNC(64),
	"storereleaseuintptr/lwsync": storeLWSYNC(64),

	// cas128, load128 and store128 have only hal's Go variant
	// (spec.Portable) on ppc64le: the driver never asks a backend for
	// them. Their quadword bodies wait in quad.go.

	"cycles/isync_mftb": cyclesMFTB(true),
	"cycles/mftb":       cyclesMFTB(false),
	"spinlock32/llsc":   spinLock32,
	"cpu/syscall":       cpuSyscall,
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBZ of the flag into R3, then a
// compare with each variant's index and a BEQ to its label (BNE for two
// variants).
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBZ", "·"+sel+"(SB)", "R3")
	if len(labels) == 1 {
		e.Ins("CMP", "R3", "$0")
		e.Ins("BNE", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("CMP", "R3", fmt.Sprintf("$%d", i+1))
		e.Ins("BEQ", l)
	}
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// loadOp zero-extends: a 32-bit argument is compared with what LWARX
// loaded, and LWARX zero-extends.
var loadOp = backend.Moves("MOVBZ", "MOVWZ", "MOVD")

var storeOp = backend.Moves("MOVB", "MOVW", "MOVD")

// larx and stcx return the load-and-reserve and store-conditional of a
// width: LWAR/STWCCC (lwarx/stwcx.) for 32 bits, LDAR/STDCCC for 64.
func larx(bits int) string {
	if bits == 32 {
		return "LWAR"
	}
	return "LDAR"
}

func stcx(bits int) string {
	if bits == 32 {
		return "STWCCC"
	}
	return "STDCCC"
}

// cmp returns the compare of a width: CMPW compares the low 32 bits.
func cmp(bits int) string {
	if bits == 32 {
		return "CMPW"
	}
	return "CMP"
}

// pausePPR: POWER has no pause instruction. The Go runtime's procyield
// sets the hardware thread's program priority to low (or 1,1,1) before its
// spin loop and back to medium-low (or 6,6,6), Linux's default for user
// programs, after it; one Pause is that pair, as Linux's cpu_relax is
// HMT_low then HMT_medium. The OR leaves the register unchanged.
func pausePPR(e *Backend, _ string) error {
	e.Ins("OR", "R1", "R1", "R1")
	e.Ins("OR", "R6", "R6", "R6")
	e.Ret()
	return nil
}

// pauseYield: or 27,27,27, which binutils disassembles as yield: a hint
// that the thread is spinning, as FreeBSD's cpu_spinwait, folly and
// RocksDB issue it. A core that knows no such hint runs a no-op OR.
func pauseYield(e *Backend, _ string) error {
	e.Ins("OR", "R27", "R27", "R27")
	e.Ret()
	return nil
}

// casLLSC: lead fences the loop; LWAR/LDAR reads the word and takes a
// reservation; on a mismatch the body leaves without a store, through
// ISYNC (the branch on the value read, then ISYNC, make the read an
// acquire); otherwise STWCCC/STDCCC tries the store, the loop retries
// while it fails (CR0 EQ clear), and SYNC follows the store.
func casLLSC(bits int, lead string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R3")
		e.Load("old", "R4")
		e.Load("new", "R5")
		e.Ins(lead)
		e.Label(p + "loop")
		e.Ins(larx(bits), "(R3)", "R6")
		e.Ins(cmp(bits), "R6", "R4")
		e.Ins("BNE", p+"fail")
		e.Ins(stcx(bits), "R5", "(R3)")
		e.Ins("BNE", p+"loop")
		e.Ins("SYNC")
		e.Ins("MOVD", "$1", "R6")
		e.Store("R6", 0)
		e.Ret()
		e.Label(p + "fail")
		e.Ins("ISYNC")
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// rmwLLSC: the loop of a read-modify-write whose new value is
// alu(old, arg) (ADD, OR or AND; none for a swap, which stores arg), between
// lead and SYNC. The old value stays in R5 and is returned; for 32 bits
// the ALU works on the zero-extended word and STWCCC stores its low half.
func rmwLLSC(alu string, bits int, arg, lead string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R3")
		e.Load(arg, "R4")
		e.Ins(lead)
		e.Label(p + "loop")
		e.Ins(larx(bits), "(R3)", "R5")
		src := "R4"
		if alu != "" {
			e.Ins(alu, "R4", "R5", "R6")
			src = "R6"
		}
		e.Ins(stcx(bits), src, "(R3)")
		e.Ins("BNE", p+"loop")
		e.Ins("SYNC")
		e.Store("R5", 0)
		e.Ret()
		return nil
	}
}

// loadISYNC: a plain aligned load (single-copy atomic), then the
// runtime's LoadAcq idiom: a compare of the value with itself and a branch
// on it make every later instruction depend on the load, and ISYNC keeps
// them from starting before the branch resolves.
func loadISYNC(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R3")
		e.Ins(loadOp(bits/8), "0(R3)", "R4")
		e.Ins(cmp(bits), "R4", "R4")
		e.Ins("BNE", p+"acq")
		e.Label(p + "acq")
		e.Ins("ISYNC")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// loadLWSYNC: a plain aligned load, then LWSYNC, which orders it before
// every later load and store.
func loadLWSYNC(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R3")
		e.Ins(loadOp(bits/8), "0(R3)", "R4")
		e.Ins("LWSYNC")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// storeLWSYNC: LWSYNC orders every earlier load and store before the
// plain aligned store after it (release).
func storeLWSYNC(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R3")
		e.Load("val", "R4")
		e.Ins("LWSYNC")
		e.Ins(storeOp(bits/8), "R4", "0(R3)")
		e.Ret()
		return nil
	}
}

// cyclesMFTB reads the 64-bit time base (MOVD SPR(268) is mfspr 268, that
// is mftb), as the Go runtime's cputicks does. Its rate is the platform's
// time-base frequency (512 MHz on POWER8 and POWER9; under qemu-user the
// host's TSC rate), which hal.CycleFrequency calibrates. MFTB is not
// ordered with other instructions; with isync, ISYNC first makes it wait
// until every earlier instruction has completed.
func cyclesMFTB(isync bool) body {
	return func(e *Backend, _ string) error {
		if isync {
			e.Ins("ISYNC")
		}
		e.Ins("MOVD", "SPR(268)", "R3")
		e.Store("R3", 0)
		e.Ret()
		return nil
	}
}

// spinLock32: the test-and-test-and-set loop in one function. A plain
// MOVWZ reads the word (only the CAS needs ordering; the read keeps the
// line shared among waiters); while it is held the loop spends one unit of
// the budget in R4 on the ppr priority hints (Pause's ppr variant) and
// reads again. When it reads 0 it tries 0→1 with cas32's lwsync sequence:
// LWSYNC, an LWARX/STWCX. loop, SYNC once it stored. An LWARX that finds
// the word held goes where a read that found it held goes; a STWCX. that
// fails retries the LWARX.
func spinLock32(e *Backend, p string) error {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	e.Load("addr", "R3")
	e.Load("spins", "R4")
	e.Ins("MOVD", "$1", "R5")
	e.Label(loop)
	e.Ins("MOVWZ", "0(R3)", "R7")
	e.Ins("CMPW", "R7", "$0")
	e.Ins("BNE", held)
	e.Ins("LWSYNC")
	e.Label(try)
	e.Ins("LWAR", "(R3)", "R7")
	e.Ins("CMPW", "R7", "$0")
	e.Ins("BNE", held)
	e.Ins("STWCCC", "R5", "(R3)")
	e.Ins("BNE", try)
	e.Ins("SYNC")
	e.Comment("R5 = 1: acquired.")
	e.Store("R5", 0)
	e.Ret()
	e.Label(held)
	e.Ins("CMPW", "R4", "$0")
	e.Ins("BEQ", fail)
	e.Ins("SUB", "$1", "R4")
	e.Ins("OR", "R1", "R1", "R1")
	e.Ins("OR", "R6", "R6", "R6")
	e.Ins("BR", loop)
	e.Label(fail)
	e.Store("R0", 0)
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), ppc64 Linux system call 302: the assembler's
// SYSCALL $302 is li r0,302; sc; xor r0,r0,r0, so R0 is zero again after
// it. The kernel writes the CPU number (an unsigned int) into the low half
// of the result slot (R3 = its address; R4, R5 = nil node and cache); it
// returns 0, or an error number with CR0's SO bit set, in R3. MOVWZ reloads
// the number zero-extended from the address given (the slot's first four
// bytes, its low half on little-endian). ppc64le Linux has no user-mode way to read the
// CPU number. On an error (which getcpu with a valid pointer does not
// return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVD", "$"+e.Result(0), "R3")
	e.Ins("MOVD", "$0", "R4")
	e.Ins("MOVD", "$0", "R5")
	e.Ins("SYSCALL", "$302")
	e.Ins("CMP", "R3", "$0")
	e.Ins("BNE", bad)
	e.Ins("MOVD", "$"+e.Result(0), "R4")
	e.Ins("MOVWZ", "0(R4)", "R3")
	e.Store("R3", 0)
	e.Ret()
	e.Label(bad)
	e.Store("R0", 0)
	e.Ret()
	return nil
}
