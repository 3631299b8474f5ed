package hal_test

import (
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// The halves of a 128-bit word are lo = addr[0] (the lower address) and
// hi = addr[1] on every GOARCH: that is what the portable variants write,
// and what a program that hands hal/direct a [2]uint64 of its own reads.
// Every variant must keep that order, whatever the register pair an
// instruction loads (on big-endian s390x the even register of LPQ, STPQ
// and CDSG holds the doubleword at the lower address). The tests below go
// through a variant one way and through plain Go indexing the other, so a
// variant that swapped the halves, consistently in all its paths, would
// fail here even though its own round trips agree.

// halvesCheck drives one variant's load, store and CAS on w, checking each
// against w[0] and w[1] as Go reads and writes them.
func halvesCheck(t *testing.T, w *[2]uint64, load func() (uint64, uint64), store func(lo, hi uint64),
	cas func(oldLo, oldHi, newLo, newHi uint64) (uint64, uint64, bool)) {
	t.Helper()
	const lo1, hi1, lo2, hi2, lo3, hi3 = 0x1111, 0x2222, 0x3333 << 40, 0x4444 << 40, 5, ^uint64(6)
	if store != nil {
		store(lo1, hi1)
		if w[0] != lo1 || w[1] != hi1 {
			t.Fatalf("store(lo %#x, hi %#x): word is [%#x, %#x], want lo in word[0]", lo1, hi1, w[0], w[1])
		}
	}
	w[0], w[1] = lo2, hi2
	if load != nil {
		if lo, hi := load(); lo != lo2 || hi != hi2 {
			t.Fatalf("word [%#x, %#x]: load = lo %#x, hi %#x, want lo from word[0]", uint64(lo2), uint64(hi2), lo, hi)
		}
	}
	if cas != nil {
		// A CAS whose old value is the word with its halves swapped
		// must fail and report the word as it is.
		if lo, hi, ok := cas(hi2, lo2, 7, 7); ok || lo != lo2 || hi != hi2 {
			t.Fatalf("word [%#x, %#x]: cas(old lo %#x, hi %#x) = %#x, %#x, %v; want a failure returning lo %#x, hi %#x",
				uint64(lo2), uint64(hi2), uint64(hi2), uint64(lo2), lo, hi, ok, uint64(lo2), uint64(hi2))
		}
		if lo, hi, ok := cas(lo2, hi2, lo3, hi3); !ok || lo != lo2 || hi != hi2 {
			t.Fatalf("cas(old = the word) = %#x, %#x, %v; want lo %#x, hi %#x, true", lo, hi, ok, uint64(lo2), uint64(hi2))
		}
		if w[0] != lo3 || w[1] != hi3 {
			t.Fatalf("cas(new lo %#x, hi %#x): word is [%#x, %#x], want lo in word[0]", uint64(lo3), hi3, w[0], w[1])
		}
	}
}

// TestUint128HalvesOrder runs every variant of load128, store128 and
// cas128, forced through the Uint128 methods and through haltool.Table()'s
// rows, against plain reads and writes of the word hal.WordOf returns.
func TestUint128HalvesOrder(t *testing.T) {
	for _, op := range []string{"load128", "store128", "cas128"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				var u hal.Uint128
				u.Store(0, 0) // gives u its cell, so that WordOf is where the value lives
				w := hal.WordOf(&u)
				halvesCheck(t, w,
					func() (uint64, uint64) { return b.load128(&u) },
					func(lo, hi uint64) { b.store128(&u, lo, hi) },
					func(oLo, oHi, nLo, nHi uint64) (uint64, uint64, bool) { return b.cas128(&u, oLo, oHi, nLo, nHi) })
			})
		})
	}
}

// TestDirect128HalvesOrder runs hal/direct's 128-bit functions this CPU
// can run on a 16-byte-aligned [2]uint64 of the test's own.
func TestDirect128HalvesOrder(t *testing.T) {
	if len(direct128.loads)+len(direct128.stores)+len(direct128.cases) == 0 {
		t.Skip("hal/direct has no 128-bit functions in this build")
	}
	var buf [4]uint64
	w := (*[2]uint64)(buf[:2])
	if uintptr(unsafe.Pointer(w))%16 != 0 {
		w = (*[2]uint64)(buf[1:3])
	}
	for _, c := range []struct {
		op    string
		names []string
	}{{"load128", keys(direct128.loads)}, {"store128", keys(direct128.stores)}, {"cas128", keys(direct128.cases)}} {
		for _, v := range c.names {
			t.Run(c.op+"/"+v, func(t *testing.T) {
				if ok, missing := haltool.Runnable(c.op, v); !ok {
					t.Skipf("this CPU lacks feature %q needed by %s/%s", missing, c.op, v)
				}
				switch c.op {
				case "load128":
					halvesCheck(t, w, func() (uint64, uint64) { return direct128.loads[v](w) }, nil, nil)
				case "store128":
					halvesCheck(t, w, nil, func(lo, hi uint64) { direct128.stores[v](w, lo, hi) }, nil)
				case "cas128":
					halvesCheck(t, w, nil, nil, func(oLo, oHi, nLo, nHi uint64) (uint64, uint64, bool) {
						return direct128.cases[v](w, oLo, oHi, nLo, nHi)
					})
				}
			})
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
