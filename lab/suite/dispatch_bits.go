package suite

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/lab/cyclebench"
)

// fetchor64 and fetchand64, the ops added through ADDING-AN-OP.md. The mask is a loop-invariant constant: the word
// settles at once (or: all ones; and: 0x5555...), which is what a flag
// word sees, and the cost measured is the read-modify-write itself.

const (
	orMask  = 0x8000000000000001
	andMask = 0x5555555555555555
)

// addBits registers fetchor64's and fetchand64's generic mode.
func addBits() {
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
