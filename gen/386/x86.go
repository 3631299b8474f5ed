// Package i386 is gohal's 386 backend, a small text emitter
// of Go assembler syntax like gen/riscv64: avo writes amd64 only.
//
// Orderings follow x86-TSO, as the Go runtime's own 386 atomics
// (internal/runtime/atomic/atomic_386.s): a locked instruction (LOCK
// CMPXCHG, LOCK XADD, XCHG, LOCK CMPXCHG8B) is a full barrier, so every
// read-modify-write is sequentially consistent; a plain load is an
// acquire and a plain store a release. The 64-bit read-modify-writes are
// LOCK CMPXCHG8B loops: CMPXCHG8B compares EDX:EAX with the word, stores
// ECX:EBX on a match and otherwise loads the word into EDX:EAX, so a
// failed attempt hands the next one its expected value. The 64-bit loads
// and stores are one 8-byte MOVQ (an XMM register with SSE2, else an MMX
// one followed by EMMS, as the runtime's Load64 and Store64).
//
// A 64-bit op checks that its word is 8-byte aligned first and otherwise
// tail-jumps to spec.Misaligned64, which panics as sync/atomic does on
// 386 (a misaligned CMPXCHG8B would work, as a slow split lock, and a
// misaligned MOVQ would not be atomic).
//
// Registers: AX holds the flag byte in an entry; AX, BX, CX, DX, SI, DI and
// BP the arguments and results (BP as the runtime's Cas64 uses it: no frame
// pointer on 386). Bodies reload their arguments from the frame.
package i386

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_386.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh 386 backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: moveOp, StoreOp: moveOp, PtrSize: 4}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "386" }

// moveOp moves a bool, a 4-byte value, or an 8-byte one (MOVQ, for an
// MMX or XMM register only).
var moveOp = backend.Moves("MOVB", "MOVL", "MOVQ")

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/pause":             pauseBody,
	"cas64/lock":              cas64,
	"fetchadd64/lock":         rmw64("ADD", "delta"),
	"swap64/lock":             rmw64("", "new"),
	"fetchor64/lock":          rmw64("OR", "mask"),
	"fetchand64/lock":         rmw64("AND", "mask"),
	"loadacquire64/sse2":      load64("X0"),
	"loadacquire64/mmx":       load64("M0"),
	"storerelease64/sse2":     store64("X0"),
	"storerelease64/mmx":      store64("M0"),
	"fence/lockor":            fenceLockOr,
	"fence/mfence":            fenceMFENCE,
	"cycles/rdtscp":           cycles("RDTSCP"),
	"cycles/lfence_rdtsc":     cycles("LFENCE", "RDTSC"),
	"cycles/rdtsc":            cycles("RDTSC"),
	"spinlock32/pause":        spinLock32,
	"cpu/rdpid":               cpuRDPID,
	"cpu/rdtscp":              cpuRDTSCP,
	"cpu/lsl":                 cpuLSL,
	"cpu/syscall":             cpuSyscall,
	"fetchor32/lock":          bits32("ORL"),
	"fetchand32/lock":         bits32("ANDL"),
	"cas32/lock":              cas32,
	"casuintptr/lock":         cas32,
	"fetchadd32/lock":         xadd32,
	"fetchadduintptr/lock":    xadd32,
	"swap32/lock":             xchg32,
	"swapuintptr/lock":        xchg32,
	"loadacquire32/mov":       load32,
	"loadacquireuintptr/mov":  load32,
	"storerelease32/mov":      store32,
	"storereleaseuintptr/mov": store32,
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBLZX of the flag into AX, then
// TESTB and JNE for two variants, or a CMPB and JEQ per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBLZX", "·"+sel+"(SB)", "AX")
	if len(labels) == 1 {
		e.Ins("TESTB", "AL", "AL")
		e.Ins("JNE", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("CMPB", "AL", fmt.Sprintf("$%d", i+1))
		e.Ins("JEQ", l)
	}
}

// ResolveUint128 implements backend.Backend. No 386 entry needs it: the
// 128-bit ops have only Go variants here.
func (e *Backend) ResolveUint128(entry, moved string) error {
	return fmt.Errorf("386 has no 128-bit assembly variant, so no Uint128 entry in assembly (%s)", entry)
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// lo and hi are the halves of a uint64 argument or result.
func (e *Backend) lo(name string) string { return e.ArgHalf(name, false) }
func (e *Backend) hi(name string) string { return e.ArgHalf(name, true) }

// addr64 loads addr into BP and branches to the body's misaligned label
// when it is not a multiple of 8.
func (e *Backend) addr64(p string) {
	e.Load("addr", "BP")
	e.Ins("TESTL", "$7", "BP")
	e.Ins("JNE", p+"misaligned")
}

// misaligned is the body's misaligned label: a tail jump with the
// function's own argument frame (the entries have none).
func (e *Backend) misaligned(p string) {
	e.Label(p + "misaligned")
	e.TailJump(spec.Misaligned64)
}

func pauseBody(e *Backend, _ string) error {
	e.Ins("PAUSE")
	e.Ret()
	return nil
}

// cas32: LOCK CMPXCHGL compares EAX with the word and stores CX on a
// match; ZF says which.
func cas32(e *Backend, _ string) error {
	e.Load("addr", "BX")
	e.Load("old", "AX")
	e.Load("new", "CX")
	e.Ins("LOCK")
	e.Ins("CMPXCHGL", "CX", "0(BX)")
	e.Ins("SETEQ", e.Result(0))
	e.Ret()
	return nil
}

// xadd32: LOCK XADDL leaves the old value in AX.
func xadd32(e *Backend, _ string) error {
	e.Load("addr", "BX")
	e.Load("delta", "AX")
	e.Ins("LOCK")
	e.Ins("XADDL", "AX", "0(BX)")
	e.Store("AX", 0)
	e.Ret()
	return nil
}

// xchg32: XCHG with memory is locked without a prefix.
func xchg32(e *Backend, _ string) error {
	e.Load("addr", "BX")
	e.Load("new", "AX")
	e.Ins("XCHGL", "AX", "0(BX)")
	e.Store("AX", 0)
	e.Ret()
	return nil
}

// bits32: a LOCK CMPXCHGL loop; a failed CMPXCHG loads the word into AX,
// the next attempt's expected value.
func bits32(alu string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "BX")
		e.Load("mask", "DX")
		e.Ins("MOVL", "0(BX)", "AX")
		e.Label(p + "loop")
		e.Ins("MOVL", "AX", "CX")
		e.Ins(alu, "DX", "CX")
		e.Ins("LOCK")
		e.Ins("CMPXCHGL", "CX", "0(BX)")
		e.Ins("JNE", p+"loop")
		e.Store("AX", 0)
		e.Ret()
		return nil
	}
}

func load32(e *Backend, _ string) error {
	e.Load("addr", "BX")
	e.Ins("MOVL", "0(BX)", "AX")
	e.Store("AX", 0)
	e.Ret()
	return nil
}

func store32(e *Backend, _ string) error {
	e.Load("addr", "BX")
	e.Load("val", "AX")
	e.Ins("MOVL", "AX", "0(BX)")
	e.Ret()
	return nil
}

// cas64: LOCK CMPXCHG8B compares EDX:EAX with the word and stores ECX:EBX
// on a match; ZF says which.
func cas64(e *Backend, p string) error {
	e.addr64(p)
	e.Ins("MOVL", e.lo("old"), "AX")
	e.Ins("MOVL", e.hi("old"), "DX")
	e.Ins("MOVL", e.lo("new"), "BX")
	e.Ins("MOVL", e.hi("new"), "CX")
	e.Ins("LOCK")
	e.Ins("CMPXCHG8B", "0(BP)")
	e.Ins("SETEQ", e.Result(0))
	e.Ret()
	e.misaligned(p)
	return nil
}

// rmw64: a LOCK CMPXCHG8B loop from a first guess read with two plain
// loads (torn or stale, it only costs a retry: the failed CMPXCHG8B loads
// the word itself into EDX:EAX); ECX:EBX = alu(EDX:EAX, arg), or arg for
// a swap (alu "", loaded once). The old value is the result.
func rmw64(alu, arg string) body {
	return func(e *Backend, p string) error {
		e.addr64(p)
		e.Ins("MOVL", "0(BP)", "AX")
		e.Ins("MOVL", "4(BP)", "DX")
		if alu == "" {
			e.Ins("MOVL", e.lo(arg), "BX")
			e.Ins("MOVL", e.hi(arg), "CX")
		}
		e.Label(p + "loop")
		switch alu {
		case "ADD":
			e.Ins("MOVL", "AX", "BX")
			e.Ins("MOVL", "DX", "CX")
			e.Ins("ADDL", e.lo(arg), "BX")
			e.Ins("ADCL", e.hi(arg), "CX")
		case "OR", "AND":
			e.Ins("MOVL", "AX", "BX")
			e.Ins("MOVL", "DX", "CX")
			e.Ins(alu+"L", e.lo(arg), "BX")
			e.Ins(alu+"L", e.hi(arg), "CX")
		}
		e.Ins("LOCK")
		e.Ins("CMPXCHG8B", "0(BP)")
		e.Ins("JNE", p+"loop")
		ret := e.ResultName(0)
		e.Ins("MOVL", "AX", e.lo(ret))
		e.Ins("MOVL", "DX", e.hi(ret))
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// load64: one 8-byte MOVQ into r (X0, or M0 then EMMS to give the x87
// registers back).
func load64(r string) body {
	return func(e *Backend, p string) error {
		e.addr64(p)
		e.Ins("MOVQ", "0(BP)", r)
		e.Store(r, 0)
		if r == "M0" {
			e.Ins("EMMS")
		}
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// store64: one 8-byte MOVQ from r.
func store64(r string) body {
	return func(e *Backend, p string) error {
		e.addr64(p)
		e.Load("val", r)
		e.Ins("MOVQ", r, "0(BP)")
		if r == "M0" {
			e.Ins("EMMS")
		}
		e.Ret()
		e.misaligned(p)
		return nil
	}
}

// fenceLockOr: a locked OR of 0 into the top of the stack changes nothing
// and is a full barrier.
func fenceLockOr(e *Backend, _ string) error {
	e.Ins("LOCK")
	e.Ins("ORL", "$0", "0(SP)")
	e.Ret()
	return nil
}

func fenceMFENCE(e *Backend, _ string) error {
	e.Ins("MFENCE")
	e.Ret()
	return nil
}

// cycles: the TSC in EDX:EAX after the given instructions.
func cycles(ins ...string) body {
	return func(e *Backend, _ string) error {
		for _, i := range ins {
			e.Ins(i)
		}
		e.Ins("MOVL", "AX", e.lo("ret"))
		e.Ins("MOVL", "DX", e.hi("ret"))
		e.Ret()
		return nil
	}
}

// spinLock32: the test-and-test-and-set loop in one function: a plain
// MOVL reads the word; while it is held the loop spends one unit of the
// budget in DX on a PAUSE and reads again; when it reads 0 it tries 0→1
// with LOCK CMPXCHGL, and a CAS that loses goes where a held read goes.
func spinLock32(e *Backend, p string) error {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	e.Load("addr", "BX")
	e.Load("spins", "DX")
	e.Ins("MOVL", "$1", "CX")
	e.Label(loop)
	e.Ins("MOVL", "0(BX)", "AX")
	e.Ins("TESTL", "AX", "AX")
	e.Ins("JEQ", try)
	e.Label(held)
	e.Ins("TESTL", "DX", "DX")
	e.Ins("JEQ", fail)
	e.Ins("DECL", "DX")
	e.Ins("PAUSE")
	e.Ins("JMP", loop)
	e.Label(try)
	e.Ins("LOCK")
	e.Ins("CMPXCHGL", "CX", "0(BX)")
	e.Ins("JNE", held)
	e.Ins("MOVB", "$1", e.Result(0))
	e.Ret()
	e.Label(fail)
	e.Ins("MOVB", "$0", e.Result(0))
	e.Ret()
	return nil
}

// cpuNodeMask keeps the CPU number of Linux's node<<12 | cpu.
const cpuNodeMask = "$0xfff"

func cpuRDPID(e *Backend, _ string) error {
	e.Ins("RDPID", "AX")
	e.Ins("ANDL", cpuNodeMask, "AX")
	e.Store("AX", 0)
	e.Ret()
	return nil
}

func cpuRDTSCP(e *Backend, _ string) error {
	e.Ins("RDTSCP")
	e.Ins("ANDL", cpuNodeMask, "CX")
	e.Store("CX", 0)
	e.Ret()
	return nil
}

// cpuLSL: LSL of selector 0x7b loads the limit of Linux's per-CPU GDT
// entry (node<<12 | cpu); ZF clear means the selector was not valid.
func cpuLSL(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVL", "$0x7b", "AX")
	e.Ins("LSLL", "AX", "AX")
	e.Ins("JNE", bad)
	e.Ins("ANDL", cpuNodeMask, "AX")
	e.Store("AX", 0)
	e.Ret()
	e.Label(bad)
	e.Ins("MOVL", "$0", e.Result(0))
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), i386 Linux system call 318 through INT $0x80
// (number in AX, arguments in BX, CX, DX), writing the CPU number (an
// unsigned int, the size of Go's int here) straight into the result slot.
// On an error (which getcpu with a valid pointer does not return) the
// result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("LEAL", e.Result(0), "BX")
	e.Ins("MOVL", "$0", "CX")
	e.Ins("MOVL", "$0", "DX")
	e.Ins("MOVL", "$318", "AX")
	e.Ins("INT", "$0x80")
	e.Ins("TESTL", "AX", "AX")
	e.Ins("JNE", bad)
	e.Ret()
	e.Label(bad)
	e.Ins("MOVL", "$0", e.Result(0))
	e.Ret()
	return nil
}
