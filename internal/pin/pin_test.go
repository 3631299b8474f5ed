package pin

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestHeld: Held follows the calling goroutine's Pins (nested too), and
// never reports another goroutine's: goroutines that Pin and Unpin run
// beside goroutines that only ask, on more goroutines than Ps.
func TestHeld(t *testing.T) {
	if Held() {
		t.Fatal("Held before any Pin")
	}
	Pin()
	Pin()
	h2 := Held()
	Unpin()
	h1 := Held()
	Unpin()
	h0 := Held()
	if Pinned && (!h2 || !h1 || h0) {
		t.Fatalf("Held at depth 2, 1, 0: %v %v %v; want true true false", h2, h1, h0)
	}
	if !Pinned && (h2 || h1 || h0) {
		t.Fatalf("fallback build: Held at depth 2, 1, 0: %v %v %v; want false", h2, h1, h0)
	}

	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				if g%2 == 0 {
					Pin()
					if Pinned && !Held() {
						wrong.Add(1)
					}
					Unpin()
				} else if Held() {
					wrong.Add(1)
				}
				if i%64 == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Fatalf("%d times Held was wrong for the calling goroutine", n)
	}
}

// TestTableGrowConcurrent: goroutines grow one table to different sizes
// at once; every slot a goroutine saw keeps its pointer in every later
// table (so no write through an old table is lost).
func TestTableGrowConcurrent(t *testing.T) {
	for range 200 {
		var tb Table[int64]
		var wg sync.WaitGroup
		seen := make([][]*int64, 8)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				seen[g] = tb.Grow(1 + g*7)
			}()
		}
		wg.Wait()
		final := tb.Load()
		for g, s := range seen {
			if len(s) < 1+g*7 {
				t.Fatalf("Grow(%d) returned %d slots", 1+g*7, len(s))
			}
			for i, p := range s {
				if final[i] != p {
					t.Fatalf("slot %d: a goroutine's table holds %p, the final one %p", i, p, final[i])
				}
			}
		}
	}
}

// TestTableGrowWhilePinned: Grow allocates while pinned without fault.
func TestTableGrowWhilePinned(t *testing.T) {
	var tb Table[[64]byte]
	id := ProcPin()
	s := tb.Grow(id + 100)
	ProcUnpin()
	if len(s) < id+100 {
		t.Fatalf("%d slots", len(s))
	}
	for i, p := range s {
		if p == nil {
			t.Fatalf("slot %d nil", i)
		}
	}
}

// TestProcPinRange: ProcPin's id is in [0, GOMAXPROCS) in the default
// build and in [0, NumCPU) in the fallback build, from many goroutines.
func TestProcPinRange(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	if !Pinned {
		n = runtime.NumCPU()
	}
	var wg sync.WaitGroup
	var bad atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				if id := ProcPin(); id < 0 || id >= n {
					bad.Add(1)
				}
				ProcUnpin()
			}
		}()
	}
	wg.Wait()
	if b := bad.Load(); b != 0 {
		t.Fatalf("%d ids out of [0, %d)", b, n)
	}
}

// TestRelease: Release drops every Pin and reports how many; afterwards
// the goroutine is not pinned (a panic is an ordinary panic: this test
// recovers one), Held is false, and a further Unpin panics as unmatched.
func TestRelease(t *testing.T) {
	Pin()
	Pin()
	Pin()
	n := Release()
	if Pinned && n != 3 || !Pinned && n != 0 {
		t.Fatalf("Release after 3 Pins = %d (Pinned %v)", n, Pinned)
	}
	if Held() {
		t.Fatal("Held after Release")
	}
	func() {
		defer func() { _ = recover() }()
		panic("an ordinary panic, recoverable once nothing is pinned")
	}()
	if n := Release(); n != 0 {
		t.Fatalf("Release with no Pin = %d", n)
	}
	if Pinned {
		defer func() {
			if r := recover(); r != "percpu: Unpin without a matching Pin" {
				t.Fatalf("Unpin after Release: recovered %v", r)
			}
		}()
		Unpin()
		t.Fatal("Unpin after Release did not panic")
	}
}

// TestCanSpinOneP: with one P there is nowhere else for a holder to run,
// so CanSpin says park (the fallback build reads GOMAXPROCS at init only).
func TestCanSpinOneP(t *testing.T) {
	if !Pinned {
		t.Skip("the fallback build's CanSpin reads GOMAXPROCS at init")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if CanSpin() {
		t.Fatal("CanSpin is true with GOMAXPROCS 1")
	}
}
