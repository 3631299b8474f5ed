// Package loong64 is gohal's loong64 (LoongArch64) backend, a small text
// emitter of Go assembler syntax like gen/riscv64.
//
// Orderings are those of the Go toolchain's own loong64 atomics, the
// runtime's (internal/runtime/atomic/atomic_loong64.s) and the compiler's
// intrinsics (cmd/compile/internal/loong64/ssa.go, LoweredAtomic*), checked
// against what Go 1.26.8 compiles sync/atomic to:
//
//   - sequentially consistent read-modify-write: the AM*_DB instructions
//     (AMADD_DB, AMSWAP_DB, AMOR_DB, AMAND_DB; Go's AMADDDBW/V, AMSWAPDBW/V,
//     AMORDBW/V, AMANDDBW/V), which "not only complete the atomic operation
//     but also implement the complete full data barrier function"
//     (cmd/internal/obj/loong64/doc.go): the runtime's Xadd, Xchg, Or32,
//     And32 and the compiler's AtomicAdd/Exchange/And/Or;
//   - the LL/SC loops (CAS, and the llsc variants of the other
//     read-modify-writes): DBAR 0x14 before the loop, DBAR 0x12 after it,
//     as the runtime's Cas/Cas64 ll_sc path and Xchg8 and the compiler's
//     LoweredAtomicCas. A CAS that fails leaves without a store-conditional
//     and gets DBAR 0x14 after its LL instead: a failed compare-and-swap is
//     a sequentially consistent load, and this is Go's load mapping (the
//     runtime's DBAR 0x12 there orders no later load after the LL; LLVM
//     emits the same acquire barrier on that path, llvm-project PR 67391,
//     which describes LL as "memory-barrier + load-exclusive" and SC as
//     "store-conditional + memory-barrier");
//   - load-acquire: a plain load, then DBAR 0x14, as the runtime's Load and
//     the compiler's AtomicLoad (which is why the variant is marked
//     Intrinsic);
//   - store-release: DBAR 0x12, then a plain store (Linux's
//     smp_store_release barrier, strel_mb), or AMSWAP_DB with the old value
//     discarded into R0, what the runtime's Store and the compiler's
//     AtomicStore are (a full barrier, stronger than release);
//   - full fence: DBAR 0x10, Linux's __smp_mb (o_sync: ordering barrier
//     for all earlier and later loads and stores).
//
// DBAR's hint (arch/loongarch/include/asm/barrier.h in Linux; the Go
// assembler's doc.go quotes it): bit 4 ordering (1) or completion (0);
// bits 3-0, when clear, order earlier reads, earlier writes, later reads,
// later writes. So 0x14 orders earlier reads before later reads and
// writes (acquire), 0x12 earlier reads and writes before later writes
// (release), 0x10 everything. LA464 (Loongson 3A5000, and qemu's only
// loongarch64 model) runs every hint as DBAR 0, the full completion
// barrier; LA664 and later implement the finer hints.
//
// The Go assembler has every instruction this backend needs with the
// right bits (checked in isa_test.go against binutils' opcode table):
// no WORD encodings, so no enc.go.
//
// Registers: R12 holds the flag byte in an entry and R13 the constant it
// is compared with; R4-R9 the arguments, results and temporaries. The Go
// toolchain reserves R1 (link), R2 (thread pointer), R3 (SP), R22 (g),
// R29 (closure context) and R30 (the assembler's temporary). Bodies reload
// their arguments from the frame, so nothing is live across the dispatch.
// 32-bit arguments are loaded with MOVW, which sign-extends as LL.W and
// the AM*.W instructions sign-extend the value they read, so a CAS
// compares like with like.
package loong64

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// The DBAR hints hal uses (see the package comment).
const (
	hintAcquire = 0x14 // or_rw: earlier reads before later reads and writes
	hintRelease = 0x12 // orw_w: earlier reads and writes before later writes
	hintFull    = 0x10 // orwrw: earlier reads and writes before later ones
)

// Backend writes asm_loong64.s.
type Backend struct {
	backend.TextEmitter
}

// New returns a fresh loong64 backend.
func New() *Backend {
	return &Backend{backend.TextEmitter{LoadOp: moveOp, StoreOp: moveOp}}
}

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "loong64" }

type body func(e *Backend, prefix string) error

var bodies = backend.Bodies[body]{
	"pause/none":                 pauseNone,
	"cas32/llsc":                 casLLSC(32),
	"cas64/llsc":                 casLLSC(64),
	"casuintptr/llsc":            casLLSC(64),
	"fetchadd32/amo":             rmwAMO("AMADDDB", 32, "delta"),
	"fetchadd32/llsc":            rmwLLSC("ADD", 32, "delta"),
	"fetchadd64/amo":             rmwAMO("AMADDDB", 64, "delta"),
	"fetchadd64/llsc":            rmwLLSC("ADDV", 64, "delta"),
	"swap32/amo":                 rmwAMO("AMSWAPDB", 32, "new"),
	"swap32/llsc":                rmwLLSC("", 32, "new"),
	"swap64/amo":                 rmwAMO("AMSWAPDB", 64, "new"),
	"swap64/llsc":                rmwLLSC("", 64, "new"),
	"fetchor32/amo":              rmwAMO("AMORDB", 32, "mask"),
	"fetchor32/llsc":             rmwLLSC("OR", 32, "mask"),
	"fetchor64/amo":              rmwAMO("AMORDB", 64, "mask"),
	"fetchor64/llsc":             rmwLLSC("OR", 64, "mask"),
	"fetchand32/amo":             rmwAMO("AMANDDB", 32, "mask"),
	"fetchand32/llsc":            rmwLLSC("AND", 32, "mask"),
	"fetchand64/amo":             rmwAMO("AMANDDB", 64, "mask"),
	"fetchand64/llsc":            rmwLLSC("AND", 64, "mask"),
	"loadacquire32/dbar":         loadDBAR(32),
	"loadacquire64/dbar":         loadDBAR(64),
	"storerelease32/dbar":        storeDBAR(32),
	"storerelease32/amswap":      storeAMSWAP(32),
	"storerelease64/dbar":        storeDBAR(64),
	"storerelease64/amswap":      storeAMSWAP(64),
	"fence/dbar":                 fenceDBAR,
	"cycles/rdtimed":             cyclesRDTIMED,
	"spinlock32/llsc":            spinLock32,
	"cpu/syscall":                cpuSyscall,
	"fetchadduintptr/amo":        rmwAMO("AMADDDB", 64, "delta"),
	"fetchadduintptr/llsc":       rmwLLSC("ADDV", 64, "delta"),
	"swapuintptr/amo":            rmwAMO("AMSWAPDB", 64, "new"),
	"swapuintptr/llsc":           rmwLLSC("", 64, "new"),
	"loadacquireuintptr/dbar":    loadDBAR(64),
	"storereleaseuintptr/dbar":   storeDBAR(64),
	"storereleaseuintptr/amswap": storeAMSWAP(64),
	// cas128, load128 and store128 have only hal's Go variant
	// (spec.Portable) on loong64: the driver never asks a backend for
	// them.
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Select implements backend.Backend: MOVBU of the flag into R12, then BNE
// (taken when non-zero) for two variants, or a constant in R13 and a BEQ
// per label for more.
func (e *Backend) Select(sel string, labels []string) {
	e.Ins("MOVBU", "·"+sel+"(SB)", "R12")
	if len(labels) == 1 {
		e.Ins("BNE", "R12", labels[0])
		return
	}
	for i, l := range labels {
		e.Ins("MOVV", fmt.Sprintf("$%d", i+1), "R13")
		e.Ins("BEQ", "R12", "R13", l)
	}
}

// ResolveUint128 implements backend.Backend. No loong64 entry needs it:
// the 128-bit ops have only Go variants here (see the spec), so their
// entries, the Uint128 ones included, are Go.
func (e *Backend) ResolveUint128(entry, moved string) error {
	return fmt.Errorf("loong64 has no 128-bit assembly variant, so no Uint128 entry in assembly (%s)", entry)
}

// Variant implements backend.Backend.
func (e *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	return backend.WriteBody(bodies, e, op, v, prefix)
}

// moveOp is the Go assembler's load and store of a size in bytes: MOVW
// loads sign-extended (LD.W), MOVV is 64 bits (LD.D/ST.D).
var moveOp = backend.Moves("MOVB", "MOVW", "MOVV")

// sfx returns the Go mnemonic suffix for a width: W for 32 bits, V for 64.
func sfx(bits int) string {
	if bits == 32 {
		return "W"
	}
	return "V"
}

// ll and sc are Go's names of LL.W/LL.D and SC.W/SC.D.
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

// dbar writes DBAR with a hint.
func (e *Backend) dbar(hint int) { e.Ins("DBAR", fmt.Sprintf("$%#x", hint)) }

// pauseNone: LoongArch has no spin-wait hint instruction. The Go runtime's
// procyield on loong64 is an empty function (runtime·procyieldAsm is a
// bare RET in asm_loong64.s) and Linux's cpu_relax on LoongArch is a
// compiler barrier, so Pause is the call and its return, nothing more.
func pauseNone(e *Backend, _ string) error {
	e.Ret()
	return nil
}

// casLLSC: DBAR 0x14, then LL reads the word; on a mismatch the body
// leaves through DBAR 0x14 (the ordering of a sequentially consistent
// load) without a store; otherwise SC tries the store and the loop retries
// while SC reports failure (0 in its register); DBAR 0x12 follows the
// store, as in the runtime's Cas.
func casLLSC(bits int) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R4")
		e.Load("old", "R5")
		e.Load("new", "R6")
		e.dbar(hintAcquire)
		e.Label(p + "loop")
		e.Ins("MOVV", "R6", "R7")
		e.Ins(ll(bits), "(R4)", "R8")
		e.Ins("BNE", "R5", "R8", p+"fail")
		e.Ins(sc(bits), "R7", "(R4)")
		e.Ins("BEQ", "R7", p+"loop")
		e.dbar(hintRelease)
		e.Ins("MOVV", "$1", "R4")
		e.Store("R4", 0)
		e.Ret()
		e.Label(p + "fail")
		e.dbar(hintAcquire)
		e.Store("R0", 0)
		e.Ret()
		return nil
	}
}

// rmwAMO: AMADD_DB, AMSWAP_DB, AMOR_DB or AMAND_DB rk, (rj), rd: one
// instruction, a full barrier, that returns the old value (sign-extended
// for .W). rd must differ from rj and rk.
func rmwAMO(mnemonic string, bits int, arg string) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R4")
		e.Load(arg, "R5")
		e.Ins(mnemonic+sfx(bits), "R5", "(R4)", "R6")
		e.Store("R6", 0)
		e.Ret()
		return nil
	}
}

// rmwLLSC: the LL/SC loop of a read-modify-write whose new value is
// alu(old, arg), or arg itself when alu is empty (swap), between DBAR 0x14
// and DBAR 0x12 as the runtime's Xchg8. alu is ADD (ADD.W for 32 bits;
// SC.W stores the low 32 bits), ADDV, OR or AND (bitwise, so the low 32
// bits SC.W stores are right whatever the upper ones).
func rmwLLSC(alu string, bits int, arg string) body {
	return func(e *Backend, p string) error {
		e.Load("addr", "R4")
		e.Load(arg, "R5")
		e.dbar(hintAcquire)
		e.Label(p + "loop")
		e.Ins(ll(bits), "(R4)", "R6")
		if alu == "" {
			e.Ins("MOVV", "R5", "R7")
		} else {
			e.Ins(alu, "R5", "R6", "R7")
		}
		e.Ins(sc(bits), "R7", "(R4)")
		e.Ins("BEQ", "R7", p+"loop")
		e.dbar(hintRelease)
		e.Store("R6", 0)
		e.Ret()
		return nil
	}
}

// loadDBAR: an aligned load is single-copy atomic; DBAR 0x14 after it
// keeps every later load and store after it (acquire). The same two
// instructions as sync/atomic's Load intrinsic (MOVW, sign-extending,
// for 32 bits; only the low half reaches the uint32 result).
func loadDBAR(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R4")
		e.Ins(moveOp(bits/8), "(R4)", "R5")
		e.dbar(hintAcquire)
		e.Store("R5", 0)
		e.Ret()
		return nil
	}
}

// storeDBAR: DBAR 0x12 before an aligned store keeps every earlier load
// and store before it (release).
func storeDBAR(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R4")
		e.Load("val", "R5")
		e.dbar(hintRelease)
		e.Ins(moveOp(bits/8), "R5", "(R4)")
		e.Ret()
		return nil
	}
}

// storeAMSWAP: AMSWAP_DB val, (addr), R0: the swap's old value is
// discarded; a full barrier, as sync/atomic's Store.
func storeAMSWAP(bits int) body {
	return func(e *Backend, _ string) error {
		e.Load("addr", "R4")
		e.Load("val", "R5")
		e.Ins("AMSWAPDB"+sfx(bits), "R5", "(R4)", "R0")
		e.Ret()
		return nil
	}
}

// fenceDBAR: DBAR 0x10 orders every earlier load and store before every
// later one.
func fenceDBAR(e *Backend, _ string) error {
	e.dbar(hintFull)
	e.Ret()
	return nil
}

// cyclesRDTIMED: RDTIME.D reads the stable counter, a constant-rate timer
// (its frequency is in CPUCFG words 4 and 5),
// as the Go runtime's cputicks does (RDTIMED R0, R4: the counter ID goes
// to R0, discarded). hal.CycleFrequency calibrates its rate.
func cyclesRDTIMED(e *Backend, _ string) error {
	e.Ins("RDTIMED", "R0", "R4")
	e.Store("R4", 0)
	e.Ret()
	return nil
}

// spinLock32: the test-and-test-and-set loop in one function. A plain MOVW
// reads the word (only the CAS needs ordering; the read keeps the line
// shared among waiters); while it is held the loop spends one unit of the
// budget in R5 and reads again (there is no pause hint to run: see
// pauseNone). When it reads 0 it tries 0→1 with cas32's sequence: DBAR
// 0x14, LL.W/SC.W, DBAR 0x12 after the store. An LL that finds the word
// held goes where a read that found it held goes; an SC that fails
// retries the LL.
func spinLock32(e *Backend, p string) error {
	loop, held, try, again, fail := p+"loop", p+"held", p+"try", p+"again", p+"fail"
	e.Load("addr", "R4")
	e.Ins("MOVWU", e.Arg("spins"), "R5")
	e.Ins("MOVV", "$1", "R6")
	e.Label(loop)
	e.Ins("MOVW", "(R4)", "R7")
	e.Ins("BEQ", "R7", try)
	e.Label(held)
	e.Ins("BEQ", "R5", fail)
	e.Ins("ADDV", "$-1", "R5")
	e.Ins("JMP", loop)
	e.Label(try)
	e.dbar(hintAcquire)
	e.Label(again)
	e.Ins("MOVV", "R6", "R8")
	e.Ins("LL", "(R4)", "R7")
	e.Ins("BNE", "R7", held)
	e.Ins("SC", "R8", "(R4)")
	e.Ins("BEQ", "R8", again)
	e.dbar(hintRelease)
	e.Comment("R6 = 1: acquired.")
	e.Store("R6", 0)
	e.Ret()
	e.Label(fail)
	e.Store("R0", 0)
	e.Ret()
	return nil
}

// cpuSyscall: getcpu(2), loong64 Linux system call 168 (SYSCALL with the
// number in R11, arguments in R4-R6, the result in R4), writing the CPU
// number (an unsigned int) into the low half of the result slot; MOVWU
// reloads it zero-extended, through the slot's address (go vet rejects a
// 4-byte load of the int result by name). LoongArch has no user-mode way to read the
// CPU number on Linux. On an error (which getcpu with a valid pointer
// does not return) the result is 0.
func cpuSyscall(e *Backend, p string) error {
	bad := p + "bad"
	e.Ins("MOVV", "$"+e.Result(0), "R4")
	e.Ins("MOVV", "R0", "R5")
	e.Ins("MOVV", "R0", "R6")
	e.Ins("MOVV", "$168", "R11")
	e.Ins("SYSCALL")
	e.Ins("BNE", "R4", bad)
	e.Ins("MOVV", "$"+e.Result(0), "R5")
	e.Ins("MOVWU", "(R5)", "R4")
	e.Store("R4", 0)
	e.Ret()
	e.Label(bad)
	e.Store("R0", 0)
	e.Ret()
	return nil
}
