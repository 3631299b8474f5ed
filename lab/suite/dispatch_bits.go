package suite

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
)

// fetchor64 and fetchand64, the ops added through ADDING-AN-OP.md, in the
// modes every build has. The mask is a loop-invariant constant: the word
// settles at once (or: all ones; and: 0x5555...), which is what a flag
// word sees, and the cost measured is the read-modify-write itself.

const (
	orMask  = 0x8000000000000001
	andMask = 0x5555555555555555
)

// bitsClosures are Go closures over the intrinsics, as closures holds for
// the other ops.
var bitsClosures = struct {
	FetchOrUint64  func(addr *uint64, mask uint64) uint64
	FetchAndUint64 func(addr *uint64, mask uint64) uint64
}{
	FetchOrUint64:  func(addr *uint64, mask uint64) uint64 { return atomic.OrUint64(addr, mask) },
	FetchAndUint64: func(addr *uint64, mask uint64) uint64 { return atomic.AndUint64(addr, mask) },
}

// addBits registers fetchor64's and fetchand64's api, inline, table,
// closure and generic modes.
func addBits() {
	// fetchor64
	dispatch("fetchor64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = atomic.OrUint64(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeAPI, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchOrUint64(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeTable, func(b *testing.B) {
		t := haltool.Table()
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.FetchOrUint64.Func(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = bitsClosures.FetchOrUint64(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeGeneric, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			for {
				old := atomic.LoadUint64(&c.v)
				if atomic.CompareAndSwapUint64(&c.v, old, old|orMask) {
					v = old
					break
				}
			}
		}
		m.Stop()
		use(v)
	})
	// fetchand64
	dispatch("fetchand64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = atomic.AndUint64(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeAPI, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchAndUint64(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeTable, func(b *testing.B) {
		t := haltool.Table()
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.FetchAndUint64.Func(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = bitsClosures.FetchAndUint64(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeGeneric, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			for {
				old := atomic.LoadUint64(&c.v)
				if atomic.CompareAndSwapUint64(&c.v, old, old&andMask) {
					v = old
					break
				}
			}
		}
		m.Stop()
		use(v)
	})
}
