package hal_test

import (
	"sync/atomic"
	"testing"
)

// The ops added through ADDING-AN-OP.md: fetch-or and fetch-and (32 and 64
// bits) and the uintptr forms of fetch-add, swap, load-acquire and
// store-release. Each runs under every variant compiled in and both
// bindings (eachVariant), single-threaded for the values and under
// hammering for atomicity.

func TestFetchOrAnd32(t *testing.T) {
	for _, op := range []string{"fetchor32", "fetchand32"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				for _, c := range []struct{ init, mask uint32 }{
					{0, 0}, {0, 0xffffffff}, {0x80000001, 0x7ffffffe}, {0xf0f0f0f0, 0x0ff00ff0}, {0xffffffff, 0x80000000},
				} {
					w := [3]uint32{guard32, c.init, guard32}
					want := c.init | c.mask
					old := b.fetchor32(&w[1], c.mask)
					if op == "fetchand32" {
						w[1] = c.init
						want = c.init & c.mask
						old = b.fetchand32(&w[1], c.mask)
					}
					if old != c.init || w[1] != want {
						t.Fatalf("%s(%#x, %#x) = %#x, word %#x; want %#x, %#x", op, c.init, c.mask, old, w[1], c.init, want)
					}
					checkGuards32(t, &w)
				}
			})
		})
	}
}

func TestFetchOrAnd64(t *testing.T) {
	for _, op := range []string{"fetchor64", "fetchand64"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				for _, c := range []struct{ init, mask uint64 }{
					{0, 0}, {0, ^uint64(0)}, {1<<63 | 1, 1<<62 | 1<<31}, {0xf0f0f0f0_0f0f0f0f, 0xffffffff_00000000}, {^uint64(0), 1 << 32},
				} {
					w := [3]uint64{guard64, c.init, guard64}
					want := c.init | c.mask
					old := b.fetchor64(&w[1], c.mask)
					if op == "fetchand64" {
						w[1] = c.init
						want = c.init & c.mask
						old = b.fetchand64(&w[1], c.mask)
					}
					if old != c.init || w[1] != want {
						t.Fatalf("%s(%#x, %#x) = %#x, word %#x; want %#x, %#x", op, c.init, c.mask, old, w[1], c.init, want)
					}
					checkGuards64(t, &w)
				}
			})
		})
	}
}

func TestUintptrOps(t *testing.T) {
	top := ^uintptr(0) ^ ^uintptr(0)>>1 // the top bit, whatever the width
	eachVariant(t, "fetchadduintptr", func(t *testing.T, b calls) {
		w := [3]uintptr{1, 40, 1}
		if old := b.fetchadduintptr(&w[1], 2); old != 40 || w[1] != 42 {
			t.Fatalf("fetchadd(40, 2) = %d, word %d", old, w[1])
		}
		w[1] = ^uintptr(0)
		if old := b.fetchadduintptr(&w[1], 1); old != ^uintptr(0) || w[1] != 0 {
			t.Fatalf("fetchadd wrap = %#x, word %#x", old, w[1])
		}
		if w[0] != 1 || w[2] != 1 {
			t.Fatal("neighbouring words changed")
		}
	})
	eachVariant(t, "swapuintptr", func(t *testing.T, b calls) {
		w := [3]uintptr{1, 7, 1}
		if old := b.swapuintptr(&w[1], top|5); old != 7 || w[1] != top|5 {
			t.Fatalf("swap = %d, word %#x", old, w[1])
		}
		if w[0] != 1 || w[2] != 1 {
			t.Fatal("neighbouring words changed")
		}
	})
	eachVariant(t, "loadacquireuintptr", func(t *testing.T, b calls) {
		w := [3]uintptr{1, top | 3, 1}
		if got := b.loadacquireuintptr(&w[1]); got != top|3 {
			t.Fatalf("load = %#x", got)
		}
	})
	eachVariant(t, "storereleaseuintptr", func(t *testing.T, b calls) {
		w := [3]uintptr{1, 0, 1}
		b.storereleaseuintptr(&w[1], top|9)
		if w[1] != top|9 || w[0] != 1 || w[2] != 1 {
			t.Fatalf("word = %#x after store, neighbours %d %d", w[1], w[0], w[2])
		}
	})
}

// Each goroutine owns some bits of one shared word and sets and clears
// them with fetch-or and fetch-and while the others do the same with
// theirs: the old value each op returns must show the goroutine's own
// bits exactly as it left them (a lost or torn update of another
// goroutine's op would flip them), and the word ends at zero.
func TestHammerFetchOrAnd64(t *testing.T) {
	for _, op := range []string{"fetchor64", "fetchand64"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				G, N := hammerSize()
				var x uint64
				var bad atomic.Int64
				hammer(G, func(g int) {
					mine := uint64(0x0101010101010101) << g // bit g of every byte
					for range N {
						if old := b.fetchor64(&x, mine); old&mine != 0 {
							bad.Add(1)
						}
						if old := b.fetchand64(&x, ^mine); old&mine != mine {
							bad.Add(1)
						}
					}
				})
				if n := bad.Load(); n > 0 || x != 0 {
					t.Fatalf("%d old values showed a goroutine's own bits wrong; final word %#x, want 0", n, x)
				}
			})
		})
	}
}

func TestHammerFetchOrAnd32(t *testing.T) {
	for _, op := range []string{"fetchor32", "fetchand32"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				G, N := hammerSize()
				var x uint32
				var bad atomic.Int64
				hammer(G, func(g int) {
					mine := uint32(0x01010101) << g
					for range N {
						if old := b.fetchor32(&x, mine); old&mine != 0 {
							bad.Add(1)
						}
						if old := b.fetchand32(&x, ^mine); old&mine != mine {
							bad.Add(1)
						}
					}
				})
				if n := bad.Load(); n > 0 || x != 0 {
					t.Fatalf("%d old values showed a goroutine's own bits wrong; final word %#x, want 0", n, x)
				}
			})
		})
	}
}

// Fetch-add and swap on uintptr: the fetch-add olds are a permutation,
// and a swap chain hands every value on exactly once.
func TestHammerUintptr(t *testing.T) {
	eachVariant(t, "fetchadduintptr", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uintptr
		olds := make([][]uint64, G)
		hammer(G, func(g int) {
			s := make([]uint64, N)
			for i := range s {
				s[i] = uint64(b.fetchadduintptr(&x, 1))
			}
			olds[g] = s
		})
		checkPermutation(t, olds, G*N)
	})
	eachVariant(t, "swapuintptr", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uintptr // the initial value 0 is taken out too
		got := make([][]uint64, G)
		hammer(G, func(g int) {
			s := make([]uint64, 0, N)
			for i := range N {
				s = append(s, uint64(b.swapuintptr(&x, uintptr(1+g*N+i))))
			}
			got[g] = s
		})
		got = append(got, []uint64{uint64(x)})
		checkPermutation(t, got, G*N+1)
	})
}
