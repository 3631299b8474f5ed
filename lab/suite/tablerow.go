package suite

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

// TableRow is one op's row of haltool.Table() as halbench tune times it: the
// row's field name in haltool.DispatchTable, and Loop, which returns a
// cyclebench.RunLoop body calling the row's func value on x. gen writes
// TableRows (ztable.go) from the spec: every op, with a loop shaped by its
// signature.
type TableRow struct {
	Field string
	Loop  func(x *TableWord) func(w, n int)
}

// TableWord is the shared word of a TableRow's loop, with room for every
// operand shape.
type TableWord struct {
	// U128 is the word of the bodies through Uint128's methods.
	U128 hal.Uint128
	// raw128's 16-byte-aligned half is the word of the 128-bit rows
	// (Word128): not U128.Addr, which panics while a portable 128-bit
	// variant runs, and tune forces every variant.
	raw128 [3]uint64
	U64    uint64
	U32    uint32
	Uptr   uintptr
}

// Word128 returns x's 16-byte-aligned 128-bit word.
func (x *TableWord) Word128() *[2]uint64 {
	if uintptr(unsafe.Pointer(&x.raw128[0]))&15 == 0 {
		return (*[2]uint64)(x.raw128[0:2])
	}
	return (*[2]uint64)(x.raw128[1:3])
}

// tableSink keeps the loops' results alive.
var tableSink atomic.Uint64
