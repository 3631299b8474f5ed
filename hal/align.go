package hal

import (
	"unsafe"

	"github.com/gohal/gohal/hal/direct"
)

// AlignmentError is the value a 128-bit operation panics with when the word
// it is given is not 16-byte aligned (the 128-bit rows of
// [github.com/gohal/gohal/hal/haltool.DispatchTable] and package
// hal/direct's 128-bit functions; a [Uint128] is always aligned).
// The message names the address and the requirement; the panic can be
// recovered.
type AlignmentError = direct.AlignmentError

// misaligned128 is where the 128-bit variants' assembly in this package
// jumps (a tail jump, with the variant's own argument frame) when addr is
// not a multiple of 16.
func misaligned128(addr *[2]uint64) {
	panic(&AlignmentError{Addr: uintptr(unsafe.Pointer(addr))})
}

// misaligned64 is where a 32-bit architecture's 64-bit variants in this
// package jump (a tail jump, with the variant's own argument frame) when
// addr is not a multiple of 8: it panics with
// [github.com/gohal/gohal/hal/direct.Unaligned64], as sync/atomic panics
// on such a word there.
func misaligned64(addr *uint64) { panic(direct.Unaligned64) }

// checkAligned128 is the same test in the portable variants, which do not
// need the alignment themselves but keep the behaviour the same on every
// CPU: a program that passes a misaligned word fails on the machine it is
// tested on, not only on the one with CMPXCHG16B.
func checkAligned128(addr *[2]uint64) {
	if uintptr(unsafe.Pointer(addr))&15 != 0 {
		misaligned128(addr)
	}
}
