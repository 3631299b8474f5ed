package hal_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/cacheline"
)

// Litmus tests run the classic two-thread shapes many times on the real CPU
// and count each outcome. An outcome the ordering under test forbids fails
// the test; an outcome the hardware merely allows is reported.
//
// Each iteration uses fresh words and starts both threads together through
// a counter barrier (a sequentially consistent RMW, so nothing from the
// previous iteration leaks into the next), then runs the shape's two bodies.

// litmusWords keeps the two shared words of one iteration on separate cache
// lines, as the classic tests do.
type litmusWords struct {
	x uint64
	_ [cacheline.Size - unsafe.Sizeof(uint64(0))%cacheline.Size]byte
	y uint64
	_ [cacheline.Size - unsafe.Sizeof(uint64(0))%cacheline.Size]byte
}

// litmus runs body0 and body1 concurrently iters times, or as many times
// as fit in litmusBudget, and returns, per iteration both ran, the pair of
// values the bodies observed, counted by outcome. Each iteration waits
// until both goroutines reach it, which on a busy machine (a CPU taken
// away from one of them) takes a scheduler time slice instead of
// nanoseconds: the budget keeps the run's length bounded there, and the
// outcomes of fewer iterations are as valid as the outcomes of all.
func litmus(t *testing.T, iters int, body0, body1 func(w *litmusWords) uint64) map[[2]uint64]int {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("litmus tests need GOMAXPROCS >= 2")
	}
	words := make([]litmusWords, iters)
	r0 := make([]uint64, iters)
	r1 := make([]uint64, iters)
	var barrier uint64
	var stop atomic.Bool
	timer := time.AfterFunc(litmusBudget, func() { stop.Store(true) })
	defer timer.Stop()
	var wg sync.WaitGroup
	wg.Add(2)
	// run returns how many iterations it ran. When the budget runs out
	// while it waits at the barrier, the other goroutine may have run
	// one iteration more: only iterations both ran are counted.
	run := func(body func(*litmusWords) uint64, out []uint64, done *int) {
		defer wg.Done()
		for i := range iters {
			atomic.AddUint64(&barrier, 1)
			for spins := 0; atomic.LoadUint64(&barrier) < 2*uint64(i+1); spins++ {
				if stop.Load() {
					return
				}
				if spins > 1000 {
					runtime.Gosched() // the other thread was descheduled
					spins = 0
				}
			}
			out[i] = body(&words[i])
			*done = i + 1
		}
	}
	var done0, done1 int
	go run(body0, r0, &done0)
	go run(body1, r1, &done1)
	wg.Wait()
	counts := map[[2]uint64]int{}
	for i := range min(done0, done1) {
		counts[[2]uint64{r0[i], r1[i]}]++
	}
	return counts
}

// litmusBudget bounds one litmus run's time (see litmus).
const litmusBudget = 5 * time.Second

// ran returns how many iterations a litmus run's outcome counts cover.
func ran(counts map[[2]uint64]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func litmusIters() int {
	if testing.Short() {
		return 20000
	}
	return 200000
}

// expectStoreBuffering reports whether the store-buffering outcome must be
// observable: on amd64, where StoreRelease and LoadAcquire are plain MOVs
// (TSO lets a later load pass an earlier store), outside -short.
func expectStoreBuffering() bool {
	if testing.Short() || runtime.GOARCH != "amd64" {
		return false
	}
	for _, c := range hal.Selected() {
		if c.Op == "storerelease64" && c.Variant != "mov" {
			return false
		}
	}
	return true
}

func report(t *testing.T, name string, counts map[[2]uint64]int) {
	t.Helper()
	t.Logf("%s outcomes (r0,r1): %v", name, fmt.Sprint(counts))
}

// Store buffering: each thread stores to its word and loads the other's.
// r0 == r1 == 0 means a store was ordered after the later load: x86-TSO and
// ARM allow it with release stores and acquire loads; a full fence between
// them, or a sequentially consistent RMW as the store, forbids it.
func TestLitmusStoreBuffering(t *testing.T) {
	iters := litmusIters()
	relaxed := litmus(t, iters,
		func(w *litmusWords) uint64 { hal.StoreReleaseUint64(&w.x, 1); return hal.LoadAcquireUint64(&w.y) },
		func(w *litmusWords) uint64 { hal.StoreReleaseUint64(&w.y, 1); return hal.LoadAcquireUint64(&w.x) })
	report(t, "SB release/acquire (0,0 allowed)", relaxed)
	if expectStoreBuffering() {
		// x86 has a store buffer: a plain MOV store followed by a MOV load
		// of another word can complete the load first. Show it, retrying
		// a few rounds since a loaded machine may interleave too coarsely.
		seen, total := relaxed[[2]uint64{0, 0}], ran(relaxed)
		for round := 0; seen == 0 && round < 4; round++ {
			again := litmus(t, iters,
				func(w *litmusWords) uint64 { hal.StoreReleaseUint64(&w.x, 1); return hal.LoadAcquireUint64(&w.y) },
				func(w *litmusWords) uint64 { hal.StoreReleaseUint64(&w.y, 1); return hal.LoadAcquireUint64(&w.x) })
			seen, total = again[[2]uint64{0, 0}], total+ran(again)
		}
		switch {
		case seen == 0 && total < 5*iters:
			t.Logf("SB release/acquire: (0,0) not seen in %d iterations, fewer than %d: the budget cut the runs short (a busy machine)", total, 5*iters)
		case seen == 0:
			t.Errorf("SB release/acquire: the store-buffer outcome (0,0) never appeared in %d iterations on amd64; "+
				"are StoreRelease/LoadAcquire still plain MOVs?", total)
		}
	}

	fenced := litmus(t, iters,
		func(w *litmusWords) uint64 {
			hal.StoreReleaseUint64(&w.x, 1)
			hal.Fence()
			return hal.LoadAcquireUint64(&w.y)
		},
		func(w *litmusWords) uint64 {
			hal.StoreReleaseUint64(&w.y, 1)
			hal.Fence()
			return hal.LoadAcquireUint64(&w.x)
		})
	report(t, "SB with Fence", fenced)
	if n := fenced[[2]uint64{0, 0}]; n > 0 {
		t.Errorf("SB with Fence: forbidden outcome (0,0) seen %d times in %d", n, iters)
	}

	swapped := litmus(t, iters,
		func(w *litmusWords) uint64 { hal.SwapUint64(&w.x, 1); return hal.LoadAcquireUint64(&w.y) },
		func(w *litmusWords) uint64 { hal.SwapUint64(&w.y, 1); return hal.LoadAcquireUint64(&w.x) })
	report(t, "SB with SwapUint64 stores", swapped)
	if n := swapped[[2]uint64{0, 0}]; n > 0 {
		t.Errorf("SB with Swap: forbidden outcome (0,0) seen %d times in %d", n, iters)
	}

	added := litmus(t, iters,
		func(w *litmusWords) uint64 { hal.FetchAddUint64(&w.x, 1); return hal.LoadAcquireUint64(&w.y) },
		func(w *litmusWords) uint64 { hal.FetchAddUint64(&w.y, 1); return hal.LoadAcquireUint64(&w.x) })
	report(t, "SB with FetchAddUint64 stores", added)
	if n := added[[2]uint64{0, 0}]; n > 0 {
		t.Errorf("SB with FetchAdd: forbidden outcome (0,0) seen %d times in %d", n, iters)
	}
	cased := litmus(t, iters,
		func(w *litmusWords) uint64 { hal.CompareAndSwapUint64(&w.x, 0, 1); return hal.LoadAcquireUint64(&w.y) },
		func(w *litmusWords) uint64 { hal.CompareAndSwapUint64(&w.y, 0, 1); return hal.LoadAcquireUint64(&w.x) })
	report(t, "SB with CompareAndSwapUint64 stores", cased)
	if n := cased[[2]uint64{0, 0}]; n > 0 {
		t.Errorf("SB with CAS: forbidden outcome (0,0) seen %d times in %d", n, iters)
	}
}

// Message passing: thread 0 writes the data, then publishes a flag with a
// release store; thread 1 reads the flag with an acquire load, then the
// data. Seeing the flag but not the data, (1,0), is forbidden.
func TestLitmusMessagePassing(t *testing.T) {
	iters := litmusIters()
	counts := litmus(t, iters,
		func(w *litmusWords) uint64 {
			hal.StoreReleaseUint64(&w.x, 1) // data (release is stronger than needed here)
			hal.StoreReleaseUint64(&w.y, 1) // flag
			return 0
		},
		func(w *litmusWords) uint64 {
			flag := hal.LoadAcquireUint64(&w.y)
			data := hal.LoadAcquireUint64(&w.x)
			return flag<<1 | data
		})
	// Thread 0 reports 0; thread 1 encodes (flag, data).
	seen := map[string]int{}
	for k, n := range counts {
		seen[fmt.Sprintf("flag=%d,data=%d", k[1]>>1, k[1]&1)] += n
	}
	t.Logf("MP outcomes: %v", seen)
	if n := seen["flag=1,data=0"]; n > 0 {
		t.Errorf("MP: forbidden outcome flag=1,data=0 seen %d times in %d", n, iters)
	}
}

// Load buffering: each thread loads the other's word with acquire, then
// stores 1 to its own with release. (1,1) would need a store to be seen
// before the load that precedes it: forbidden by acquire loads.
func TestLitmusLoadBuffering(t *testing.T) {
	iters := litmusIters()
	counts := litmus(t, iters,
		func(w *litmusWords) uint64 {
			r := hal.LoadAcquireUint64(&w.x)
			hal.StoreReleaseUint64(&w.y, 1)
			return r
		},
		func(w *litmusWords) uint64 {
			r := hal.LoadAcquireUint64(&w.y)
			hal.StoreReleaseUint64(&w.x, 1)
			return r
		})
	report(t, "LB", counts)
	if n := counts[[2]uint64{1, 1}]; n > 0 {
		t.Errorf("LB: forbidden outcome (1,1) seen %d times in %d", n, iters)
	}
}

// forEachVariant runs f once per runnable variant of op, forced through the
// dispatch layer, and restores the original choice.
func forEachVariant(t *testing.T, op string, f func(t *testing.T)) {
	vs, ok := haltool.Variants(op)
	if !ok {
		t.Fatalf("no op %q", op)
	}
	for _, v := range vs {
		t.Run(op+"="+v.Name, func(t *testing.T) {
			if ok, missing := haltool.Runnable(op, v.Name); !ok {
				t.Skipf("CPU lacks %s", missing)
			}
			if haltool.Binding(op) == haltool.Static && v.Name != selectedVariant(op) {
				t.Skipf("static build: %s/%s is compiled in, not %s", op, selectedVariant(op), v.Name)
			}
			restore, err := haltool.Force(op, v.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// Every variant of Fence forbids the store-buffering outcome, and every
// variant of the acquire load and release store forbids message passing's.
func TestLitmusEveryVariant(t *testing.T) {
	iters := litmusIters() / 2
	forEachVariant(t, "fence", func(t *testing.T) {
		counts := litmus(t, iters,
			func(w *litmusWords) uint64 {
				hal.StoreReleaseUint64(&w.x, 1)
				hal.Fence()
				return hal.LoadAcquireUint64(&w.y)
			},
			func(w *litmusWords) uint64 {
				hal.StoreReleaseUint64(&w.y, 1)
				hal.Fence()
				return hal.LoadAcquireUint64(&w.x)
			})
		report(t, "SB", counts)
		if n := counts[[2]uint64{0, 0}]; n > 0 {
			t.Errorf("forbidden outcome (0,0) seen %d times in %d", n, iters)
		}
	})
	mp := func(t *testing.T) {
		counts := litmus(t, iters,
			func(w *litmusWords) uint64 {
				hal.StoreReleaseUint64(&w.x, 1)
				hal.StoreReleaseUint64(&w.y, 1)
				return 0
			},
			func(w *litmusWords) uint64 {
				flag := hal.LoadAcquireUint64(&w.y)
				return flag<<1 | hal.LoadAcquireUint64(&w.x)
			})
		if n := counts[[2]uint64{0, 2}]; n > 0 {
			t.Errorf("MP: forbidden outcome flag=1,data=0 seen %d times in %d", n, iters)
		}
	}
	forEachVariant(t, "loadacquire64", mp)
	forEachVariant(t, "storerelease64", mp)
	for _, op := range []string{"swap64", "fetchadd64", "cas64", "fetchor64", "fetchand64"} {
		forEachVariant(t, op, func(t *testing.T) {
			counts := litmus(t, iters,
				func(w *litmusWords) uint64 { rmw(op, &w.x); return hal.LoadAcquireUint64(&w.y) },
				func(w *litmusWords) uint64 { rmw(op, &w.y); return hal.LoadAcquireUint64(&w.x) })
			if n := counts[[2]uint64{0, 0}]; n > 0 {
				t.Errorf("SB with %s: forbidden outcome (0,0) seen %d times in %d", op, n, iters)
			}
		})
	}
}

// rmw stores 1 into a zero word with the named sequentially consistent op
// (fetchand64: a release store of 1, then a fetch-and that keeps it).
func rmw(op string, addr *uint64) {
	switch op {
	case "swap64":
		hal.SwapUint64(addr, 1)
	case "fetchadd64":
		hal.FetchAddUint64(addr, 1)
	case "cas64":
		hal.CompareAndSwapUint64(addr, 0, 1)
	case "fetchor64":
		hal.FetchOrUint64(addr, 1)
	case "fetchand64":
		// And cannot make a 0 into 1: store the 1 (a release store,
		// which alone lets the later load pass it), then a fetch-and
		// that keeps every bit, whose sequential consistency must keep
		// the load after it.
		hal.StoreReleaseUint64(addr, 1)
		hal.FetchAndUint64(addr, ^uint64(0))
	default:
		panic("rmw: " + op)
	}
}

// The same shapes through the 32-bit ops, so both widths are covered.
func TestLitmusMessagePassing32(t *testing.T) {
	iters := litmusIters()
	type words32 struct {
		x uint32
		_ [cacheline.Size - unsafe.Sizeof(uint32(0))%cacheline.Size]byte
		y uint32
		_ [cacheline.Size - unsafe.Sizeof(uint32(0))%cacheline.Size]byte
	}
	ws := make([]words32, iters)
	var idx0, idx1 int
	counts := litmus(t, iters,
		func(*litmusWords) uint64 {
			w := &ws[idx0]
			idx0++
			hal.StoreReleaseUint32(&w.x, 1)
			hal.StoreReleaseUint32(&w.y, 1)
			return 0
		},
		func(*litmusWords) uint64 {
			w := &ws[idx1]
			idx1++
			flag := hal.LoadAcquireUint32(&w.y)
			data := hal.LoadAcquireUint32(&w.x)
			return uint64(flag)<<1 | uint64(data)
		})
	var bad int
	for k, n := range counts {
		if k[1] == 2 { // flag=1, data=0
			bad += n
		}
	}
	if bad > 0 {
		t.Errorf("MP32: forbidden outcome flag=1,data=0 seen %d times in %d", bad, iters)
	}
}
