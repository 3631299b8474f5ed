package hal_test

import (
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// binding is one way to call the ops: through the exported API (apiFuncs:
// each exported function as user code calls it) or through the func
// values of haltool.Table() (tableFuncs). opFuncs, apiFuncs and tableFuncs are
// generated from the spec (zops_test.go), one field per op.
type calls struct {
	opFuncs
	// cas128 takes a Uint128: the API binding goes through its methods
	// (built on the unexported Uint128 entry cas128U), the table binding through
	// Table().CompareAndSwap128 on the word Addr returns (hal.WordOf: Addr
	// itself panics while the portable variant runs; the table rows are the
	// variants the methods run, so they agree with them on the word).
	cas128  func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)
	load128 func(u *hal.Uint128) (lo, hi uint64)
	// spinlock32's entry is unexported: the API binding is the exported
	// SpinLockUint32 (Go, capping each assembly call), the table binding
	// the entry's variant itself.
	spinlock32 func(addr *uint32, spins uint32) bool
	// store128 and swap128 likewise: Uint128's Store and Swap, or the
	// table's Store128 row (swap128 is a CAS loop over the table's rows).
	store128 func(u *hal.Uint128, lo, hi uint64)
	swap128  func(u *hal.Uint128, lo, hi uint64) (oldLo, oldHi uint64)
}

func apiBinding() calls {
	return calls{
		opFuncs: apiFuncs(),
		cas128: func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) (uint64, uint64, bool) {
			// The API has no "value found" result: read it with Load
			// when the CAS fails, as callers do.
			if u.CompareAndSwap(oldLo, oldHi, newLo, newHi) {
				return oldLo, oldHi, true
			}
			lo, hi := u.Load()
			return lo, hi, false
		},
		load128:    func(u *hal.Uint128) (uint64, uint64) { return u.Load() },
		spinlock32: func(a *uint32, s uint32) bool { return hal.SpinLockUint32(a, s) },
		store128:   func(u *hal.Uint128, lo, hi uint64) { u.Store(lo, hi) },
		swap128:    func(u *hal.Uint128, lo, hi uint64) (uint64, uint64) { return u.Swap(lo, hi) },
	}
}

// tableBinding reads the table after any Force, so it calls the variant
// forced.
func tableBinding() calls {
	t := haltool.Table()
	c128, l128, s128 := t.CompareAndSwap128.Func, t.Load128.Func, t.Store128.Func
	return calls{
		opFuncs: tableFuncs(),
		cas128: func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) (uint64, uint64, bool) {
			return c128(hal.WordOf(u), oldLo, oldHi, newLo, newHi)
		},
		load128:  func(u *hal.Uint128) (uint64, uint64) { return l128(hal.WordOf(u)) },
		store128: func(u *hal.Uint128, lo, hi uint64) { s128(hal.WordOf(u), lo, hi) },
		swap128: func(u *hal.Uint128, lo, hi uint64) (uint64, uint64) {
			a := hal.WordOf(u)
			oLo, oHi := l128(a)
			for {
				l, h, ok := c128(a, oLo, oHi, lo, hi)
				if ok {
					return oLo, oHi
				}
				oLo, oHi = l, h
			}
		},
		spinlock32: haltool.Table().SpinLockUint32.Func,
	}
}

// eachVariant runs f for every variant of op compiled into this build and
// every binding, with the variant forced. Variants this CPU cannot run are
// skipped, naming the missing feature.
func eachVariant(t *testing.T, op string, f func(t *testing.T, b calls)) {
	t.Helper()
	vs, ok := haltool.Variants(op)
	if !ok {
		t.Fatalf("haltool.Variants(%q): unknown op", op)
	}
	if len(vs) == 0 {
		t.Fatalf("op %s has no variants", op)
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			if ok, missing := haltool.Runnable(op, v.Name); !ok {
				t.Skipf("this CPU lacks feature %q needed by %s/%s", missing, op, v.Name)
			}
			if haltool.Binding(op) == haltool.Static && v.Name != selectedVariant(op) {
				t.Skipf("static build: %s/%s is compiled in, not %s", op, selectedVariant(op), v.Name)
			}
			restore, err := haltool.Force(op, v.Name)
			if err != nil {
				t.Fatalf("Force(%s, %s): %v", op, v.Name, err)
			}
			defer restore()
			for _, s := range hal.Selected() {
				if s.Op == op && s.Variant != v.Name {
					t.Fatalf("after Force, Selected says %s=%s", op, s.Variant)
				}
			}
			t.Run("api", func(t *testing.T) { f(t, apiBinding()) })
			t.Run("table", func(t *testing.T) {
				b := tableBinding()
				if got := tableVariant(op); got != v.Name {
					t.Fatalf("Table row of %s names variant %q, want %q", op, got, v.Name)
				}
				f(t, b)
			})
		})
	}
}

// selectedVariant returns the variant hal.Selected names for op.
func selectedVariant(op string) string {
	for _, c := range hal.Selected() {
		if c.Op == op {
			return c.Variant
		}
	}
	return ""
}

func TestOpsList(t *testing.T) {
	got := haltool.Ops()
	if len(got) != len(allOps) {
		t.Fatalf("Ops() = %v, want %v", got, allOps)
	}
	for i := range got {
		if got[i] != allOps[i] {
			t.Fatalf("Ops() = %v, want %v", got, allOps)
		}
	}
}

// Sentinels around the word under test catch a store of the wrong width.
const (
	guard32 = 0xdeadbeef
	guard64 = 0xdeadbeefcafef00d
)

func checkGuards32(t *testing.T, w *[3]uint32) {
	t.Helper()
	if w[0] != guard32 || w[2] != guard32 {
		t.Fatalf("neighbouring words changed: %#x %#x", w[0], w[2])
	}
}

func checkGuards64(t *testing.T, w *[3]uint64) {
	t.Helper()
	if w[0] != guard64 || w[2] != guard64 {
		t.Fatalf("neighbouring words changed: %#x %#x", w[0], w[2])
	}
}

func TestCAS32(t *testing.T) {
	eachVariant(t, "cas32", func(t *testing.T, b calls) {
		// Values with the top bit set catch a sign-extended comparand.
		for _, c := range []struct{ init, other, new uint32 }{
			{5, 4, 9}, {0, 1, 0xffffffff}, {0x80000001, 0x00000001, 0xfffffffe}, {0xffffffff, 0x7fffffff, 0},
		} {
			w := [3]uint32{guard32, c.init, guard32}
			if b.cas32(&w[1], c.other, c.new) {
				t.Fatalf("cas(%#x, old=%#x) swapped", c.init, c.other)
			}
			if w[1] != c.init {
				t.Fatalf("failed cas changed the word to %#x", w[1])
			}
			if !b.cas32(&w[1], c.init, c.new) {
				t.Fatalf("cas(%#x, old=%#x) did not swap", c.init, c.init)
			}
			if w[1] != c.new {
				t.Fatalf("word = %#x after cas, want %#x", w[1], c.new)
			}
			checkGuards32(t, &w)
		}
	})
}

func TestCAS64(t *testing.T) {
	eachVariant(t, "cas64", func(t *testing.T, b calls) {
		for _, c := range []struct{ init, other, new uint64 }{
			{5, 4, 9}, {1 << 32, 0, 7}, {0x8000000000000001, 0x0000000000000001, 1<<63 | 1<<31},
			{^uint64(0), 0xffffffff, 0},
		} {
			w := [3]uint64{guard64, c.init, guard64}
			if b.cas64(&w[1], c.other, c.new) {
				t.Fatalf("cas(%#x, old=%#x) swapped", c.init, c.other)
			}
			if w[1] != c.init {
				t.Fatalf("failed cas changed the word to %#x", w[1])
			}
			if !b.cas64(&w[1], c.init, c.new) {
				t.Fatalf("cas(%#x, old=%#x) did not swap", c.init, c.init)
			}
			if w[1] != c.new {
				t.Fatalf("word = %#x after cas, want %#x", w[1], c.new)
			}
			checkGuards64(t, &w)
		}
	})
}

func TestCASUintptr(t *testing.T) {
	eachVariant(t, "casuintptr", func(t *testing.T, b calls) {
		w := [3]uintptr{1, 10, 1}
		if b.casuintptr(&w[1], 11, 12) || w[1] != 10 {
			t.Fatalf("failing cas swapped or changed the word: %d", w[1])
		}
		if !b.casuintptr(&w[1], 10, ^uintptr(0)) || w[1] != ^uintptr(0) {
			t.Fatalf("cas did not swap: %#x", w[1])
		}
		if w[0] != 1 || w[2] != 1 {
			t.Fatal("neighbouring words changed")
		}
	})
}

func TestFetchAdd32(t *testing.T) {
	eachVariant(t, "fetchadd32", func(t *testing.T, b calls) {
		w := [3]uint32{guard32, 40, guard32}
		if old := b.fetchadd32(&w[1], 2); old != 40 || w[1] != 42 {
			t.Fatalf("fetchadd(40, 2) = %d, word %d; want 40, 42", old, w[1])
		}
		if old := b.fetchadd32(&w[1], ^uint32(0)); old != 42 || w[1] != 41 {
			t.Fatalf("fetchadd(42, -1) = %d, word %d; want 42, 41", old, w[1])
		}
		w[1] = 0xffffffff
		if old := b.fetchadd32(&w[1], 1); old != 0xffffffff || w[1] != 0 {
			t.Fatalf("fetchadd wrap = %#x, word %#x", old, w[1])
		}
		checkGuards32(t, &w)
	})
}

func TestFetchAdd64(t *testing.T) {
	eachVariant(t, "fetchadd64", func(t *testing.T, b calls) {
		w := [3]uint64{guard64, 40, guard64}
		if old := b.fetchadd64(&w[1], 2); old != 40 || w[1] != 42 {
			t.Fatalf("fetchadd(40, 2) = %d, word %d; want 40, 42", old, w[1])
		}
		if old := b.fetchadd64(&w[1], 1<<40); old != 42 || w[1] != 42+1<<40 {
			t.Fatalf("fetchadd(42, 1<<40) = %d, word %#x", old, w[1])
		}
		w[1] = ^uint64(0)
		if old := b.fetchadd64(&w[1], 1); old != ^uint64(0) || w[1] != 0 {
			t.Fatalf("fetchadd wrap = %#x, word %#x", old, w[1])
		}
		checkGuards64(t, &w)
	})
}

func TestSwap32(t *testing.T) {
	eachVariant(t, "swap32", func(t *testing.T, b calls) {
		w := [3]uint32{guard32, 7, guard32}
		if old := b.swap32(&w[1], 0x80000000); old != 7 || w[1] != 0x80000000 {
			t.Fatalf("swap = %d, word %#x", old, w[1])
		}
		if old := b.swap32(&w[1], 3); old != 0x80000000 || w[1] != 3 {
			t.Fatalf("swap = %#x, word %d", old, w[1])
		}
		checkGuards32(t, &w)
	})
}

func TestSwap64(t *testing.T) {
	eachVariant(t, "swap64", func(t *testing.T, b calls) {
		w := [3]uint64{guard64, 7, guard64}
		if old := b.swap64(&w[1], 1<<63|5); old != 7 || w[1] != 1<<63|5 {
			t.Fatalf("swap = %d, word %#x", old, w[1])
		}
		if old := b.swap64(&w[1], 3); old != 1<<63|5 || w[1] != 3 {
			t.Fatalf("swap = %#x, word %d", old, w[1])
		}
		checkGuards64(t, &w)
	})
}

func TestLoadAcquire32(t *testing.T) {
	eachVariant(t, "loadacquire32", func(t *testing.T, b calls) {
		w := [3]uint32{guard32, 0x87654321, guard32}
		if got := b.loadacquire32(&w[1]); got != 0x87654321 {
			t.Fatalf("load = %#x", got)
		}
		w[1] = 0
		if got := b.loadacquire32(&w[1]); got != 0 {
			t.Fatalf("load = %#x", got)
		}
	})
}

func TestLoadAcquire64(t *testing.T) {
	eachVariant(t, "loadacquire64", func(t *testing.T, b calls) {
		w := [3]uint64{guard64, 0x8765432112345678, guard64}
		if got := b.loadacquire64(&w[1]); got != 0x8765432112345678 {
			t.Fatalf("load = %#x", got)
		}
	})
}

func TestStoreRelease32(t *testing.T) {
	eachVariant(t, "storerelease32", func(t *testing.T, b calls) {
		w := [3]uint32{guard32, 0, guard32}
		b.storerelease32(&w[1], 0xfedcba98)
		if w[1] != 0xfedcba98 || b.loadacquire32(&w[1]) != 0xfedcba98 {
			t.Fatalf("word = %#x after store", w[1])
		}
		checkGuards32(t, &w)
	})
}

func TestStoreRelease64(t *testing.T) {
	eachVariant(t, "storerelease64", func(t *testing.T, b calls) {
		w := [3]uint64{guard64, 0, guard64}
		b.storerelease64(&w[1], 0xfedcba9876543210)
		if w[1] != 0xfedcba9876543210 || b.loadacquire64(&w[1]) != 0xfedcba9876543210 {
			t.Fatalf("word = %#x after store", w[1])
		}
		checkGuards64(t, &w)
	})
}

func TestFenceAndPause(t *testing.T) {
	eachVariant(t, "fence", func(t *testing.T, b calls) {
		for range 1000 {
			b.fence()
		}
	})
	eachVariant(t, "pause", func(t *testing.T, b calls) {
		for range 1000 {
			b.pause()
		}
	})
}

func TestCycles(t *testing.T) {
	eachVariant(t, "cycles", func(t *testing.T, b calls) {
		prev := b.cycles()
		first := prev
		for i := range 100000 {
			c := b.cycles()
			if c < prev {
				t.Fatalf("read %d: counter went back from %d to %d", i, prev, c)
			}
			prev = c
		}
		if prev == first {
			t.Fatalf("counter did not move in 100000 reads (stuck at %d)", prev)
		}
	})
}

func TestCAS128(t *testing.T) {
	eachVariant(t, "cas128", func(t *testing.T, b calls) {
		var u hal.Uint128
		if lo, hi := b.load128(&u); lo != 0 || hi != 0 {
			t.Fatalf("zero Uint128 loads %#x, %#x", lo, hi)
		}
		u.Store(1, 2)
		if lo, hi := b.load128(&u); lo != 1 || hi != 2 {
			t.Fatalf("load after Store(1, 2) = %d, %d", lo, hi)
		}
		// Each half must take part in the comparison.
		for _, old := range [][2]uint64{{1, 3}, {3, 2}, {2, 1}} {
			lo, hi, ok := b.cas128(&u, old[0], old[1], 9, 9)
			if ok || lo != 1 || hi != 2 {
				t.Fatalf("cas128(old=%v) = %d, %d, %v; want 1, 2, false", old, lo, hi, ok)
			}
		}
		lo, hi, ok := b.cas128(&u, 1, 2, 1<<63|3, ^uint64(4))
		if !ok || lo != 1 || hi != 2 {
			t.Fatalf("cas128(old=1,2) = %d, %d, %v; want 1, 2, true", lo, hi, ok)
		}
		if lo, hi := b.load128(&u); lo != 1<<63|3 || hi != ^uint64(4) {
			t.Fatalf("load after cas = %#x, %#x", lo, hi)
		}
		if !u.CompareAndSwap(1<<63|3, ^uint64(4), 0, 0) {
			t.Fatal("CompareAndSwap back to zero failed")
		}
		if lo, hi := u.Load(); lo != 0 || hi != 0 {
			t.Fatalf("load = %d, %d", lo, hi)
		}
	})
}

func TestUint128Aligned(t *testing.T) {
	// Whatever the Uint128's own alignment, Addr is 16-byte aligned (the
	// cmpxchg16b variant would fault otherwise).
	type pad struct {
		_ uint64
		u hal.Uint128
	}
	for range 4 {
		p := new(pad)
		var u hal.Uint128
		for _, a := range []*[2]uint64{hal.WordOf(&p.u), hal.WordOf(&u)} {
			if addrOf(a)%16 != 0 {
				t.Fatalf("Addr() = %#x, not 16-byte aligned", addrOf(a))
			}
		}
		p.u.Store(5, 6)
		if lo, hi := p.u.Load(); lo != 5 || hi != 6 {
			t.Fatalf("load = %d, %d", lo, hi)
		}
	}
}

// TestSpinLock32 checks the single-goroutine semantics: a free word is
// taken (0 → 1) whatever the budget, a held word is left alone and reported
// not acquired once the budget is spent, and the neighbouring words are
// never written.
func TestSpinLock32(t *testing.T) {
	eachVariant(t, "spinlock32", func(t *testing.T, b calls) {
		for _, spins := range []uint32{0, 1, 100, 1 << 31} {
			w := [3]uint32{guard32, 0, guard32}
			if !b.spinlock32(&w[1], spins) {
				t.Fatalf("spins=%d: free lock not acquired", spins)
			}
			if w[1] != 1 {
				t.Fatalf("spins=%d: word = %#x after acquiring, want 1", spins, w[1])
			}
			checkGuards32(t, &w)
		}
		// Held, by this lock (1) or by any other non-zero value: the
		// budget runs out and the word is unchanged. The largest budget
		// here is small enough to run out quickly under the portable
		// build's Pause (runtime.Gosched).
		for _, held := range []uint32{1, 2, 0x80000000, 0xffffffff} {
			for _, spins := range []uint32{0, 1, 1000} {
				w := [3]uint32{guard32, held, guard32}
				if b.spinlock32(&w[1], spins) {
					t.Fatalf("held=%#x spins=%d: acquired a held lock", held, spins)
				}
				if w[1] != held {
					t.Fatalf("held=%#x spins=%d: word changed to %#x", held, spins, w[1])
				}
				checkGuards32(t, &w)
			}
		}
		// A release makes it free again.
		var w uint32 = 1
		b.storerelease32(&w, 0)
		if !b.spinlock32(&w, 0) || w != 1 {
			t.Fatalf("after release: not acquired, word %d", w)
		}
	})
}
