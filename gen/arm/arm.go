// Package arm is gohal's 32-bit arm backend, a small text emitter of Go
// assembler syntax like gen/riscv64 (avo is x86-only).
//
// Orderings follow the C/C++11 mapping to ARMv7 (Sewell et al., "C/C++11
// mappings to processors"), which Linux's ARM atomics also use, and are as
// strong as or stronger than the Go runtime's (internal/runtime/atomic's
// atomic_arm.s and sys_linux_arm.s):
//
//   - sequentially consistent read-modify-write and CAS: a barrier, the
//     LDREX/STREX loop (LDREXD/STREXD for 64 bits), a barrier; a CAS that
//     fails still ends in the barrier, as its load is sequentially
//     consistent too. The Go runtime's armcas puts DMB ISHST before the
//     STREX and no barrier on the failure path, which is enough beside its
//     own loads and stores (each with DMB ISH) but not beside a plain
//     release store followed by an acquire load;
//   - load-acquire: a plain load (LDREXD for 64 bits), then the barrier;
//   - store-release: the barrier, then a plain store (an LDREXD/STREXD
//     loop for 64 bits);
//   - full fence: the barrier.
//
// The barrier is DMB ISH on ARMv7 (variant dmb) and on ARMv6K the CP15
// operation MCR p15, 0, Rt, c7, c10, 5 (variant mcr), which ARMv6 defines
// as its data memory barrier and user mode may issue; Linux's smp_mb on
// ARMv6 and its __kuser_memory_barrier helper use the same. 64-bit values
// must be 8-byte aligned for LDREXD/STREXD: hal's typed values align
// themselves (see hal.Uint64), as sync/atomic asks of its callers.
//
// Registers: R0 holds the flag byte in an entry; R0-R8 the arguments,
// results and the STREX status (R8 is 0 for MCR in the mcr bodies). The
// Go toolchain reserves R10 (g), R11 (the assembler's temporary), R13
// (SP), R14 (LR) and R15 (PC). LDREXD/STREXD take an even register and
// the next one: R4/R5 for the value read, R6/R7 (or R2/R3) for the one
// stored.
package arm

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_arm.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh arm backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: moveOp, StoreOp: storeOp, PtrSize: 4}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "arm" }

// moveOp loads a 1- or 4-byte argument; a uint64 goes through ArgHalf.
var moveOp = backend.Moves("MOVBU", "MOVW", "MOVW64?")

// storeOp stores a bool or a 4-byte result.
var storeOp = backend.Moves("MOVB", "MOVW", "MOVW64?")

type body func(e *Backend, prefix string) error

// bar is the barrier a body uses: DMB ISH (ARMv7) or the ARMv6 CP15
// barrier.
type bar int

const (
	dmb bar = iota
	mcr
)

var bodies = backend.Bodies[body]{
	"pause/yield":        pauseYield,
	"pause/nop":          pauseNop,
	"cpu/syscall":        cpuSyscall,
	"spinlock32/dmb":     spinLock32(dmb),
	"spinlock32/mcr":     spinLock32(mcr),
	"fence/dmb":          fenceBody(dmb),
	"fence/mcr":          fenceBody(mcr),
	"cas64/dmb":          cas64(dmb),
	"cas64/mcr":          cas64(mcr),
	"swap64/dmb":         rmw64(dmb, ""),
	"swap64/mcr":         rmw64(mcr, ""),
	"fetchadd64/dmb":     rmw64(dmb, "ADD"),
	"fetchadd64/mcr":     rmw64(mcr, "ADD"),
	"fetchor64/dmb":      rmw64(dmb, "ORR"),
	"fetchor64/mcr":      rmw64(mcr, "ORR"),
	"fetchand64/dmb":     rmw64(dmb, "AND"),
	"fetchand64/mcr":     rmw64(mcr, "AND"),
	"loadacquire64/dmb":  load64(dmb),
	"loadacquire64/mcr":  load64(mcr),
	"storerelease64/dmb": store64(dmb),
	"storerelease64/mcr": store64(mcr),
}

// uintptr is 32 bits on arm: its ops are the 32-bit bodies.
func init() {
	for _, b := range []bar{dmb, mcr} {
		v := [...]string{"dmb", "mcr"}[b]
		for _, w := range []string{"32", "uintptr"} {
			bodies["cas"+w+"/"+v] = cas32(b)
			bodies["fetchadd"+w+"/"+v] = rmw32(b, "ADD", "delta")
			bodies["swap"+w+"/"+v] = rmw32(b, "", "new")
			bodies["loadacquire"+w+"/"+v] = load32(b)
			bodies["storerelease"+w+"/"+v] = store32(b)
		}
		bodies["fetchor32/"+v] = rmw32(b, "ORR", "mask")
		bodies["fetchand32/"+v] = rmw32(b, "AND", "mask")
	}
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBU of the flag into R0, then CMP
// and BNE for two variants, or a CMP and BEQ per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBU", "·"+sel+"(SB)", "R0")
	if len(labels) == 1 {
		e.Ins("CMP", "$0", "R0")
		e.Ins("BNE", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("CMP", fmt.Sprintf("$%d", i+1), "R0")
		e.Ins("BEQ", l)
	}
}

// ResolveUint128 implements backend.Backend. No arm entry needs it: the
// 128-bit ops have only Go variants here, so their entries are Go.
func (e *Backend) ResolveUint128(entry, moved string) error {
	return fmt.Errorf("arm has no 128-bit assembly variant, so no Uint128 entry in assembly (%s)", entry)
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// setup prepares what the barrier needs: R8 = 0 for MCR (the register's
// value should be zero).
func (e *Backend) setup(b bar) {
	if b == mcr {
		e.Ins("MOVW", "$0", "R8")
	}
}

// barrier writes the full inner-shareable barrier.
func (e *Backend) barrier(b bar) {
	if b == dmb {
		e.Ins("DMB", "MB_ISH")
		return
	}
	e.Ins("MCR", "15", "0", "R8", "C7", "C10", "5")
}

// align8 branches to the body's misaligned label when the word in R1 is
// not 8-byte aligned: LDREXD/STREXD fault there. The label tail-jumps to
// spec.Misaligned64 (in hal and hal/direct), which panics as sync/atomic
// does on such a word.
func (e *Backend) align8(p string) {
	e.Ins("AND.S", "$7", "R1", "R0")
	e.Ins("BNE", p+"misaligned")
}

// misaligned is the body's misaligned label: a tail jump with the
// function's own argument frame and the caller's LR (the entries have no
// frame).
func (e *Backend) misaligned(p string) {
	e.Label(p + "misaligned")
	e.TailJump(spec.Misaligned64)
}

// lo and hi are the halves of a uint64 argument or result.
func (e *Backend) lo(name string) string { return e.ArgHalf(name, false) }
func (e *Backend) hi(name string) string { return e.ArgHalf(name, true) }

// yieldWord is YIELD (A1 encoding, cond AL), which the Go 1.26 arm
// assembler lacks: checked against binutils in binutils_test.go.
const yieldWord = 0xe320f001

// pauseYield: YIELD, the ARMv6K hint that the thread spins.
func pauseYield(e *Backend, _ string) error {
	e.Word(yieldWord, "yield")
	e.Ret()
	return nil
}

// pauseNop: ARMv5 has no hint, and the encoding YIELD uses is not a NOP
// there: the call itself is the pause.
func pauseNop(e *Backend, _ string) error {
	e.Ret()
	return nil
}

// cas32: barrier; LDREX; compare; STREX while it fails; barrier on both
// the success and the failure path.
func cas32(b bar) body {
	return func(e *Backend, p string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.Load("old", "R2")
		e.Load("new", "R3")
		e.barrier(b)
		e.Label(p + "loop")
		e.Ins("LDREX", "(R1)", "R0")
		e.Ins("CMP", "R2", "R0")
		e.Ins("BNE", p+"fail")
		e.Ins("STREX", "R3", "(R1)", "R4")
		e.Ins("CMP", "$0", "R4")
		e.Ins("BNE", p+"loop")
		e.barrier(b)
		e.Ins("MOVW", "$1", "R0")
		e.Store("R0", 0)
		e.Ret()
		e.Label(p + "fail")
		e.barrier(b)
		e.Ins("MOVW", "$0", "R0")
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// rmw32: barrier; LDREX; R3 = alu(old, arg) (or arg itself for a swap,
// alu ""); STREX while it fails; barrier; the old value is the result.
func rmw32(b bar, alu, arg string) body {
	return func(e *Backend, p string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.Load(arg, "R2")
		e.barrier(b)
		e.Label(p + "loop")
		e.Ins("LDREX", "(R1)", "R0")
		val := "R2"
		if alu != "" {
			e.Ins(alu, "R2", "R0", "R3")
			val = "R3"
		}
		e.Ins("STREX", val, "(R1)", "R4")
		e.Ins("CMP", "$0", "R4")
		e.Ins("BNE", p+"loop")
		e.barrier(b)
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// load32: an aligned LDR is single-copy atomic; the barrier after it
// keeps every later access after it (acquire).
func load32(b bar) body {
	return func(e *Backend, _ string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.Ins("MOVW", "(R1)", "R0")
		e.barrier(b)
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// store32: the barrier before an aligned STR keeps every earlier access
// before it (release).
func store32(b bar) body {
	return func(e *Backend, _ string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.Load("val", "R2")
		e.barrier(b)
		e.Ins("MOVW", "R2", "(R1)")
		e.Ret()
		return nil
	}
}

// cas64: as cas32 with LDREXD (R4/R5) and STREXD (R6/R7), comparing both
// halves.
func cas64(b bar) body {
	return func(e *Backend, p string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.align8(p)
		e.Ins("MOVW", e.lo("old"), "R2")
		e.Ins("MOVW", e.hi("old"), "R3")
		e.Ins("MOVW", e.lo("new"), "R6")
		e.Ins("MOVW", e.hi("new"), "R7")
		e.barrier(b)
		e.Label(p + "loop")
		e.Ins("LDREXD", "(R1)", "R4")
		e.Ins("CMP", "R2", "R4")
		e.Ins("BNE", p+"fail")
		e.Ins("CMP", "R3", "R5")
		e.Ins("BNE", p+"fail")
		e.Ins("STREXD", "R6", "(R1)", "R0")
		e.Ins("CMP", "$0", "R0")
		e.Ins("BNE", p+"loop")
		e.barrier(b)
		e.Ins("MOVW", "$1", "R0")
		e.Store("R0", 0)
		e.Ret()
		e.Label(p + "fail")
		e.barrier(b)
		e.Ins("MOVW", "$0", "R0")
		e.Store("R0", 0)
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// rmw64: barrier; LDREXD into R4/R5; R6/R7 = alu(old, arg) (ADD is
// ADD.S then ADC, the carry from the low half into the high one; a swap,
// alu "", stores the argument's R2/R3 itself); STREXD while it fails;
// barrier; the old value is the result.
func rmw64(b bar, alu string) body {
	return func(e *Backend, p string) error {
		arg := map[string]string{"": "new", "ADD": "delta", "ORR": "mask", "AND": "mask"}[alu]
		e.setup(b)
		e.Load("addr", "R1")
		e.align8(p)
		e.Ins("MOVW", e.lo(arg), "R2")
		e.Ins("MOVW", e.hi(arg), "R3")
		e.barrier(b)
		e.Label(p + "loop")
		e.Ins("LDREXD", "(R1)", "R4")
		val := "R2"
		switch alu {
		case "ADD":
			e.Ins("ADD.S", "R2", "R4", "R6")
			e.Ins("ADC", "R3", "R5", "R7")
			val = "R6"
		case "ORR", "AND":
			e.Ins(alu, "R2", "R4", "R6")
			e.Ins(alu, "R3", "R5", "R7")
			val = "R6"
		}
		e.Ins("STREXD", val, "(R1)", "R0")
		e.Ins("CMP", "$0", "R0")
		e.Ins("BNE", p+"loop")
		e.barrier(b)
		ret := e.ResultName(0)
		e.Ins("MOVW", "R4", e.lo(ret))
		e.Ins("MOVW", "R5", e.hi(ret))
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// load64: LDREXD is single-copy atomic for an aligned doubleword (LDRD is
// only with LPAE); the barrier after it makes it an acquire. The
// exclusive monitor it leaves open is harmless: every STREX(D) of hal's
// follows its own LDREX(D), and the kernel clears the monitor on a
// context switch.
func load64(b bar) body {
	return func(e *Backend, p string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.align8(p)
		e.Ins("LDREXD", "(R1)", "R2")
		e.barrier(b)
		ret := e.ResultName(0)
		e.Ins("MOVW", "R2", e.lo(ret))
		e.Ins("MOVW", "R3", e.hi(ret))
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// store64: the barrier, then an LDREXD/STREXD loop, the only single-copy
// atomic doubleword store without LPAE (STREXD needs the LDREXD before
// it).
func store64(b bar) body {
	return func(e *Backend, p string) error {
		e.setup(b)
		e.Load("addr", "R1")
		e.align8(p)
		e.Ins("MOVW", e.lo("val"), "R2")
		e.Ins("MOVW", e.hi("val"), "R3")
		e.barrier(b)
		e.Label(p + "loop")
		e.Ins("LDREXD", "(R1)", "R4")
		e.Ins("STREXD", "R2", "(R1)", "R0")
		e.Ins("CMP", "$0", "R0")
		e.Ins("BNE", p+"loop")
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// fenceBody: the barrier orders every earlier load and store before every
// later one.
func fenceBody(b bar) body {
	return func(e *Backend, _ string) error {
		e.setup(b)
		e.barrier(b)
		e.Ret()
		return nil
	}
}

// spinLock32: the test-and-test-and-set loop in one function. A plain
// MOVW reads the word (only the CAS needs ordering); while it is held the
// loop spends one unit of the budget in R2 on a YIELD and reads again.
// When it reads 0 it tries 0→1 with LDREX/STREX; an LDREX that finds it
// held goes where a read that found it held goes, a failed STREX retries
// the LDREX. After the STREX succeeds, the barrier: the acquire (and the
// sequential consistency of cas32, as nothing before the lock's CAS needs
// ordering against it beyond what a release store before it gave).
func spinLock32(b bar) body {
	return func(e *Backend, p string) error {
		loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
		e.setup(b)
		e.Load("addr", "R1")
		e.Load("spins", "R2")
		e.Ins("MOVW", "$1", "R3")
		e.Label(loop)
		e.Ins("MOVW", "(R1)", "R0")
		e.Ins("CMP", "$0", "R0")
		e.Ins("BEQ", try)
		e.Label(held)
		e.Ins("CMP", "$0", "R2")
		e.Ins("BEQ", fail)
		e.Ins("SUB", "$1", "R2")
		e.Word(yieldWord, "yield")
		e.Ins("B", loop)
		e.Label(try)
		e.barrier(b)
		e.Ins("LDREX", "(R1)", "R0")
		e.Ins("CMP", "$0", "R0")
		e.Ins("BNE", held)
		e.Ins("STREX", "R3", "(R1)", "R4")
		e.Ins("CMP", "$0", "R4")
		e.Ins("BNE", try)
		e.barrier(b)
		e.Comment("R3 = 1: acquired.")
		e.Store("R3", 0)
		e.Ret()
		e.Label(fail)
		e.Ins("MOVW", "$0", "R0")
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// cpuSyscall: getcpu(2), ARM EABI system call 345 (SWI with the number in
// R7), writing the CPU number (an unsigned int, the size of Go's int
// here) straight into the result slot. On an error (which getcpu with a
// valid pointer does not return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVW", "$"+e.Result(0), "R0")
	e.Ins("MOVW", "$0", "R1")
	e.Ins("MOVW", "$0", "R2")
	e.Ins("MOVW", "$345", "R7")
	e.Ins("SWI", "$0")
	e.Ins("CMP", "$0", "R0")
	e.Ins("BNE", bad)
	e.Ret()
	e.Label(bad)
	e.Ins("MOVW", "$0", "R0")
	e.Store("R0", 0)
	e.Ret()
	return nil
}
