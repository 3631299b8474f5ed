package direct

import (
	"fmt"
	"unsafe"
)

// AlignmentError is the value a 128-bit operation panics with when the word
// it is given is not 16-byte aligned: CMPXCHG16B, CASP and LDXP/STXP fault
// on such a word, so every 128-bit variant (and hal's portable ones, for
// the same behaviour everywhere) tests the address first. The panic can be
// recovered. hal.Uint128 aligns itself; a *[2]uint64 from elsewhere
// usually is not aligned, as Go aligns it to 8 bytes.
type AlignmentError struct {
	Addr uintptr // the address given
}

func (e *AlignmentError) Error() string {
	return fmt.Sprintf("gohal: 128-bit atomic operation on address %#x, which is not 16-byte aligned: "+
		"the word must start at a multiple of 16 (hal.Uint128 keeps its value aligned; use its Addr)", e.Addr)
}

// misaligned128 is where every 128-bit variant's assembly jumps (a tail
// jump, with the variant's own argument frame) when addr is not a multiple
// of 16. It panics, so the caller's stack unwinds as from any Go panic.
func misaligned128(addr *[2]uint64) {
	panic(&AlignmentError{Addr: uintptr(unsafe.Pointer(addr))})
}

// Unaligned64 is the value a 64-bit operation panics with on a 32-bit
// architecture (arm, 386) when its word is not 8-byte aligned: the string
// sync/atomic panics with there, word for word and of the same type, so
// that code that recovers it (and GOROOT's sync/atomic tests) sees no
// difference. LDREXD faults on such a word, and Go aligns a uint64 to 4
// bytes only there; hal.Uint64 and hal.Int64 align themselves.
const Unaligned64 = "unaligned 64-bit atomic operation"

// misaligned64 is where a 32-bit architecture's 64-bit variants jump (a
// tail jump, with the variant's own argument frame) when addr is not a
// multiple of 8.
func misaligned64(addr *uint64) { panic(Unaligned64) }
