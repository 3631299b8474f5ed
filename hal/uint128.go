package hal

import "unsafe"

// Uint128 is a 128-bit word updated atomically as a whole. The zero value is
// zero and ready to use. It aligns itself: CMPXCHG16B faults on a word that
// is not 16-byte aligned and Go aligns [2]uint64 to 8 only, so a Uint128
// keeps 24 bytes and uses the aligned 16 among them. It must not be copied
// after first use.
//
// Every method is sequentially consistent. A Uint128 holds integers: never
// store a pointer's bits in it (the garbage collector would not see them).
type Uint128 struct {
	_ noCopy
	w [3]uint64
}

// noCopy makes go vet's copylocks check report copies of a Uint128.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Addr returns the 16-byte-aligned word inside u, for use with
// [DispatchTable].CompareAndSwap128. Access it only through gohal.
func (u *Uint128) Addr() *[2]uint64 {
	p := unsafe.Pointer(&u.w[0])
	if uintptr(p)&15 != 0 {
		p = unsafe.Add(p, 8)
	}
	return (*[2]uint64)(p)
}

// Load atomically loads the word. On amd64 and arm64 a 128-bit load is a
// compare-and-swap of the value with itself, so Load needs the word to be
// writable and costs as much as CompareAndSwap. On riscv64 (no 128-bit
// atomic without Zacas) and wherever the portable variant runs, every
// access takes one of a set of striped locks.
func (u *Uint128) Load() (lo, hi uint64) {
	lo, hi, _ = cas128(u.Addr(), 0, 0, 0, 0)
	return lo, hi
}

// Store atomically stores lo, hi into the word.
func (u *Uint128) Store(lo, hi uint64) {
	a := u.Addr()
	oldLo, oldHi, _ := cas128(a, 0, 0, 0, 0)
	for {
		var ok bool
		oldLo, oldHi, ok = cas128(a, oldLo, oldHi, lo, hi)
		if ok {
			return
		}
	}
}

// CompareAndSwap atomically replaces the word with newLo, newHi if it holds
// oldLo, oldHi, and reports whether it did.
func (u *Uint128) CompareAndSwap(oldLo, oldHi, newLo, newHi uint64) (swapped bool) {
	_, _, swapped = cas128(u.Addr(), oldLo, oldHi, newLo, newHi)
	return swapped
}
