// Package s390x is gohal's s390x backend, a small text emitter of Go
// assembler syntax like gen/riscv64.
//
// Orderings follow the Go runtime's s390x atomics
// (internal/runtime/atomic/atomic_s390x.s) and the compiler's lowering of
// sync/atomic (cmd/compile/internal/ssa/_gen/S390X.rules and
// cmd/compile/internal/s390x/ssa.go):
//
//   - read-modify-writes: CS/CSG (COMPARE AND SWAP), alone for a CAS or in a
//     loop for swap, fetch-add, -or and -and, as the runtime's Cas, Xchg,
//     Xadd, Or32 and And64; or one interlocked-update instruction of the
//     interlocked-access facility 1, LAA/LAAG (the compiler's
//     atomic.Add*), LAO/LAOG or LAN/LANG. CS and CDSG serialize before and
//     after; Go's compiler uses CS and LAA for sync/atomic's sequentially
//     consistent CompareAndSwap and Add with no fence around them, and so
//     does hal;
//   - loads and stores: z/Architecture is strongly ordered. Only a store
//     followed by a load of another word may be reordered (the store may
//     wait in a store buffer), so a plain load is an acquire load and a
//     plain store a release store (the runtime's LoadAcq and StoreRel). The
//     compiler's atomic.Store* is the store then SYNC (BCR 14,0), to keep it
//     before later loads (Go commit ac8dbe7747, "cmd/compile, runtime: make
//     atomic loads/stores sequentially consistent on s390x"); store128's
//     STPQ does the same;
//   - full fence: BCR 14,0 (Go's SYNC) or BCR 15,0.
//
// Registers: R1 holds the flag byte in an entry; bodies use R1-R9 only
// (R0 reads as 0 as a base register, R10 and R11 are the assembler's
// temporaries, R12 the closure context, R13 g, R14 the link register, R15
// the stack pointer), and reload their arguments from the frame, so
// nothing is live across the dispatch. The 128-bit instructions take
// even/odd register pairs (R2:R3, R4:R5); the even register holds the
// doubleword at the lower address, addr[0], which is lo on every GOARCH.
package s390x

import (
	"fmt"
	"strings"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_s390x.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh s390x backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: loadOp, StoreOp: storeOp}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "s390x" }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/nop":               pauseNop,
	"cas32/cs":                casCS(32),
	"cas64/cs":                casCS(64),
	"casuintptr/cs":           casCS(64),
	"fetchadd32/laa":          rmwIA("LAA", 32, "delta"),
	"fetchadd32/cs":           rmwCS("ADDW", 32, "delta"),
	"fetchadd64/laa":          rmwIA("LAAG", 64, "delta"),
	"fetchadd64/cs":           rmwCS("ADD", 64, "delta"),
	"fetchadduintptr/laa":     rmwIA("LAAG", 64, "delta"),
	"fetchadduintptr/cs":      rmwCS("ADD", 64, "delta"),
	"swap32/cs":               swapCS(32),
	"swap64/cs":               swapCS(64),
	"swapuintptr/cs":          swapCS(64),
	"fetchor32/lao":           rmwIA("LAO", 32, "mask"),
	"fetchor32/cs":            rmwCS("ORW", 32, "mask"),
	"fetchor64/lao":           rmwIA("LAOG", 64, "mask"),
	"fetchor64/cs":            rmwCS("OR", 64, "mask"),
	"fetchand32/lan":          rmwIA("LAN", 32, "mask"),
	"fetchand32/cs":           rmwCS("ANDW", 32, "mask"),
	"fetchand64/lan":          rmwIA("LANG", 64, "mask"),
	"fetchand64/cs":           rmwCS("AND", 64, "mask"),
	"loadacquire32/mov":       loadMov(32),
	"loadacquire64/mov":       loadMov(64),
	"loadacquireuintptr/mov":  loadMov(64),
	"storerelease32/mov":      storeMov(32),
	"storerelease64/mov":      storeMov(64),
	"storereleaseuintptr/mov": storeMov(64),
	"fence/bcr14":             fenceBCR14,
	"fence/bcr15":             fenceBCR15,
	"cas128/cdsg":             cas128CDSG,
	"load128/pq":              load128LPQ,
	"load128/cdsg":            load128CDSG,
	"store128/pq":             store128STPQ,
	"store128/cdsg":           store128CDSG,
	"cycles/stckf":            cyclesClock("STCKF"),
	"cycles/stck":             cyclesClock("STCK"),
	"spinlock32/cs":           spinLock32,
	"cpu/syscall":             cpuSyscall,
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBZ of the flag into R1, then
// CMPBNE R1, $0 for two variants, or CMPBEQ R1, $i per label for more
// (compare and branch, with no register for the constant).
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBZ", "·"+sel+"(SB)", "R1")
	if len(labels) == 1 {
		e.Ins("CMPBNE", "R1", "$0", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("CMPBEQ", "R1", fmt.Sprintf("$%d", i+1), l)
	}
}

// ResolveUint128 implements backend.Backend. The Uint128's cell pointer is
// read with a plain MOVD, which is an acquire load on s390x (no later load
// or store is performed before it), so a goroutine that sees the pointer a
// first access published (with sync/atomic's CAS, after it filled the
// cell) sees the filled cell. Unless the pointer XOR the key (the
// Uint128's second word) is addr (a zero value's key is 0, so this also
// rules out a nil cell), go to moved. Only the Uint128's own line is read,
// never the cell's.
func (e *Backend) ResolveUint128(entry, moved string) error {
	e.Load("addr", "R2")
	e.Ins("MOVD", "(R2)", "R3")
	e.Ins("MOVD", fmt.Sprintf("%d(R2)", spec.Uint128KeyOffset), "R4")
	e.Ins("XOR", "R3", "R4")
	e.Ins("CMPBNE", "R2", "R4", "moved")
	e.Ins("MOVD", "R3", e.Arg("addr"))
	e.TailJump(entry)
	e.Label("moved")
	e.TailJump(moved)
	return nil
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// loadOp zero-extends: MOVWZ (LLGF) for 32 bits. CS compares and the
// interlocked updates operate on the low 32 bits of a register only, so
// the upper half never matters to them.
var loadOp = backend.Moves("MOVBZ", "MOVWZ", "MOVD")

var storeOp = backend.Moves("MOVB", "MOVW", "MOVD")

// csOp is CS for 32 bits, CSG for 64.
func csOp(bits int) string {
	if bits == 32 {
		return "CS"
	}
	return "CSG"
}

// raw writes an instruction the Go assembler lacks as its bytes, with its
// GNU syntax as the comment (the tests assemble that with binutils).
func (e *Backend) raw(b []byte, asm string, err error) error {
	if err != nil {
		return err
	}
	mnemonic, operands, _ := strings.Cut(directives(b), " ")
	e.Ins(mnemonic, operands+" // "+asm)
	return nil
}

// pauseNop: s390x has no spin-loop hint a program may use; the Go
// runtime's procyieldAsm on s390x is the same lone return.
func pauseNop(e *Backend, _ string) error {
	e.Comment("No spin hint on s390x: the call and return are the delay.")
	e.Ret()
	return nil
}

// casCS: CS/CSG R3, R4, (R2) compares R3 (old) with the word and stores R4
// (new) if equal, condition code 0; else loads the word into R3, condition
// code 1. MOVB to the frame does not change the condition code.
func casCS(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R2")
		e.Load("old", "R3")
		e.Load("new", "R4")
		e.Ins(csOp(bits), "R3", "R4", "(R2)")
		e.Ins("BNE", p+"fail")
		e.Ins("MOVB", "$1", e.Result(0))
		e.Ret()
		e.Label(p + "fail")
		e.Ins("MOVB", "$0", e.Result(0))
		e.Ret()
		return nil
	}
}

// rmwIA: an interlocked-access instruction, LAA/LAAG, LAO/LAOG or
// LAN/LANG R3, R4, (R2): R4 = the word, the word = R4 op R3, as one
// interlocked update.
func rmwIA(mnemonic string, bits int, arg string) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R2")
		e.Load(arg, "R3")
		e.Ins(mnemonic, "R3", "R4", "(R2)")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// rmwCS: the runtime's CS loop. A plain load gives the first guess in R4;
// R5 = R4 alu R3; CS stores R5 if the word still holds R4, else reloads R4
// with what it holds, and the loop recomputes R5. For 32 bits the W form
// of the ALU keeps the high half of R5 untouched (CS stores the low half).
func rmwCS(alu string, bits int, arg string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R2")
		e.Load(arg, "R3")
		e.Ins(loadOp(bits/8), "(R2)", "R4")
		e.Label(p + "loop")
		e.Ins(alu, "R3", "R4", "R5")
		e.Ins(csOp(bits), "R4", "R5", "(R2)")
		e.Ins("BNE", p+"loop")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// swapCS: the compiler's swap: a plain load of the first guess into R4,
// then CS R4, R3 until the word held R4 when R3 went in.
func swapCS(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R2")
		e.Load("new", "R3")
		e.Ins(loadOp(bits/8), "(R2)", "R4")
		e.Label(p + "loop")
		e.Ins(csOp(bits), "R4", "R3", "(R2)")
		e.Ins("BNE", p+"loop")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// loadMov: an aligned L/LG is block-concurrent (single-copy atomic) and no
// later access is performed before it.
func loadMov(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R2")
		e.Ins(loadOp(bits/8), "(R2)", "R3")
		e.Store("R3", 0)
		e.Ret()
		return nil
	}
}

// storeMov: an aligned ST/STG is block-concurrent and performed after every
// earlier access.
func storeMov(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R2")
		e.Load("val", "R3")
		e.Ins(storeOp(bits/8), "R3", "(R2)")
		e.Ret()
		return nil
	}
}

// fenceBCR14: Go's SYNC assembles to BCR 14,0.
func fenceBCR14(e *Backend, _ string) error {
	e.Ins("SYNC")
	e.Ret()
	return nil
}

// fenceBCR15: BCR 15,0, raw bytes (Go would spell it BR R0).
func fenceBCR15(e *Backend, _ string) error {
	if err := e.raw(bcr(15, 0)); err != nil {
		return err
	}
	e.Ret()
	return nil
}

// alignCheck branches to the body's misaligned label when the word in r is
// not 16-byte aligned: CDSG, LPQ and STPQ raise a specification exception
// there (SIGILL under Linux). TMLL sets condition code 0 when the four low
// bits are all zero.
func (e *Backend) alignCheck(r, p string) {
	e.Ins("TMLL", r, "$15")
	e.Ins("BNE", p+"misaligned")
}

// misaligned is the body's misaligned label: a tail jump, with the
// function's own argument frame and the caller's return address still in
// R14, to the Go function that panics with an error naming the address
// (spec.Misaligned128, in hal and hal/direct).
func (e *Backend) misaligned(p string) {
	e.Label(p + "misaligned")
	e.TailJump(spec.Misaligned128)
}

// cas128CDSG: CDSG R2, R4, 0(R6) compares R2:R3 (oldLo, oldHi) with the
// quadword and stores R4:R5 (newLo, newHi) if equal (condition code 0),
// else loads the quadword into R2:R3 (condition code 1). R2:R3 then holds
// the value found either way. MOVD and MOVB to the frame leave the
// condition code alone.
func cas128CDSG(e *Backend, p string) error {
	e.Load("addr", "R6")
	e.alignCheck("R6", p)
	e.Load("oldLo", "R2")
	e.Load("oldHi", "R3")
	e.Load("newLo", "R4")
	e.Load("newHi", "R5")
	if err := e.raw(cdsg("R2", "R4", 0, "R6")); err != nil {
		return err
	}
	e.Store("R2", 0)
	e.Store("R3", 1)
	e.Ins("BNE", p+"fail")
	e.Ins("MOVB", "$1", e.Result(2))
	e.Ret()
	e.Label(p + "fail")
	e.Ins("MOVB", "$0", e.Result(2))
	e.Ret()
	e.misaligned(p)
	return nil
}

// load128LPQ: LPQ R2, 0(R6) loads the quadword into R2:R3 in one
// block-concurrent access, writing nothing.
func load128LPQ(e *Backend, p string) error {
	e.Load("addr", "R6")
	e.alignCheck("R6", p)
	if err := e.raw(lpq("R2", 0, "R6")); err != nil {
		return err
	}
	e.Store("R2", 0)
	e.Store("R3", 1)
	e.Ret()
	e.misaligned(p)
	return nil
}

// load128CDSG: CDSG of 0 with 0 (R2:R3 = R4:R5 = 0): the word is unchanged
// (0 is stored only where 0 was) and R2:R3 receives its value.
func load128CDSG(e *Backend, p string) error {
	e.Load("addr", "R6")
	e.alignCheck("R6", p)
	for _, r := range []string{"R2", "R3", "R4", "R5"} {
		e.Ins("MOVD", "$0", r)
	}
	if err := e.raw(cdsg("R2", "R4", 0, "R6")); err != nil {
		return err
	}
	e.Store("R2", 0)
	e.Store("R3", 1)
	e.Ret()
	e.misaligned(p)
	return nil
}

// store128STPQ: STPQ R2, 0(R6) stores R2:R3 in one block-concurrent
// access; SYNC (BCR 14,0) after it keeps later loads after it, as Go's
// atomic.Store* does.
func store128STPQ(e *Backend, p string) error {
	e.Load("addr", "R6")
	e.alignCheck("R6", p)
	e.Load("lo", "R2")
	e.Load("hi", "R3")
	if err := e.raw(stpq("R2", 0, "R6")); err != nil {
		return err
	}
	e.Ins("SYNC")
	e.Ret()
	e.misaligned(p)
	return nil
}

// store128CDSG: a CDSG loop. The first guess is read with two plain loads
// (it may be torn: it is only a guess); a CDSG that fails leaves the value
// found in R2:R3, the next guess.
func store128CDSG(e *Backend, p string) error {
	e.Load("addr", "R6")
	e.alignCheck("R6", p)
	e.Load("lo", "R4")
	e.Load("hi", "R5")
	e.Ins("MOVD", "0(R6)", "R2")
	e.Ins("MOVD", "8(R6)", "R3")
	e.Label(p + "loop")
	if err := e.raw(cdsg("R2", "R4", 0, "R6")); err != nil {
		return err
	}
	e.Ins("BNE", p+"loop")
	e.Ret()
	e.misaligned(p)
	return nil
}

// cyclesClock: STCKF or STCK stores the 64-bit TOD clock straight into the
// result slot. Bit 51 of the TOD clock ticks once per microsecond, so the
// value counts 4096 units per microsecond (4.096 GHz nominal, whatever the
// implementation's real resolution); hal.CycleFrequency calibrates it.
// The value is returned whole: unlike the runtime's cputicks, which
// clears the top bit to keep an int64 positive, Cycles is a uint64.
func cyclesClock(mnemonic string) body {
	return func(e *Backend, _ string) error {
		e.Ins(mnemonic, e.Result(0))
		e.Ret()
		return nil
	}
}

// spinLock32: the test-and-test-and-set loop in one function. A plain
// MOVWZ reads the word (only the CAS needs ordering; the read keeps the
// line shared among waiters); while it is held the loop spends one unit of
// the budget in R3 and reads again (no spin hint: s390x has none). When it
// reads 0 it tries CS 0→1, the sequentially consistent CAS of cas32; a CS
// that finds the word held goes where a read that found it held goes.
func spinLock32(e *Backend, p string) error {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	e.Load("addr", "R2")
	e.Load("spins", "R3")
	e.Ins("MOVD", "$1", "R5")
	e.Label(loop)
	e.Ins("MOVWZ", "(R2)", "R4")
	e.Ins("CMPBEQ", "R4", "$0", try)
	e.Label(held)
	e.Ins("CMPBEQ", "R3", "$0", fail)
	e.Ins("ADD", "$-1", "R3")
	e.Ins("BR", loop)
	e.Label(try)
	e.Ins("MOVD", "$0", "R4")
	e.Ins("CS", "R4", "R5", "(R2)")
	e.Ins("BNE", held)
	e.Ins("MOVB", "$1", e.Result(0))
	e.Ret()
	e.Label(fail)
	e.Ins("MOVB", "$0", e.Result(0))
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), s390x Linux system call 311 (SVC 0 with the
// number in R1, the arguments in R2-R4, the result in R2), writing the CPU
// number (an unsigned int) into the first four bytes of the result slot:
// on a big-endian machine those are its high half, so MOVWZ reloads the
// number zero-extended from the slot's own address, kept in R5 (the kernel
// preserves every register but R2 across SVC). s390x has no user-mode
// way to read the CPU number that qemu-user emulates. On an error (which
// getcpu with a valid pointer does not return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVD", "$"+e.Result(0), "R5")
	e.Ins("MOVD", "R5", "R2")
	e.Ins("MOVD", "$0", "R3")
	e.Ins("MOVD", "$0", "R4")
	e.Ins("MOVD", "$311", "R1")
	e.Ins("SYSCALL")
	e.Ins("CMPBNE", "R2", "$0", bad)
	e.Ins("MOVWZ", "(R5)", "R2")
	e.Store("R2", 0)
	e.Ret()
	e.Label(bad)
	e.Ins("MOVD", "$0", "R2")
	e.Store("R2", 0)
	e.Ret()
	return nil
}
