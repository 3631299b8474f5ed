package ppc64le

import (
	"fmt"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// The quadword variants of the 128-bit ops, ready but not in the spec.
//
// Power ISA v2.07B (POWER8, Go's minimum) has everything hal's 128-bit ops
// need: lq and stq became problem-state instructions that work in
// Little-Endian mode, lqarx/stqcx. were added, and Book II §1.4
// ("Single-Copy Atomicity") lists quadword accesses by lq, stq, lqarx and
// stqcx. to a quadword-aligned address as single-copy atomic. So load128
// would be SYNC; LQ; CMP; BNE; ISYNC (Go's sequentially consistent load on
// 16 bytes, a load that writes nothing), store128 SYNC; STQ (Go's store),
// and cas128 an LQARX/STQCX. loop between LWSYNC and SYNC (ISYNC when the
// compare fails; lqarx's read is single-copy atomic by itself, so unlike
// arm64's LDAXP nothing is written back).
//
// They are not in the spec (cas128, load128 and store128 are hal's
// striped-lock Go variant on ppc64le) because no test here can run them:
// under Debian's qemu-user 7.2 (7.2.22), a STQCX. after LQARX never
// succeeds, so cas128 loops forever. qemu -d cpu shows why: the lqarx it
// emulates (serially: that build has no 128-bit host atomics) records the
// reservation at EA+8 instead of EA, and its stqcx. then finds no
// reservation for EA (a big-endian ppc64 build of the same code hangs
// the same way under qemu-ppc64). LQ and STQ themselves run, and
// put lo and hi where this file expects (checked with qemu: after
// w = {1, 2}, LQ into R4:R5 gives R4 = 2, R5 = 1, and LQARX into R6:R7
// gives R6 = 2, R7 = 1). A newer qemu (the lqarx/stqcx. paths were
// rewritten in 8.1, with fixes for the reservation and for big-endian
// register order after it) or POWER hardware can run them: then add
// {Name: "lqarx"}, {Name: "lq"} and {Name: "stq"} to the spec (spec.go)
// and quadBodies to bodies, and regenerate. Their encodings, the bodies'
// instruction sequences and the GNU syntax of every WORD are tested now
// (enc_test.go, quad_test.go, binutils_test.go).
var quadBodies = backend.Bodies[body]{
	"cas128/lqarx": cas128LQARX,
	"load128/lq":   load128LQ,
	"store128/stq": store128STQ,
}

// ResolveUint128 implements backend.Backend. It loads the Uint128's cell
// pointer and key with plain loads: every 128-bit body then runs SYNC or
// LWSYNC before its first access to the cell (checked by the backend's
// tests), and either orders these loads before every later load and store,
// which makes the pointer load an acquire; the cell's address also depends
// on the pointer loaded, which POWER orders too. Unless the pointer XOR the
// key is addr (a zero value's key is 0, so this also rules out a nil cell),
// it goes to moved. Only the Uint128's own line is read, never the cell's.
func (e *Backend) ResolveUint128(entry, moved string) error {
	e.Load("addr", "R3")
	e.Ins("MOVD", "0(R3)", "R4")
	e.Ins("MOVD", fmt.Sprintf("%d(R3)", spec.Uint128KeyOffset), "R5")
	e.Ins("XOR", "R4", "R5", "R5")
	e.Ins("CMP", "R3", "R5")
	e.Ins("BNE", "moved")
	e.Ins("MOVD", "R4", e.Arg("addr"))
	e.TailJump(entry)
	e.Label("moved")
	e.TailJump(moved)
	return nil
}

// pair returns the even register of the quadword pair holding lo (the
// doubleword at EA, a [2]uint64's [0]) and hi (at EA+8) in registers
// even and even+1, and which of the two holds lo. Power ISA orders the
// pair as one big-endian 128-bit number, even register first; so in
// Little-Endian mode hi is in the even register and lo in the odd one,
// and in Big-Endian mode the other way round.
func (e *Backend) pair(even int) (lo, hi string) {
	if e.bigEndian {
		return reg(even), reg(even + 1)
	}
	return reg(even + 1), reg(even)
}

func reg(n int) string { return fmt.Sprintf("R%d", n) }

// word writes a WORD-encoded instruction from an encoder's result.
func (e *Backend) word(w uint32, asm string, err error) error {
	if err != nil {
		return err
	}
	e.Word(w, asm)
	return nil
}

// alignCheck branches to the body's misaligned label when the address in
// R3 is not 16-byte aligned (ANDCC is andi., which sets CR0): lq, stq and
// lqarx are single-copy atomic only on an aligned quadword, and lqarx and
// stqcx. take an alignment interrupt otherwise.
func (e *Backend) alignCheck(p string) {
	e.Ins("ANDCC", "$15", "R3", "R10")
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

// cas128LQARX: LWSYNC, then LQARX reads the quadword into R6:R7 with a
// reservation; each half is compared with old, and a mismatch leaves
// through ISYNC without a store (LQARX's read is single-copy atomic by
// itself, so nothing is written back); otherwise STQCX. stores R8:R9, the
// loop retries while it fails, and SYNC follows the store.
func cas128LQARX(e *Backend, p string) error {
	e.Load("addr", "R3")
	e.alignCheck(p)
	curLo, curHi := e.pair(6)
	newLo, newHi := e.pair(8)
	e.Load("oldLo", "R4")
	e.Load("oldHi", "R5")
	e.Load("newLo", newLo)
	e.Load("newHi", newHi)
	e.Ins("LWSYNC")
	e.Label(p + "loop")
	if err := e.word(lqarx(6, 3, false)); err != nil {
		return err
	}
	e.Ins("CMP", curLo, "R4")
	e.Ins("BNE", p+"fail")
	e.Ins("CMP", curHi, "R5")
	e.Ins("BNE", p+"fail")
	if err := e.word(stqcx(8, 3)); err != nil {
		return err
	}
	e.Ins("BNE", p+"loop")
	e.Ins("SYNC")
	e.Store(curLo, 0)
	e.Store(curHi, 1)
	e.Ins("MOVD", "$1", "R10")
	e.Store("R10", 2)
	e.Ret()
	e.Label(p + "fail")
	e.Ins("ISYNC")
	e.Store(curLo, 0)
	e.Store(curHi, 1)
	e.Store("R0", 2)
	e.Ret()
	e.misaligned(p)
	return nil
}

// load128LQ: Go's sequentially consistent load on 16 bytes: SYNC, one LQ
// into R4:R5, then the compare, branch and ISYNC of the acquire idiom. LQ
// writes nothing, so concurrent readers share the cache line.
func load128LQ(e *Backend, p string) error {
	e.Load("addr", "R3")
	e.alignCheck(p)
	lo, hi := e.pair(4)
	e.Ins("SYNC")
	if err := e.word(lq(4, 3, 0)); err != nil {
		return err
	}
	e.Ins("CMP", "R4", "R4")
	e.Ins("BNE", p+"acq")
	e.Label(p + "acq")
	e.Ins("ISYNC")
	e.Store(lo, 0)
	e.Store(hi, 1)
	e.Ret()
	e.misaligned(p)
	return nil
}

// store128STQ: Go's sequentially consistent store on 16 bytes: SYNC, then
// one STQ of R4:R5.
func store128STQ(e *Backend, p string) error {
	e.Load("addr", "R3")
	e.alignCheck(p)
	lo, hi := e.pair(4)
	e.Load("lo", lo)
	e.Load("hi", hi)
	e.Ins("SYNC")
	if err := e.word(stq(4, 3, 0)); err != nil {
		return err
	}
	e.Ret()
	e.misaligned(p)
	return nil
}
