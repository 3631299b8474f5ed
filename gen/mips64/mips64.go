// Package mips64 is gohal's MIPS backend, a small text emitter of Go
// assembler syntax like gen/riscv64. It serves mips64 and, through NewFor,
// mips64le, mips and mipsle (gen/mips64le, gen/mips and gen/mipsle hold
// only their specs and constructors).
//
// Orderings follow the Go toolchain's own mips64 atomics
// (internal/runtime/atomic/atomic_mips64x.s), which bracket every
// read-modify-write's LL/SC loop with SYNC (the MIPS full barrier, stype
// 0) on both sides, and Linux's fully ordered atomics on MIPS (smp_mb
// before and after the loop, arch/mips/include/asm/cmpxchg.h):
//
//   - read-modify-write (CAS, fetch-add/or/and, swap): SYNC; an LL/SC (32
//     bits) or LLD/SCD (64 bits, the Go assembler's LLV/SCV) loop; SYNC. A
//     CAS whose compare failed stored nothing and still ends in SYNC, as the
//     runtime's Cas does;
//   - load-acquire: a plain load, then SYNC; store-release: SYNC, then a
//     plain store (the runtime's LoadAcq and StoreRel add a second SYNC
//     that only a sequentially consistent access needs);
//   - full fence: SYNC.
//
// Go's mips64 port targets MIPS III and later (GOMIPS64 picks only the
// floating point), all of which have LL/SC, LLD/SCD and SYNC, so no variant
// needs a feature. MIPS64 has no 128-bit atomic before Release 6's
// LLDP/SCDP, and Release 6 re-encoded LL/SC: Go's mips64 binaries do not
// run on Release 6 cores at all. So the 128-bit ops are hal's striped-lock
// Go variant.
//
// Go's mips and mipsle ports target MIPS32 (Release 1; GOMIPS picks only
// the floating point), which has LL/SC and SYNC on 32-bit words and no
// 64-bit atomic: LLD/SCD are MIPS64 instructions, and Release 6's LLWP/SCWP
// (a linked pair of words) come with the re-encoded LL/SC that Go's
// binaries do not use. So there the 64-bit and 128-bit ops are hal's Go
// variant, over sync/atomic's 64-bit functions, which the Go runtime
// implements with a lock on mips and mipsle; uintptr is 32 bits and its
// ops are the 32-bit bodies.
//
// The Go assembler fills the branch delay slots itself (a NOP after each
// branch, unless a body asks for NOREORDER, which none does).
//
// Registers: Go's ABI0 reserves R0 (zero), R23 (the assembler's
// temporary), R26/R27 (kernel), R28 (SB), R29 (SP), R30 (g) and R31 (link),
// and R22 may hold a closure context on entry. Bodies use R1-R9 only and
// reload their arguments from the frame. 32-bit arguments are loaded with
// MOVW, which sign-extends as LL does, so a CAS compares like with like.
package mips64

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_mips64.s or asm_mips64le.s.
//
// No body depends on the byte order: each loads and stores whole words of
// the width its op names, and getcpu's unsigned int is reloaded by the
// address given to the kernel. gen/mips64le's tests check that both
// GOARCHes get the same assembly.
type Backend struct {
	backend.TextEmitter
	goarch string
	wide   bool // 64-bit registers and pointers: mips64, mips64le
}

// New returns a fresh mips64 (big-endian) backend.
func New() *Backend { return NewFor("mips64") }

// NewFor returns a fresh backend for goarch: mips64, mips64le, mips or
// mipsle.
func NewFor(goarch string) *Backend {
	ptr := spec.PtrSize(goarch)
	return &Backend{
		TextEmitter: backend.TextEmitter{LoadOp: loadOp, StoreOp: storeOp, PtrSize: ptr,
			BigEndian: goarch == "mips" || goarch == "mips64"},
		goarch: goarch,
		wide:   ptr == 8,
	}
}

// mov is the register move of the machine's word: MOVV on mips64, MOVW on
// mips (which has no MOVV).
func (e *Backend) mov() string {
	if e.wide {
		return "MOVV"
	}
	return "MOVW"
}

// ptrBits is the width of uintptr.
func (e *Backend) ptrBits() int {
	if e.wide {
		return 64
	}
	return 32
}

// Arch implements backend.Backend.
func (e *Backend) Arch() string { return e.goarch }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/pause": pausePAUSE,
	"pause/nop":   func(e *Backend, _ string) error { e.Ret(); return nil },
	"fence/sync":  func(e *Backend, _ string) error { e.Ins("SYNC"); e.Ret(); return nil },

	"cas32/llsc":      casLLSC(32),
	"cas64/llsc":      casLLSC(64),
	"casuintptr/llsc": ptrBody(casLLSC),

	"fetchadd32/llsc":      rmwLLSC("ADDU", 32, "delta"),
	"fetchadd64/llsc":      rmwLLSC("ADDVU", 64, "delta"),
	"fetchadduintptr/llsc": ptrBody(func(bits int) body { return rmwLLSC(add(bits), bits, "delta") }),
	"fetchor32/llsc":       rmwLLSC("OR", 32, "mask"),
	"fetchor64/llsc":       rmwLLSC("OR", 64, "mask"),
	"fetchand32/llsc":      rmwLLSC("AND", 32, "mask"),
	"fetchand64/llsc":      rmwLLSC("AND", 64, "mask"),
	"swap32/llsc":          rmwLLSC("", 32, "new"),
	"swap64/llsc":          rmwLLSC("", 64, "new"),
	"swapuintptr/llsc":     ptrBody(func(bits int) body { return rmwLLSC("", bits, "new") }),

	"loadacquire32/sync":       loadSYNC(32),
	"loadacquire64/sync":       loadSYNC(64),
	"loadacquireuintptr/sync":  ptrBody(loadSYNC),
	"storerelease32/sync":      storeSYNC(32),
	"storerelease64/sync":      storeSYNC(64),
	"storereleaseuintptr/sync": ptrBody(storeSYNC),

	"spinlock32/llsc": spinLock32,
	"cpu/syscall":     cpuSyscall,
	// cas128, load128, store128 and cycles have only hal's Go variant
	// (spec.Portable) on every MIPS GOARCH, and so have the 64-bit ops
	// on mips and mipsle: the driver never asks a backend for them.
}

// ptrBody returns the body of a uintptr op: mk's body for the width of
// uintptr on the backend's GOARCH.
func ptrBody(mk func(bits int) body) body {
	return func(e *Backend, p string) error { return mk(e.ptrBits())(e, p) }
}

// add is the add of a width: ADDU (32-bit, sign-extending on mips64) or
// ADDVU.
func add(bits int) string {
	if bits == 32 {
		return "ADDU"
	}
	return "ADDVU"
}

// Implements implements backend.Backend: the keys of bodies, less the
// 64-bit ops' on mips and mipsle (their spec has only the Go variant).
func (e *Backend) Implements() []string {
	var out []string
	for _, k := range bodies.Implements() {
		if e.wide || !only64[k] {
			out = append(out, k)
		}
	}
	return out
}

// only64 are the bodies of the 64-bit ops, which need LLD/SCD or 64-bit
// loads and stores: mips64 and mips64le only.
var only64 = map[string]bool{
	"cas64/llsc": true, "fetchadd64/llsc": true, "fetchor64/llsc": true, "fetchand64/llsc": true,
	"swap64/llsc": true, "loadacquire64/sync": true, "storerelease64/sync": true,
}

// Select implements backend.Backend: MOVBU of the flag into R1, then BNE
// for two variants, or a constant in R2 and a BEQ per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBU", "·"+sel+"(SB)", "R1")
	if len(labels) == 1 {
		e.Ins("BNE", "R1", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins(e.mov(), fmt.Sprintf("$%d", i+1), "R2")
		e.Ins("BEQ", "R1", "R2", l)
	}
}

// ResolveUint128 implements backend.Backend. No mips64 entry needs it: the
// 128-bit ops have only Go variants here.
func (e *Backend) ResolveUint128(entry, moved string) error {
	return fmt.Errorf("%s has no 128-bit assembly variant, so no Uint128 entry in assembly (%s)", e.goarch, entry)
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// loadOp sign-extends a 32-bit argument (MOVW is lw), as LL does. (No
// 8-byte value reaches a mips or mipsle body.)
var loadOp = backend.Moves("MOVBU", "MOVW", "MOVV")

var storeOp = backend.Moves("MOVB", "MOVW", "MOVV")

// ll and sc return the load-linked and store-conditional of a width: LL/SC
// (ll/sc) for 32 bits, LLV/SCV (lld/scd) for 64.
func ll(bits int) string {
	if bits == 32 {
		return "LL"
	}
	return "LLV"
}

func sc(bits int) string {
	if bits == 32 {
		return "SC"
	}
	return "SCV"
}

// pausePAUSE: PAUSE (MIPS32/MIPS64 Release 2), which the Go assembler
// lacks: WORD-encoded. It is sll $0,$0,5 (enc.go), which a core before
// Release 2 runs as a shift into the zero register, a no-op, so it needs no
// detection. A Release 2 core also waits while its LLbit is set, that is
// after an LL whose SC did not run (a CAS whose compare failed), until
// another CPU writes that line or an exception returns: the wait a spin
// on the word a CAS just found held wants.
func pausePAUSE(e *Backend, _ string) error {
	w, asm := pause()
	e.Word(w, asm)
	e.Ret()
	return nil
}

// casLLSC: SYNC, then the loop: LL/LLV reads the word and links it; on a
// mismatch the body leaves without a store, through SYNC; otherwise SC/SCV
// tries new (it overwrites its register with 1 on success, 0 on failure,
// so new is copied into R3 on every try), the loop retries while it fails,
// and SYNC follows the store.
func casLLSC(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R1")
		e.Load("old", "R2")
		e.Load("new", "R5")
		e.Ins("SYNC")
		e.Label(p + "loop")
		e.Ins(e.mov(), "R5", "R3")
		e.Ins(ll(bits), "(R1)", "R4")
		e.Ins("BNE", "R2", "R4", p+"fail")
		e.Ins(sc(bits), "R3", "(R1)")
		e.Ins("BEQ", "R3", p+"loop")
		e.Ins("SYNC")
		e.Ins(e.mov(), "$1", "R3")
		e.Store("R3", 0)
		e.Ret()
		e.Label(p + "fail")
		e.Ins("SYNC")
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// rmwLLSC: the loop of a read-modify-write whose new value is alu(old,
// arg) (ADDU/ADDVU, OR or AND; none for a swap, which stores arg), between
// two SYNCs. The old value stays in R1 and is returned; for 32 bits LL
// sign-extends it and MOVW stores its low half.
func rmwLLSC(alu string, bits int, arg string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R2")
		e.Load(arg, "R3")
		e.Ins("SYNC")
		e.Label(p + "loop")
		e.Ins(ll(bits), "(R2)", "R1")
		if alu != "" {
			e.Ins(alu, "R1", "R3", "R4")
		} else {
			e.Ins(e.mov(), "R3", "R4")
		}
		e.Ins(sc(bits), "R4", "(R2)")
		e.Ins("BEQ", "R4", p+"loop")
		e.Ins("SYNC")
		e.Store("R1", 0)
		e.Ret()
		return nil
	}
}

// loadSYNC: a plain aligned load (single-copy atomic), then SYNC, which
// orders it before every later load and store.
func loadSYNC(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R1")
		e.Ins(loadOp(bits/8), "0(R1)", "R2")
		e.Ins("SYNC")
		e.Store("R2", 0)
		e.Ret()
		return nil
	}
}

// storeSYNC: SYNC orders every earlier load and store before the plain
// aligned store after it (release).
func storeSYNC(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R1")
		e.Load("val", "R2")
		e.Ins("SYNC")
		e.Ins(storeOp(bits/8), "R2", "0(R1)")
		e.Ret()
		return nil
	}
}

// spinLock32: the test-and-test-and-set loop in one function. A plain MOVW
// reads the word (only the CAS needs ordering; the read keeps the line
// shared among waiters); while it is held the loop spends one unit of the
// budget in R2 on a PAUSE and reads again. When it reads 0 it tries 0→1
// with cas32's sequence: SYNC, an LL/SC loop, SYNC once it stored. An LL
// that finds the word held goes where a read that found it held goes (its
// PAUSE then waits, on a Release 2 core, until the word is written); an SC
// that fails retries the LL.
func spinLock32(e *Backend, p string) error {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	e.Load("addr", "R1")
	if e.wide {
		e.Ins("MOVWU", e.Arg("spins"), "R2") // the budget is unsigned
	} else {
		e.Load("spins", "R2") // a whole register: BEQ and SUBU see it unsigned
	}
	e.Label(loop)
	e.Ins("MOVW", "0(R1)", "R4")
	e.Ins("BNE", "R4", held)
	e.Ins("SYNC")
	e.Label(try)
	e.Ins(e.mov(), "$1", "R3")
	e.Ins("LL", "(R1)", "R4")
	e.Ins("BNE", "R4", held)
	e.Ins("SC", "R3", "(R1)")
	e.Ins("BEQ", "R3", try)
	e.Ins("SYNC")
	e.Comment("R3 = 1: acquired.")
	e.Store("R3", 0)
	e.Ret()
	e.Label(held)
	e.Ins("BEQ", "R2", fail)
	if e.wide {
		e.Ins("SUBVU", "$1", "R2")
	} else {
		e.Ins("SUBU", "$1", "R2")
	}
	w, asm := pause()
	e.Word(w, asm)
	e.Ins("JMP", loop)
	e.Label(fail)
	e.Store("R0", 0)
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), Linux system call 5271 on mips64 (n64), 4312 on
// mips (o32): the number in R2, the CPU number's address in R4 (the result slot), nil node and
// cache in R5 and R6; the kernel sets R7 when it fails. The kernel writes
// an unsigned int at the address given; MOVWU reloads it from there
// zero-extended, right in both byte orders. On an error (which getcpu with
// a valid pointer does not return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	nr := "$5271"
	if !e.wide {
		nr = "$4312"
	}
	e.Ins(e.mov(), "$"+e.Result(0), "R4")
	e.Ins(e.mov(), "R0", "R5")
	e.Ins(e.mov(), "R0", "R6")
	e.Ins(e.mov(), nr, "R2")
	e.Ins("SYSCALL")
	e.Ins("BNE", "R7", bad)
	e.Ins(e.mov(), "$"+e.Result(0), "R4")
	if e.wide {
		e.Ins("MOVWU", "0(R4)", "R2")
	} else {
		e.Ins("MOVW", "0(R4)", "R2")
	}
	e.Store("R2", 0)
	e.Ret()
	e.Label(bad)
	e.Store("R0", 0)
	e.Ret()
	return nil
}
