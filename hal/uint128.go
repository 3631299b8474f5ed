package hal

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Uint128 is a 128-bit word updated atomically as a whole. The zero value is
// zero and ready to use.
//
// CMPXCHG16B, CASP and LDXP/STXP fault on a word that is not 16-byte
// aligned, and Go aligns a struct to 8 bytes at most (4 on 32-bit
// platforms), so a Uint128 is 32 bytes and keeps its value in the 16 of
// them that are 16-byte aligned. Where those 16 are depends on where the
// Uint128 lies: a Uint128 moved by append, by a copy of the struct or
// slice that holds it, or by a goroutine stack that grows, may find its
// aligned 16 bytes at another offset. A Uint128 records the offset its
// value is at, so the first access after such a move finds the value at
// the old offset and moves it to the new one (under a lock, once); it
// never reads another value. A Uint128 must still not be copied while
// other goroutines use it (go vet's copylocks check reports plain copies),
// and the copy and the original are then two independent words.
//
// Every method is sequentially consistent. A Uint128 holds integers: never
// store a pointer's bits in it (the garbage collector would not see them).
type Uint128 struct {
	_ noCopy
	_ [0]uint64 // 8-byte alignment where uint64 has it
	// b holds the value at byte offset at: 0, 4, 8 or 12, whichever is
	// 16-byte aligned (4 and 12 only where uint64 is 4-byte aligned).
	b  [28]byte
	at uint32
}

// noCopy makes go vet's copylocks check report copies of a Uint128.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// The layout the generated Uint128 entries (load128U, store128U, cas128U)
// rely on, spec.Uint128AtOffset in gen/spec: the value at byte offset
// u.at from the start of the Uint128 (b is its first field), u.at at byte
// 28. Such an entry takes the Uint128's address as its addr, computes
// the aligned offset, compares it with u.at, and on a match runs the op
// on the aligned word, in assembly; on a difference it jumps to the op's
// Go function <op>_moved, which calls resolve128 and then the op. So the
// methods below are one call each, which the compiler inlines.

// self is u's address as the addr of a Uint128 entry.
func (u *Uint128) self() *[2]uint64 { return (*[2]uint64)(unsafe.Pointer(u)) }

// resolve128 returns the aligned word of the Uint128 at p (a Uint128
// entry's addr), relocating its value first if it must.
func resolve128(p *[2]uint64) *[2]uint64 { return (*Uint128)(unsafe.Pointer(p)).word() }

// word returns the 16-byte-aligned word holding u's value: the aligned
// offset of u's bytes, compared with the offset the value was last stored
// at. They differ only on the first access to a zero value whose aligned
// offset is not 0 and on the first access after a move, and relocate then
// moves the value.
func (u *Uint128) word() *[2]uint64 {
	p := unsafe.Pointer(&u.b)
	off := -uintptr(p) & 15
	if uintptr(atomic.LoadUint32(&u.at)) != off {
		return u.relocate()
	}
	return (*[2]uint64)(unsafe.Add(p, off))
}

// relocMu serialises relocations. A relocation happens at most once per
// move, so one lock for all of them is enough.
var relocMu sync.Mutex

// relocate moves u's value from the offset recorded in u.at to the
// 16-byte-aligned offset of u's current address and records the new
// offset. The value at the old offset is exactly the value of the word
// before the move: moving a Uint128 while another goroutine changes it is
// a data race, which the move did not have. Concurrent first accesses
// after the move all come here; the first relocates and the others find it
// done. An access that reads u.at equal to the aligned offset (the atomic
// store below) comes after the copy, so it sees the moved value.
//
//go:noinline
func (u *Uint128) relocate() *[2]uint64 {
	p := unsafe.Pointer(&u.b)
	off := -uintptr(p) & 15
	relocMu.Lock()
	if old := uintptr(atomic.LoadUint32(&u.at)); old != off {
		// Read both words before writing: the two places may overlap.
		var v [16]byte
		copy(v[:], u.b[old:old+16])
		copy(u.b[off:off+16], v[:])
		atomic.StoreUint32(&u.at, uint32(off))
	}
	relocMu.Unlock()
	return (*[2]uint64)(unsafe.Add(p, off))
}

// Addr returns the 16-byte-aligned word that holds u's value now, for use
// with [DispatchTable]'s 128-bit rows and with package hal/direct. Access
// it only through gohal's 128-bit operations, and call Addr again after u
// may have moved (see [Uint128]): the word returned belongs to u where it
// was when Addr was called.
func (u *Uint128) Addr() *[2]uint64 { return u.word() }

// Load atomically loads the word. On amd64 with AVX from Intel or AMD it is
// one VMOVDQA, which writes nothing, so readers on many cores share the
// cache line; elsewhere a 128-bit load is a compare-and-swap of the value
// with itself (CMPXCHG16B on amd64, CASPAL or LDAXP/STLXP on arm64), which
// needs the line exclusively. On riscv64 (no 128-bit atomic without Zacas)
// and wherever the portable variant runs, every access takes one of a set
// of striped locks. [Selected] names the variant (op load128).
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
