// Package arm64 is gohal's arm64 backend: avo is x86-only, so this is a
// small text emitter of Go assembler syntax.
//
// Orderings follow the Go runtime's arm64 atomics
// (internal/runtime/atomic/atomic_arm64.s): read-modify-writes are either
// the LSE acquire+release forms (CASAL, LDADDAL, SWPAL) or LDAXR/STLXR
// loops; loads are LDAR (or LDAPR for acquire only), stores STLR. Together
// these are sequentially consistent for the read-modify-writes, as in
// sync/atomic.
//
// Registers: R0-R9 only. R9 holds the flag byte in an entry; bodies reload
// their arguments from the frame, so nothing is live across the dispatch.
package arm64

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_arm64.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh arm64 backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: loadOp, StoreOp: storeOp}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "arm64" }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/isb":           func(e *Backend, _ string) error { e.Ins("ISB", "$15"); e.Ret(); return nil },
	"pause/yield":         func(e *Backend, _ string) error { e.Ins("YIELD"); e.Ret(); return nil },
	"cas32/lse":           casLSE(32),
	"cas32/llsc":          casLLSC(32),
	"cas64/lse":           casLSE(64),
	"cas64/llsc":          casLLSC(64),
	"casuintptr/lse":      casLSE(64),
	"casuintptr/llsc":     casLLSC(64),
	"fetchadd32/lse":      rmwLSE("LDADDAL", 32, "delta"),
	"fetchadd32/llsc":     rmwLLSC("ADD", 32, "delta"),
	"fetchadd64/lse":      rmwLSE("LDADDAL", 64, "delta"),
	"fetchadd64/llsc":     rmwLLSC("ADD", 64, "delta"),
	"swap32/lse":          rmwLSE("SWPAL", 32, "new"),
	"swap32/llsc":         swapLLSC(32),
	"swap64/lse":          rmwLSE("SWPAL", 64, "new"),
	"swap64/llsc":         swapLLSC(64),
	"loadacquire32/ldapr": loadLDAPR(32),
	"loadacquire32/ldar":  loadLDAR(32),
	"loadacquire64/ldapr": loadLDAPR(64),
	"loadacquire64/ldar":  loadLDAR(64),
	"storerelease32/stlr": storeSTLR(32),
	"storerelease64/stlr": storeSTLR(64),
	"fence/dmb":           fenceDMB,
	"cas128/lse":          cas128LSE,
	"cas128/llsc":         cas128LLSC,
	"load128/lse":         load128LSE,
	"load128/llsc":        load128LLSC,
	"store128/lse":        store128LSE,
	"store128/llsc":       store128LLSC,
	"cycles/cntvct":       cyclesCNTVCT,
	"spinlock32/lse":      spinLock32(true),
	"spinlock32/llsc":     spinLock32(false),
	"cpu/syscall":         cpuSyscall,
	"fetchor32/lse":       rmwLSE("LDORAL", 32, "mask"),
	"fetchor32/llsc":      rmwLLSC("ORR", 32, "mask"),
	"fetchor64/lse":       rmwLSE("LDORAL", 64, "mask"),
	"fetchor64/llsc":      rmwLLSC("ORR", 64, "mask"),
	"fetchand32/lse":      fetchandLSE(32),
	"fetchand32/llsc":     rmwLLSC("AND", 32, "mask"),
	"fetchand64/lse":      fetchandLSE(64),
	"fetchand64/llsc":     rmwLLSC("AND", 64, "mask"),
	// uintptr is 64 bits on arm64.
	"fetchadduintptr/lse":      rmwLSE("LDADDAL", 64, "delta"),
	"fetchadduintptr/llsc":     rmwLLSC("ADD", 64, "delta"),
	"swapuintptr/lse":          rmwLSE("SWPAL", 64, "new"),
	"swapuintptr/llsc":         swapLLSC(64),
	"loadacquireuintptr/ldapr": loadLDAPR(64),
	"loadacquireuintptr/ldar":  loadLDAR(64),
	"storereleaseuintptr/stlr": storeSTLR(64),
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBU of the flag into R9, then CBNZ
// for two variants or a CMP/BEQ per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBU", "·"+sel+"(SB)", "R9")
	if len(labels) == 1 {
		e.Ins("CBNZ", "R9", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("CMP", fmt.Sprintf("$%d", i+1), "R9")
		e.Ins("BEQ", l)
	}
}

// ResolveUint128 implements backend.Backend. The Uint128's cell pointer
// is read with LDAR, a load-acquire: the accesses after it (the key, then
// CASPAL or LDAXP on the cell's value) may not be performed before it, so
// a goroutine that sees the pointer a first access published (with
// sync/atomic's CAS, after it filled the cell) sees the filled cell.
// Unless the pointer XOR the key (the Uint128's second word) is addr (a
// zero value's key is 0, so this also rules out a nil cell), go to moved.
// Only the Uint128's own line is read, never the cell's.
func (e *Backend) ResolveUint128(entry, moved string) error {
	e.Load("addr", "R0")
	e.Ins("LDAR", "(R0)", "R1")
	e.Ins("MOVD", fmt.Sprintf("%d(R0)", spec.Uint128KeyOffset), "R2")
	e.Ins("EOR", "R1", "R2")
	e.Ins("CMP", "R0", "R2")
	e.Ins("BNE", "moved")
	e.Ins("MOVD", "R1", e.Arg("addr"))
	e.TailJump(entry)
	e.Label("moved")
	e.TailJump(moved)
	return nil
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

var loadOp = backend.Moves("MOVBU", "MOVWU", "MOVD")

var storeOp = backend.Moves("MOVB", "MOVW", "MOVD")

// sfx returns the mnemonic suffix for a width: W for 32 bits, D (or
// nothing, when d is "") for 64.
func sfx(bits int, d string) string {
	if bits == 32 {
		return "W"
	}
	return d
}

// casLSE: CASAL compares R3 (a copy of old) with the word and stores R2 if
// equal; R3 receives the value found either way.
func casLSE(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R0")
		e.Load("old", "R1")
		e.Load("new", "R2")
		e.Ins("MOVD", "R1", "R3")
		e.Ins("CASAL"+sfx(bits, "D"), "R3", "(R0)", "R2")
		e.Ins("CMP"+sfx(bits, ""), "R1", "R3")
		e.Ins("CSET", "EQ", "R4")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// casLLSC: the runtime's loop. On a mismatch it leaves without storing,
// with the flags still NE from the compare; on success it falls out of the
// loop with the flags EQ (CBNZ does not touch them).
func casLLSC(bits int) body {
	return func(e *Backend, p string) error {
		w := sfx(bits, "")
		e.Load("addr", "R0")
		e.Load("old", "R1")
		e.Load("new", "R2")
		e.Label(p + "loop")
		e.Ins("LDAXR"+w, "(R0)", "R3")
		e.Ins("CMP"+w, "R1", "R3")
		e.Ins("BNE", p+"done")
		e.Ins("STLXR"+w, "R2", "(R0)", "R4")
		e.Ins("CBNZ", "R4", p+"loop")
		e.Label(p + "done")
		e.Ins("CSET", "EQ", "R4")
		e.Store("R4", 0)
		e.Ret()
		return nil
	}
}

// rmwLSE: LDADDAL, SWPAL and LDORAL (LDSETAL) take their operand in R1
// and return the old value in R2.
func rmwLSE(mnemonic string, bits int, arg string) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R0")
		e.Load(arg, "R1")
		e.Ins(mnemonic+sfx(bits, "D"), "R1", "(R0)", "R2")
		e.Store("R2", 0)
		e.Ret()
		return nil
	}
}

func swapLLSC(bits int) body {
	return func(e *Backend, p string) error {
		w := sfx(bits, "")
		e.Load("addr", "R0")
		e.Load("new", "R1")
		e.Label(p + "loop")
		e.Ins("LDAXR"+w, "(R0)", "R2")
		e.Ins("STLXR"+w, "R1", "(R0)", "R3")
		e.Ins("CBNZ", "R3", p+"loop")
		e.Store("R2", 0)
		e.Ret()
		return nil
	}
}

// loadLDAPR: LDAPR (RCpc) may be satisfied before an earlier STLR to
// another address completes, which acquire allows and LDAR does not.
func loadLDAPR(bits int) body {
	return func(e *Backend, _ string) error {
		w, err := ldapr(bits, 1, 0)
		if err != nil {
			return err
		}
		reg := "X1"
		if bits == 32 {
			reg = "W1"
		}
		e.Load("addr", "R0")
		e.Word(w, "LDAPR "+reg+", [X0]")
		e.Store("R1", 0)
		e.Ret()
		return nil
	}
}

func loadLDAR(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R0")
		e.Ins("LDAR"+sfx(bits, ""), "(R0)", "R1")
		e.Store("R1", 0)
		e.Ret()
		return nil
	}
}

func storeSTLR(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R0")
		e.Load("val", "R1")
		e.Ins("STLR"+sfx(bits, ""), "R1", "(R0)")
		e.Ret()
		return nil
	}
}

// fenceDMB: DMB ISH (option 0b1011) orders all earlier loads and stores
// before all later ones for every observer in the inner shareable domain.
func fenceDMB(e *Backend, _ string) error {
	e.Ins("DMB", "$0xb")
	e.Ret()
	return nil
}

// cas128LSE: CASPAL X0, X1, X2, X3, [X5]. X0:X1 holds old and receives the
// value found; X2:X3 holds new. The relaxed CASP the Go assembler offers
// (CASPD) would not order surrounding accesses, so the acquire+release form
// is WORD-encoded.
func cas128LSE(e *Backend, p string) error {
	w, err := caspal(0, 2, 5)
	if err != nil {
		return err
	}
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	e.Load("oldLo", "R0")
	e.Load("oldHi", "R1")
	e.Load("newLo", "R2")
	e.Load("newHi", "R3")
	e.Ins("MOVD", "R0", "R6")
	e.Ins("MOVD", "R1", "R7")
	e.Word(w, "CASPAL X0, X1, X2, X3, [X5]")
	e.Store("R0", 0)
	e.Store("R1", 1)
	e.Ins("EOR", "R6", "R0", "R8")
	e.Ins("EOR", "R7", "R1", "R9")
	e.Ins("ORR", "R9", "R8", "R8")
	e.Ins("CMP", "$0", "R8")
	e.Ins("CSET", "EQ", "R4")
	e.Store("R4", 2)
	e.Ret()
	e.misaligned(p)
	return nil
}

// cas128LLSC: LDAXP reads the pair, but only a successful store-exclusive
// proves the two halves were read as one single-copy-atomic value. So on a
// mismatch the loop stores back what it read (STLXP, a no-op write) and
// retries until that succeeds; the value then returned is atomic.
func cas128LLSC(e *Backend, p string) error {
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	e.Load("oldLo", "R6")
	e.Load("oldHi", "R7")
	e.Load("newLo", "R2")
	e.Load("newHi", "R3")
	e.Label(p + "loop")
	e.Ins("LDAXP", "(R5)", "(R0, R1)")
	e.Ins("CMP", "R6", "R0")
	e.Ins("BNE", p+"differ")
	e.Ins("CMP", "R7", "R1")
	e.Ins("BNE", p+"differ")
	e.Ins("STLXP", "(R2, R3)", "(R5)", "R8")
	e.Ins("CBNZ", "R8", p+"loop")
	e.Ins("MOVD", "$1", "R4")
	e.Ins("B", p+"done")
	e.Label(p + "differ")
	e.Comment("Write back the value read: the pair was read atomically only if this succeeds.")
	e.Ins("STLXP", "(R0, R1)", "(R5)", "R8")
	e.Ins("CBNZ", "R8", p+"loop")
	e.Ins("MOVD", "ZR", "R4")
	e.Label(p + "done")
	e.Store("R0", 0)
	e.Store("R1", 1)
	e.Store("R4", 2)
	e.Ret()
	e.misaligned(p)
	return nil
}

// alignCheck branches to the body's misaligned label when the word in r is
// not 16-byte aligned: CASP and LDXP/STXP take an alignment fault there.
func (e *Backend) alignCheck(r, p string) {
	e.Ins("TST", "$15", r)
	e.Ins("BNE", p+"misaligned")
}

// misaligned is the body's misaligned label: a tail jump, with the
// function's own argument frame and the caller's LR, to the Go function
// that panics with an error naming the address (spec.Misaligned128, in
// hal and hal/direct).
func (e *Backend) misaligned(p string) {
	e.Label(p + "misaligned")
	e.TailJump(spec.Misaligned128)
}

// load128LSE: CASPAL of 0 with 0 (X0:X1 = X2:X3 = 0): the word is
// unchanged (0 is stored only where 0 was), and X0:X1 receives its value,
// read single-copy atomically, with acquire and release ordering.
func load128LSE(e *Backend, p string) error {
	w, err := caspal(0, 2, 5)
	if err != nil {
		return err
	}
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	for _, r := range []string{"R0", "R1", "R2", "R3"} {
		e.Ins("MOVD", "ZR", r)
	}
	e.Word(w, "CASPAL X0, X1, X2, X3, [X5]")
	e.Store("R0", 0)
	e.Store("R1", 1)
	e.Ret()
	e.misaligned(p)
	return nil
}

// load128LLSC: LDAXP reads the pair; the STLXP of the same pair succeeds
// only if no other write reached the word in between, which is what makes
// the two halves one single-copy-atomic value. Retry until it does.
func load128LLSC(e *Backend, p string) error {
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	e.Label(p + "loop")
	e.Ins("LDAXP", "(R5)", "(R0, R1)")
	e.Ins("STLXP", "(R0, R1)", "(R5)", "R8")
	e.Ins("CBNZ", "R8", p+"loop")
	e.Store("R0", 0)
	e.Store("R1", 1)
	e.Ret()
	e.misaligned(p)
	return nil
}

// store128LSE: a CASPAL loop. The first guess is read with a plain LDP (it
// may be torn: it is only a guess); a CASPAL that fails leaves the value
// found in X0:X1, the next guess.
func store128LSE(e *Backend, p string) error {
	w, err := caspal(0, 2, 5)
	if err != nil {
		return err
	}
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	e.Load("lo", "R2")
	e.Load("hi", "R3")
	e.Ins("LDP", "(R5)", "(R0, R1)")
	e.Label(p + "loop")
	e.Ins("MOVD", "R0", "R6")
	e.Ins("MOVD", "R1", "R7")
	e.Word(w, "CASPAL X0, X1, X2, X3, [X5]")
	e.Ins("CMP", "R6", "R0")
	e.Ins("BNE", p+"loop")
	e.Ins("CMP", "R7", "R1")
	e.Ins("BNE", p+"loop")
	e.Ret()
	e.misaligned(p)
	return nil
}

// store128LLSC: LDAXP/STLXP loop storing the new pair; the value read is
// not used, the exclusive pair only makes the store atomic.
func store128LLSC(e *Backend, p string) error {
	e.Load("addr", "R5")
	e.alignCheck("R5", p)
	e.Load("lo", "R2")
	e.Load("hi", "R3")
	e.Label(p + "loop")
	e.Ins("LDAXP", "(R5)", "(R0, R1)")
	e.Ins("STLXP", "(R2, R3)", "(R5)", "R8")
	e.Ins("CBNZ", "R8", p+"loop")
	e.Ret()
	e.misaligned(p)
	return nil
}

// cyclesCNTVCT: reads of CNTVCT_EL0 may be performed out of order, ahead of
// earlier instructions (and so ahead of the code being timed); the ISB
// before it makes the read happen after everything earlier has completed,
// as Linux's vDSO does.
func cyclesCNTVCT(e *Backend, _ string) error {
	e.Ins("ISB", "$15")
	e.Ins("MRS", "CNTVCT_EL0", "R0")
	e.Store("R0", 0)
	e.Ret()
	return nil
}

// spinLock32: the test-and-test-and-set loop in one function. A plain
// MOVWU reads the word (only the CAS needs ordering; the read keeps the
// line shared among waiters); while it is held the loop spends one unit of
// the budget in R1 on ISB $15, the Go 1.26 runtime's spin hint, and reads
// again. When it reads 0 it tries 0→1 with CASALW (lse) or an
// LDAXRW/STLXRW pair (llsc), acquire and release like the cas32 variants,
// so the lock is taken sequentially consistently. A CAS that finds the
// word held goes where a read that found it held goes; a store-exclusive
// that fails without the word having changed retries the pair.
func spinLock32(lse bool) body {
	return func(e *Backend, p string) error {
		loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
		e.Load("addr", "R0")
		e.Load("spins", "R1")
		e.Ins("MOVW", "$1", "R2")
		e.Label(loop)
		e.Ins("MOVWU", "(R0)", "R3")
		e.Ins("CBZW", "R3", try)
		e.Label(held)
		e.Ins("CBZW", "R1", fail)
		e.Ins("SUBW", "$1", "R1")
		e.Ins("ISB", "$15")
		e.Ins("B", loop)
		e.Label(try)
		if lse {
			e.Comment("R3 = 0, the comparand; it receives the value found.")
			e.Ins("CASALW", "R3", "(R0)", "R2")
			e.Ins("CBNZW", "R3", held)
		} else {
			e.Ins("LDAXRW", "(R0)", "R3")
			e.Ins("CBNZW", "R3", held)
			e.Ins("STLXRW", "R2", "(R0)", "R4")
			e.Ins("CBNZW", "R4", try)
		}
		e.Comment("R2 = 1: acquired.")
		e.Store("R2", 0)
		e.Ret()
		e.Label(fail)
		e.Store("ZR", 0)
		e.Ret()
		return nil
	}
}

// cpuSyscall: getcpu(2), arm64 Linux system call 168 (SVC with the number
// in R8), writing the CPU number (an unsigned int) into the low half of
// the result slot; the upper half is then cleared by reloading it as 32
// bits. arm64 has no user-mode way to read the CPU number on Linux. On an
// error (which getcpu with a valid pointer does not return) the result
// is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVD", "$"+e.Result(0), "R0")
	e.Ins("MOVD", "ZR", "R1")
	e.Ins("MOVD", "ZR", "R2")
	e.Ins("MOVD", "$168", "R8")
	e.Ins("SVC", "$0")
	e.Ins("CBNZ", "R0", bad)
	e.Ins("MOVWU", e.Result(0), "R0")
	e.Store("R0", 0)
	e.Ret()
	e.Label(bad)
	e.Store("ZR", 0)
	e.Ret()
	return nil
}

// fetchandLSE: LSE has no fetch-and; LDCLRAL clears the bits set in its
// operand, so it gets ^mask (MVN), as the compiler's intrinsic for
// atomic.AndUint64 does. The old value lands in R2.
func fetchandLSE(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R0")
		e.Load("mask", "R1")
		e.Ins("MVN"+sfx(bits, ""), "R1", "R1")
		e.Ins("LDCLRAL"+sfx(bits, "D"), "R1", "(R0)", "R2")
		e.Store("R2", 0)
		e.Ret()
		return nil
	}
}

// rmwLLSC: the LDAXR/STLXR loop of a read-modify-write whose new value is
// alu(old, arg): ADD for fetch-add, ORR for fetch-or, AND for fetch-and.
func rmwLLSC(alu string, bits int, arg string) body {
	return func(e *Backend, p string) error {
		w := sfx(bits, "")
		e.Load("addr", "R0")
		e.Load(arg, "R1")
		e.Label(p + "loop")
		e.Ins("LDAXR"+w, "(R0)", "R2")
		e.Ins(alu+w, "R1", "R2", "R3")
		e.Ins("STLXR"+w, "R3", "(R0)", "R4")
		e.Ins("CBNZ", "R4", p+"loop")
		e.Store("R2", 0)
		e.Ret()
		return nil
	}
}
