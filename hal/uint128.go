package hal

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/internal/cacheline"
)

// Uint128 is a 128-bit word updated atomically as a whole. The zero value is
// zero and ready to use.
//
// CMPXCHG16B, CASP and LDXP/STXP fault on a word that is not 16-byte
// aligned, and Go aligns a struct to 8 bytes at most (4 on 32-bit
// platforms), so a Uint128 keeps its value in a heap cell of its own, one
// cache line, and holds a pointer to it and a key that ties the cell to
// the Uint128's address. The first access to a zero value,
// and the first access after the Uint128 was moved (by append, a copy of
// the struct or slice that holds it, or a goroutine stack that grows),
// finds no cell of its own: it allocates one, copies the value from the
// old cell if there is one, and publishes it with one compare-and-swap of
// the pointer; of concurrent first accesses one wins and the others use
// its cell. So every access is lock-free, nothing is shared between
// Uint128s, and a first access is safe inside percpu.Pin (it allocates,
// which a pinned goroutine may, and never waits). A moved Uint128 keeps
// its value. A Uint128 must still not be copied while it is in use (go
// vet's copylocks check reports plain copies): a copy takes the value its
// original holds when the copy is first accessed, and from then on the two
// are independent words.
//
// Every method is sequentially consistent. A Uint128 holds integers: never
// store a pointer's bits in it (the garbage collector would not see them).
type Uint128 struct {
	_ noCopy
	// c is the cell holding the value (nil until the first access). It
	// is the Uint128's first word: the generated Uint128 entries read it.
	c atomic.Pointer[cell128]
	// The entries take the Uint128's address as a *[2]uint64: 16 bytes,
	// so that converting it stays inside the object (checkptr, -race).
	// (Zero bytes on 64-bit platforms; not last, where a zero-size field
	// would make the struct 24 bytes.)
	_ [16 - 2*unsafe.Sizeof(uintptr(0))]byte
	// key is the Uint128's address XOR c, stored once c is the
	// Uint128's own cell (spec.Uint128KeyOffset): an entry that finds
	// c XOR key equal to the Uint128's address uses the cell without
	// reading it first. A zero value's key is 0; a copy carries a key
	// made at another address.
	key atomic.Uintptr
}

// cell128 is where a Uint128's value lives: one cache line without
// pointers (cacheline.Size, a size class whose objects are aligned to
// it), so v is 16-byte aligned (own checks it) and two Uint128s never
// share a line, however their owners lay them out. owner is the address
// of the Uint128 the cell belongs to: the slow path checks it before it
// sets the key.
type cell128 struct {
	cellWords
	_ [cacheline.Size - unsafe.Sizeof(cellWords{})%cacheline.Size]byte
}

// cellWords are a cell's words: the value first (the generated entries
// read it at offset 0), then the owner.
type cellWords struct {
	v     [2]uint64
	owner uintptr
}

// noCopy makes go vet's copylocks check report copies of a Uint128.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// The layout the generated Uint128 entries (load128U, store128U, cas128U)
// rely on (spec.Uint128KeyOffset in gen/spec): the cell pointer at byte 0
// of the Uint128, the key at byte 8, the value at byte 0 of the cell.
// Such an entry takes the Uint128's address as its addr, loads the cell
// pointer and the key, and if their XOR is addr runs the op on the cell's
// word, in assembly; otherwise it jumps to the op's Go
// function <op>_moved, which calls resolve128 and then the op. So the
// methods below are one call each, which the compiler inlines.
//
// Why a cell and not the value inside the Uint128 (as before): moving the
// value between the two 16-byte-aligned places inside the struct needs
// the move to happen exactly once, before any access at the new place.
// Done under a lock, a first access can block (fatal inside percpu.Pin);
// done by claiming the move and making the others wait, a preempted
// claimant stalls them; done by helping (every first accessor copies, then
// one CAS validates), a late helper's copy can overwrite a Store that
// happened to write the bytes it expected (ABA). A fresh cell published by
// one pointer CAS has none of these: the pointer is unique while it is
// referenced, so the CAS cannot succeed against a value it did not read,
// and the loser only drops its allocation. The cost is one allocation per
// Uint128 (and per move) of one cache line, and one dependent load per
// access. The check reads the Uint128 (cell pointer and key), which no
// access writes, and not the cell's owner: a check that read the cell
// would, under contention, first fetch the cell's line shared and then
// again exclusive for the Store or CAS, two transfers of the contended
// line per operation instead of one.

// self is u's address as the addr of a Uint128 entry.
func (u *Uint128) self() *[2]uint64 { return (*[2]uint64)(unsafe.Pointer(u)) }

// resolve128 returns the word of the Uint128 at p (a Uint128 entry's
// addr), giving it a cell of its own first if it has none.
func resolve128(p *[2]uint64) *[2]uint64 { return (*Uint128)(unsafe.Pointer(p)).word() }

// word returns the 16-byte-aligned word holding u's value.
func (u *Uint128) word() *[2]uint64 {
	c := u.c.Load()
	if c != nil && u.key.Load() == uintptr(unsafe.Pointer(u))^uintptr(unsafe.Pointer(c)) {
		return &c.v
	}
	return u.own()
}

// own gives u a cell of its own, sets u's key for it, and returns its
// word. The key is stored after the cell pointer, always the same value
// for a cell (u's address XOR the cell's, and a cell owned by u stays u's
// while u stays where it is), so concurrent first accesses may all store
// it; one that sees the new pointer before its key comes here and finds
// the cell its own by the owner word. The old cell, if
// any, belongs to the place u was copied or moved from; its value is read
// with a 128-bit atomic load (another goroutine may still use the
// original of a copy), copied into the new cell, and the new cell is
// published by a CAS from the old pointer. A CAS that fails means another
// first access published its cell (or the original's owner changed under
// a copy of a copy): the loop starts again from what it finds, so every
// access ends on the one cell that u's pointer holds.
//
//go:noinline
func (u *Uint128) own() *[2]uint64 {
	me := uintptr(unsafe.Pointer(u))
	var n *cell128
	for {
		old := u.c.Load()
		if old != nil && old.owner == me {
			u.key.Store(me ^ uintptr(unsafe.Pointer(old)))
			return &old.v
		}
		if n == nil {
			n = &cell128{cellWords: cellWords{owner: me}}
			if uintptr(unsafe.Pointer(&n.v))&15 != 0 {
				panic("gohal: Uint128: the allocator returned a 32-byte object that is not 16-byte aligned")
			}
		}
		n.v = [2]uint64{}
		if old != nil {
			n.v[0], n.v[1] = load128(&old.v)
		}
		if u.c.CompareAndSwap(old, n) {
			u.key.Store(me ^ uintptr(unsafe.Pointer(n)))
			return &n.v
		}
	}
}

// Addr returns the 16-byte-aligned word that holds u's value now, for use
// with package hal/direct and the 128-bit rows of hal/haltool's dispatch
// table. Access
// it only through gohal's 128-bit operations, and call Addr again after u
// may have moved (see [Uint128]): the word returned belongs to u where it
// was when Addr was called.
//
// Addr panics while any of the 128-bit ops (load128, store128, cas128)
// runs its portable variant: in every race build, with GOHAL naming a
// portable 128-bit variant, on a CPU without the instructions (cx16 on
// amd64), and wherever hal has no 128-bit assembly (purego, or a GOARCH
// whose 128-bit ops have only the portable variant: see
// docs/variants.md). The portable variants write the two halves under a striped
// lock, and hal/direct's 128-bit functions never take it, so a direct
// Load on u's word would see half of a Store made through u's methods. A
// compatible design would need the portable
// variants to use the 128-bit instructions they exist to avoid (the race
// detector cannot see assembly; the CPU may lack them), or every direct
// access to take the lock, which is the portable variant itself. So the
// two never meet on one word: the panic names the op, its variant and why
// it runs. Code that needs a raw word then uses its own 16-byte-aligned
// [2]uint64 with one family of functions only (hal's table rows, or
// hal/direct's functions, never both while the portable variant runs).
// Words taken while the hardware variants run stay valid for hal/direct;
// forcing a portable 128-bit variant ([github.com/gohal/gohal/hal/haltool.Force])
// while such a word is in use brings back the torn reads (Force is for
// tests, with the op idle).
func (u *Uint128) Addr() *[2]uint64 {
	if why := portable128(); why != "" {
		panic(errors.New(why))
	}
	return u.word()
}

// portable128 returns the message Addr panics with when a 128-bit op runs
// its portable variant, and "" when all of them run hardware variants
// (dispatch.Group keeps them all one or all the other). It names the op whose
// own choice made them portable where one did (an override or a missing
// feature), else the first.
func portable128() string {
	var first, own *Choice
	for i := range selected {
		c := &selected[i]
		if !in128(c.Op) || c.Variant != portableName {
			continue
		}
		if first == nil {
			first = c
		}
		if own == nil && !strings.Contains(c.Reason, "share their words") {
			own = c
		}
	}
	if first == nil {
		return ""
	}
	if own == nil {
		own = first
	}
	var why string
	switch {
	case raceBuild:
		why = "this is a race build (-race), which runs hal's portable Go variants so that the race detector sees every access"
	case puregoBuild:
		why = "this is a purego build (-tags purego), which has no hal assembly"
	default:
		why = own.Reason
		if o := findOp(own.Op); o != nil && len(o.variants) == 1 {
			why = "hal has no 128-bit assembly for GOARCH=" + runtime.GOARCH
		}
	}
	return fmt.Sprintf("gohal: Uint128.Addr: op %s runs its %q variant (%s): that variant writes the two halves under a striped lock "+
		"that hal/direct's 128-bit functions never take, so a direct access to this word could see half of a Store; "+
		"use the Uint128's methods, or a 16-byte-aligned [2]uint64 of your own", own.Op, own.Variant, why)
}

// Load atomically loads the word. Where the CPU has an atomic 16-byte load
// (VMOVDQA on amd64 with AVX from Intel or AMD) it writes nothing, so
// readers on many cores share the cache line; elsewhere a 128-bit load is
// a compare-and-swap of the value with itself (CMPXCHG16B on amd64), which
// needs the line exclusively; and wherever the portable variant runs (a
// GOARCH without a 128-bit atomic), every access takes one of a set of
// striped locks. [Selected] names the variant (op load128), and
// docs/variants.md each GOARCH's.
func (u *Uint128) Load() (lo, hi uint64) { return load128U(u.self()) }

// Store atomically stores lo, hi into the word (op store128).
func (u *Uint128) Store(lo, hi uint64) { store128U(u.self(), lo, hi) }

// Swap atomically stores lo, hi into the word and returns the value it
// replaced: a loop of compare-and-swaps (op cas128) from the value last
// seen, starting from a Load.
func (u *Uint128) Swap(lo, hi uint64) (oldLo, oldHi uint64) {
	a := u.word()
	oldLo, oldHi = load128(a)
	for {
		l, h, ok := cas128(a, oldLo, oldHi, lo, hi)
		if ok {
			return oldLo, oldHi
		}
		oldLo, oldHi = l, h
	}
}

// CompareAndSwap atomically replaces the word with newLo, newHi if it holds
// oldLo, oldHi, and reports whether it did (op cas128).
func (u *Uint128) CompareAndSwap(oldLo, oldHi, newLo, newHi uint64) (swapped bool) {
	_, _, swapped = cas128U(u.self(), oldLo, oldHi, newLo, newHi)
	return swapped
}
