package hal

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// The assembly is never asked for more than spinLockCap pauses: a budget
// is spent in chunks of at most the cap, in order, stopping at the first
// chunk that acquires, and the total is exactly the budget.
func TestSpinChunksCap(t *testing.T) {
	for _, c := range []struct {
		spins   uint32
		acquire int // the call (0-based) that acquires, -1 for none
		want    []uint32
	}{
		{5*spinLockCap + 7, -1, []uint32{spinLockCap, spinLockCap, spinLockCap, spinLockCap, spinLockCap, 7}},
		{3 * spinLockCap, -1, []uint32{spinLockCap, spinLockCap, spinLockCap}},
		{spinLockCap + 1, -1, []uint32{spinLockCap, 1}},
		{^uint32(0), 2, []uint32{spinLockCap, spinLockCap, spinLockCap}},
		{0, -1, []uint32{0}},
	} {
		var got []uint32
		var w uint32 = 1
		ok := spinChunks(&w, c.spins, func(addr *uint32, n uint32) bool {
			if addr != &w {
				t.Fatal("chunk got another address")
			}
			got = append(got, n)
			return len(got)-1 == c.acquire
		})
		if ok != (c.acquire >= 0) || len(got) != len(c.want) {
			t.Fatalf("spins=%d: acquired %v after chunks %v, want %v after %v", c.spins, ok, got, c.acquire >= 0, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] || got[i] > spinLockCap {
				t.Fatalf("spins=%d: chunks %v, want %v", c.spins, got, c.want)
			}
		}
	}
}

// A goroutine spinning on a held lock with a huge budget does not hold up
// a stop-the-world garbage collection for longer than a bounded number of
// capped calls. Before the cap, a budget of 2^31 pauses kept runtime.GC
// waiting for the whole assembly loop (tens of seconds). The bound is
// relative to the measured time of one capped call and of a collection
// with nobody spinning, plus slack for a loaded machine; the semantics are checked too: the spinner takes the
// lock once it is released.
func TestSpinLockHugeBudgetDoesNotStallGC(t *testing.T) {
	var held uint32 = 1
	// One capped call on a held word, best of three.
	chunk := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		if spinLockUint32(&held, spinLockCap) {
			t.Fatal("acquired a held lock")
		}
		chunk = min(chunk, time.Since(start))
	}
	// A collection with nobody spinning, worst of three: what this
	// machine's load alone costs.
	var base time.Duration
	for range 3 {
		start := time.Now()
		runtime.GC()
		base = max(base, time.Since(start))
	}
	var word uint32 = 1
	var acquired atomic.Bool
	done := make(chan struct{})
	go func() {
		acquired.Store(SpinLockUint32(&word, 1<<31))
		close(done)
	}()
	time.Sleep(10 * time.Millisecond) // let it spin
	// Uncapped, the collection would wait for the whole loop: 2^31
	// pauses, tens of seconds. Capped, it waits for one call at a time,
	// but the spinner still competes for a P with the collector's
	// workers; the bound leaves room for that on a loaded machine.
	bound := 1000*chunk + 20*base + 3*time.Second
	var worst time.Duration
	for range 3 {
		start := time.Now()
		runtime.GC()
		worst = max(worst, time.Since(start))
	}
	StoreReleaseUint32(&word, 0)
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the spinner did not take the released lock within a minute")
	}
	if !acquired.Load() || word != 1 {
		t.Fatalf("spinner returned %v, word %d; want true, 1", acquired.Load(), word)
	}
	t.Logf("one capped call %v; runtime.GC alone %v, beside a spinner with 2^31 spins at most %v (bound %v)", chunk, base, worst, bound)
	if worst > bound {
		t.Errorf("runtime.GC took %v beside a spinning SpinLockUint32, more than %v (1000 capped calls of %v + 20 × %v alone + 3s)", worst, bound, chunk, base)
	}
}
