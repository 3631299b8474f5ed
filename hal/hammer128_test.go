package hal_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
)

// ops128 are the 128-bit ops; every hammer below runs with each variant of
// each of them forced in turn (the other two at their defaults).
var ops128 = []string{"load128", "store128", "cas128"}

// TestHammerLoadStore128: writers store (v, ^v) with Store, swap it with
// Swap and bump it with CompareAndSwap while readers load it; every value
// any goroutine sees must have hi == ^lo (a torn read or a half-done store
// would break it), and each writer's own values must come back only as
// whole values it or another writer wrote.
func TestHammerLoadStore128(t *testing.T) {
	for _, op := range ops128 {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				G, N := hammerSize()
				N /= 4
				var u hal.Uint128
				b.store128(&u, 0, ^uint64(0))
				var torn, loads atomic.Int64
				seen := func(lo, hi uint64) {
					if hi != ^lo {
						torn.Add(1)
					}
				}
				hammer(G, func(g int) {
					var n int64
					for i := range N {
						switch {
						case g%2 == 1: // reader
							seen(b.load128(&u))
							n++
						case i%3 == 0:
							v := uint64(g)<<40 | uint64(i)
							b.store128(&u, v, ^v)
						case i%3 == 1:
							v := uint64(g)<<40 | uint64(i)
							seen(b.swap128(&u, v, ^v))
						default:
							lo, hi := b.load128(&u)
							seen(lo, hi)
							if hi == ^lo {
								seen3(b.cas128(&u, lo, hi, lo+1, ^(lo + 1)))
							}
						}
					}
					loads.Add(n)
				})
				if n := torn.Load(); n != 0 {
					t.Fatalf("%d of the values read had hi != ^lo (torn or half-stored)", n)
				}
				if loads.Load() == 0 {
					t.Fatal("no loads ran")
				}
				if lo, hi := b.load128(&u); hi != ^lo {
					t.Fatalf("final value %#x, %#x has hi != ^lo", lo, hi)
				}
			})
		})
	}
}

// seen3 discards a CAS's results; the CAS checks itself through the
// value it leaves, which the next load reads.
func seen3(uint64, uint64, bool) {}

// TestHammerStack128 runs the lock-free index stack of
// Example_lockFreeStack with more goroutines than indices, so that pops and
// pushes of the same few indices interleave (the ABA pattern the tag
// defends against). Every popped index must be owned by exactly one
// goroutine until it is pushed back, and at the end every index must be on
// the stack exactly once.
func TestHammerStack128(t *testing.T) {
	for _, op := range ops128 {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, _ calls) {
				G, N := hammerSize()
				N /= 8
				const slots = 3
				s := newIndexStack(slots)
				for i := range uint32(slots) {
					s.push(i)
				}
				owner := make([]atomic.Int32, slots)
				var doubled, ops atomic.Int64
				hammer(G, func(g int) {
					for range N {
						i, ok := s.pop()
						if !ok {
							runtime.Gosched()
							continue
						}
						if !owner[i].CompareAndSwap(0, int32(g)+1) {
							doubled.Add(1)
						}
						ops.Add(1)
						if !owner[i].CompareAndSwap(int32(g)+1, 0) {
							doubled.Add(1)
						}
						s.push(i)
					}
				})
				if n := doubled.Load(); n != 0 {
					t.Fatalf("%d times an index was popped while another goroutine held it", n)
				}
				if ops.Load() == 0 {
					t.Fatal("no pops succeeded")
				}
				var got [slots]int
				for {
					i, ok := s.pop()
					if !ok {
						break
					}
					if int(i) >= slots {
						t.Fatalf("popped index %d, out of range", i)
					}
					got[i]++
				}
				for i, c := range got {
					if c != 1 {
						t.Fatalf("index %d is on the stack %d times at the end, want once", i, c)
					}
				}
			})
		})
	}
}
