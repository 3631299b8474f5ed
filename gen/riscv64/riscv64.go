// Package riscv64 is gohal's riscv64 backend, a small text emitter of Go
// assembler syntax like gen/arm64 (avo is x86-only).
//
// Orderings follow the RVWMO mappings of the RISC-V unprivileged
// specification (Table A.6, "Mappings from C/C++ primitives to RISC-V
// primitives"), which agree with or are stronger than the Go runtime's own
// riscv64 atomics (internal/runtime/atomic/atomic_riscv64.s and the
// compiler's intrinsics in cmd/compile/internal/riscv64/ssa.go):
//
//   - sequentially consistent read-modify-write: AMO<op>.aqrl, as the Go
//     runtime's Xadd and Xchg (its AMOADDD and AMOSWAPD are .aqrl);
//   - sequentially consistent CAS, and the LR/SC loops of fetch-add and
//     swap: LR.aqrl; SC.rl. The Go runtime's Cas uses LR.aq; SC.rl, which
//     is enough beside its own loads (LR.aq) and stores (AMOSWAP.aqrl); the
//     rl bit on the LR also orders an earlier fence-based store before the
//     CAS, as the specification's mapping asks, so hal's CAS is
//     sequentially consistent beside any correct mapping;
//   - load-acquire: a plain load then FENCE R,RW (the runtime uses LR.aq,
//     stronger);
//   - store-release: FENCE RW,W then a plain store (the runtime uses
//     AMOSWAP.aqrl, stronger);
//   - full fence: FENCE RW,RW (Go's FENCE mnemonic is FENCE IORW,IORW,
//     which also orders device I/O, more than a memory fence needs).
//
// Every LR/SC loop is a constrained LR/SC loop (the specification's
// eventual-success guarantee): at most 16 base-ISA instructions between LR
// and SC, no loads, stores or backward branches other than the retry.
//
// Registers: T0 holds the flag byte in an entry, A0-A4 the arguments and
// results; bodies reload their arguments from the frame, so nothing is live
// across the dispatch. 32-bit arguments are loaded with MOVW, which
// sign-extends as LR.W and AMO*.W sign-extend the value they read, so a
// CAS compares like with like.
package riscv64

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_riscv64.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh riscv64 backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: moveOp, StoreOp: moveOp}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "riscv64" }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/pause":          pauseBody,
	"cas32/llsc":           casLLSC(32),
	"cas64/llsc":           casLLSC(64),
	"casuintptr/llsc":      casLLSC(64),
	"fetchadd32/amo":       rmwAMO("AMOADD", 32, "delta"),
	"fetchadd32/llsc":      rmwLLSC("ADD", 32, "delta"),
	"fetchadd64/amo":       rmwAMO("AMOADD", 64, "delta"),
	"fetchadd64/llsc":      rmwLLSC("ADD", 64, "delta"),
	"swap32/amo":           rmwAMO("AMOSWAP", 32, "new"),
	"swap32/llsc":          swapLLSC(32),
	"swap64/amo":           rmwAMO("AMOSWAP", 64, "new"),
	"swap64/llsc":          swapLLSC(64),
	"loadacquire32/fence":  loadFence(32),
	"loadacquire64/fence":  loadFence(64),
	"storerelease32/fence": storeFence(32),
	"storerelease64/fence": storeFence(64),
	"fence/fence":          fenceBody,
	"cycles/rdtime":        cyclesRDTIME,
	"spinlock32/llsc":      spinLock32,
	"cpu/syscall":          cpuSyscall,
	"fetchor32/amo":        rmwAMO("AMOOR", 32, "mask"),
	"fetchor32/llsc":       rmwLLSC("OR", 32, "mask"),
	"fetchor64/amo":        rmwAMO("AMOOR", 64, "mask"),
	"fetchor64/llsc":       rmwLLSC("OR", 64, "mask"),
	"fetchand32/amo":       rmwAMO("AMOAND", 32, "mask"),
	"fetchand32/llsc":      rmwLLSC("AND", 32, "mask"),
	"fetchand64/amo":       rmwAMO("AMOAND", 64, "mask"),
	"fetchand64/llsc":      rmwLLSC("AND", 64, "mask"),
	// uintptr is 64 bits on riscv64.
	"fetchadduintptr/amo":       rmwAMO("AMOADD", 64, "delta"),
	"fetchadduintptr/llsc":      rmwLLSC("ADD", 64, "delta"),
	"swapuintptr/amo":           rmwAMO("AMOSWAP", 64, "new"),
	"swapuintptr/llsc":          swapLLSC(64),
	"loadacquireuintptr/fence":  loadFence(64),
	"storereleaseuintptr/fence": storeFence(64),
	// cas128 has only hal's Go variant (spec.Portable) on riscv64: the
	// driver never asks a backend for it.
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBU of the flag into T0, then BNEZ
// for two variants, or a constant in T1 and a BEQ per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBU", "·"+sel+"(SB)", "T0")
	if len(labels) == 1 {
		e.Ins("BNEZ", "T0", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("MOV", fmt.Sprintf("$%d", i+1), "T1")
		e.Ins("BEQ", "T0", "T1", l)
	}
}

// ResolveUint128 implements backend.Backend. No riscv64 entry needs it:
// the 128-bit ops have only Go variants here (no Zacas), so their entries,
// the Uint128 ones included, are Go. A Zacas variant would need it written
// (a plain MOVWU of the offset, then FENCE R,RW for the acquire).
func (e *Backend) ResolveUint128(entry, moved string) error {
	return fmt.Errorf("riscv64 has no 128-bit assembly variant, so no Uint128 entry in assembly (%s)", entry)
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

var moveOp = backend.Moves("MOVB", "MOVW", "MOV")

// sfx returns the mnemonic suffix for a width: W for 32 bits, D for 64.
func sfx(bits int) string {
	if bits == 32 {
		return "W"
	}
	return "D"
}

// lrAQRL writes LR.W/D.aqrl rd, (rs1).
func (e *Backend) lrAQRL(bits int, rd, rs1 string) error {
	w, asm, err := lr(bits, true, true, rd, rs1)
	if err != nil {
		return err
	}
	e.Word(w, asm)
	return nil
}

// fence writes FENCE pred, succ.
func (e *Backend) fence(pred, succ string) error {
	w, asm, err := fence(pred, succ)
	if err != nil {
		return err
	}
	e.Word(w, asm)
	return nil
}

// pauseBody: PAUSE (Zihintpause) tells the core the hart is spinning, so it
// may lower power or yield to another hart on the same core. It encodes as
// FENCE W,0 with an empty successor set, which orders nothing: a core
// without Zihintpause runs it as a harmless fence, so it needs no feature
// check. (The Go runtime's procyield is empty on riscv64.)
func pauseBody(e *Backend, _ string) error {
	w, asm := pause()
	e.Word(w, asm)
	e.Ret()
	return nil
}

// casLLSC: LR.aqrl reads the word; on a mismatch the body leaves without a
// store (the reservation is simply dropped); otherwise SC.rl tries the
// store and the loop retries while the SC reports failure (non-zero).
func casLLSC(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "A0")
		e.Load("old", "A1")
		e.Load("new", "A2")
		e.Label(p + "loop")
		if err := e.lrAQRL(bits, "A3", "A0"); err != nil {
			return err
		}
		e.Ins("BNE", "A3", "A1", p+"fail")
		e.Ins("SC"+sfx(bits), "A2", "(A0)", "A4")
		e.Ins("BNEZ", "A4", p+"loop")
		e.Ins("MOV", "$1", "A0")
		e.Store("A0", 0)
		e.Ret()
		e.Label(p + "fail")
		e.Store("ZERO", 0)
		e.Ret()
		return nil
	}
}

// rmwAMO: AMOADD.aqrl or AMOSWAP.aqrl rs2, (rs1), rd, one instruction that
// returns the old value (sign-extended for W).
func rmwAMO(mnemonic string, bits int, arg string) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "A0")
		e.Load(arg, "A1")
		e.Ins(mnemonic+sfx(bits), "A1", "(A0)", "A2")
		e.Store("A2", 0)
		e.Ret()
		return nil
	}
}

// rmwLLSC: the LR/SC loop of a read-modify-write whose new value is
// alu(old, arg). alu is ADD (ADDW for 32 bits, which keeps the sum
// sign-extended as LR.W's result is), OR or AND (bitwise, so the low 32
// bits SC.W stores are right whatever the upper ones).
func rmwLLSC(alu string, bits int, arg string) body {
	return func(e *Backend, p string) error {
		if alu == "ADD" && bits == 32 {
			alu = "ADDW"
		}
		e.Load("addr", "A0")
		e.Load(arg, "A1")
		e.Label(p + "loop")
		if err := e.lrAQRL(bits, "A2", "A0"); err != nil {
			return err
		}
		e.Ins(alu, "A1", "A2", "A3")
		e.Ins("SC"+sfx(bits), "A3", "(A0)", "A4")
		e.Ins("BNEZ", "A4", p+"loop")
		e.Store("A2", 0)
		e.Ret()
		return nil
	}
}

func swapLLSC(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "A0")
		e.Load("new", "A1")
		e.Label(p + "loop")
		if err := e.lrAQRL(bits, "A2", "A0"); err != nil {
			return err
		}
		e.Ins("SC"+sfx(bits), "A1", "(A0)", "A3")
		e.Ins("BNEZ", "A3", p+"loop")
		e.Store("A2", 0)
		e.Ret()
		return nil
	}
}

// loadFence: an aligned load is single-copy atomic; FENCE R,RW after it
// keeps every later load and store after it (acquire).
func loadFence(bits int) body {
	return func(e *Backend, _ string) error {
		mov := "MOV"
		if bits == 32 {
			mov = "MOVWU"
		}
		e.Load("addr", "A0")
		e.Ins(mov, "(A0)", "A1")
		if err := e.fence("r", "rw"); err != nil {
			return err
		}
		e.Store("A1", 0)
		e.Ret()
		return nil
	}
}

// storeFence: FENCE RW,W before an aligned store keeps every earlier load
// and store before it (release).
func storeFence(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "A0")
		e.Load("val", "A1")
		if err := e.fence("rw", "w"); err != nil {
			return err
		}
		e.Ins(moveOp(bits/8), "A1", "(A0)")
		e.Ret()
		return nil
	}
}

// fenceBody: FENCE RW,RW orders every earlier load and store before every
// later one.
func fenceBody(e *Backend, _ string) error {
	if err := e.fence("rw", "rw"); err != nil {
		return err
	}
	e.Ret()
	return nil
}

// cyclesRDTIME: RDTIME reads the time CSR (Zicntr), a constant-rate
// platform timer shared by all harts, as the Go runtime's cputicks does
// (golang/go#46737: the cycle CSR is per hart and Linux 6.6+ no longer lets
// user space read it). Its rate is the platform's timebase (often 1 to
// 100 MHz), which hal.CycleFrequency calibrates. RISC-V has no cheap way to
// order a CSR read against earlier instructions, and at such rates a few
// cycles of skew is well below one tick.
func cyclesRDTIME(e *Backend, _ string) error {
	e.Ins("RDTIME", "A0")
	e.Store("A0", 0)
	e.Ret()
	return nil
}

// spinLock32: the test-and-test-and-set loop in one function. A plain MOVW
// reads the word (only the CAS needs ordering; the read keeps the line
// shared among waiters); while it is held the loop spends one unit of the
// budget in A1 on a PAUSE and reads again. When it reads 0 it tries 0→1
// with LR.W.aqrl/SC.W.rl, the sequentially consistent CAS of cas32. An LR
// that finds the word held goes where a read that found it held goes; an
// SC that fails retries the LR. The LR/SC pair is a constrained loop (two
// instructions between LR and SC, no other memory access).
func spinLock32(e *Backend, p string) error {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	e.Load("addr", "A0")
	e.Load("spins", "A1")
	e.Ins("MOV", "$1", "A2")
	e.Label(loop)
	e.Ins("MOVW", "(A0)", "A3")
	e.Ins("BEQZ", "A3", try)
	e.Label(held)
	e.Ins("BEQZ", "A1", fail)
	e.Ins("SUBW", "$1", "A1")
	w, asm := pause()
	e.Word(w, asm)
	e.Ins("JMP", loop)
	e.Label(try)
	if err := e.lrAQRL(32, "A3", "A0"); err != nil {
		return err
	}
	e.Ins("BNEZ", "A3", held)
	e.Ins("SCW", "A2", "(A0)", "A4")
	e.Ins("BNEZ", "A4", try)
	e.Comment("A2 = 1: acquired.")
	e.Store("A2", 0)
	e.Ret()
	e.Label(fail)
	e.Store("ZERO", 0)
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), riscv64 Linux system call 168 (ECALL with the
// number in A7), writing the CPU number (an unsigned int) into the low
// half of the result slot; MOVWU reloads it zero-extended. riscv64 has no
// user-mode way to read the CPU number on Linux. On an error (which
// getcpu with a valid pointer does not return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOV", "$"+e.Result(0), "A0")
	e.Ins("MOV", "ZERO", "A1")
	e.Ins("MOV", "ZERO", "A2")
	e.Ins("MOV", "$168", "A7")
	e.Ins("ECALL")
	e.Ins("BNEZ", "A0", bad)
	e.Ins("MOVWU", e.Result(0), "A0")
	e.Store("A0", 0)
	e.Ret()
	e.Label(bad)
	e.Store("ZERO", 0)
	e.Ret()
	return nil
}
