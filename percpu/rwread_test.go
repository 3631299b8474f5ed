package percpu

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/pin"
)

// TestPinlessReadPath: where the build has the pinless read path, init
// turned it on, and the P id its assembly reads is procPin's, checked on
// goroutines that outnumber the Ps and yield, so that they move between
// Ps and Ms.
func TestPinlessReadPath(t *testing.T) {
	if !pinlessBuild {
		t.Skip("this build has no pinless read path (gen/rwread)")
	}
	if !pinless {
		t.Fatal("the pinless read path is built but pinlessAgrees refused it: the runtime's g.m.p.id is not at gen/rwread's Layout offsets")
	}
	procs := 2 * max(runtime.NumCPU(), 2)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	var wg sync.WaitGroup
	var bad atomic.Value
	for range 2 * procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				id := pin.ProcPin()
				got := procID()
				pin.ProcUnpin()
				if got != id {
					bad.CompareAndSwap(nil, fmt.Sprintf("procID %d, procPin %d", got, id))
				}
				if n := procID(); n < 0 || n >= procs {
					bad.CompareAndSwap(nil, fmt.Sprintf("procID %d outside [0, %d)", n, procs))
				}
				if i%64 == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	if s := bad.Load(); s != nil {
		t.Fatal(s)
	}
}

// TestRWMutexCountsOnOwnLine: a spread reader counts in and out on the
// line of the P it runs on, with the bias and without (the locked add),
// whichever read path the build has. The test holds the P (procPin) so
// that it knows which line that is; neither call waits, as no writer is
// there.
func TestRWMutexCountsOnOwnLine(t *testing.T) {
	forMode(t, func(t *testing.T, newLock func() *RWMutex) {
		rw := newLock()
		if rw.cells.Load() == nil {
			t.Skip("no per-P lines in this mode")
		}
		id := pin.ProcPin()
		rw.RLock()
		c := rw.cells.Load()[id].rwCounts
		rw.RUnlock()
		after := rw.cells.Load()[id].rwCounts
		pin.ProcUnpin()
		if c.locks != 1 || c.unlocks != 0 || after.locks != 1 || after.unlocks != 1 {
			t.Fatalf("P %d's line after RLock %+v, after RUnlock %+v; want {1 0} and {1 1}", id, c, after)
		}
	})
}

// TestRWMutexPinlessOff: with the assembly's gate off, as pinlessAgrees
// leaves it on a runtime whose layout it does not know, every call of the
// assembly goes on to the Go path, and the lock still excludes in every
// mode.
func TestRWMutexPinlessOff(t *testing.T) {
	if !pinlessBuild {
		t.Skip("this build has no pinless read path (gen/rwread)")
	}
	setPinless(t, false)
	forMode(t, func(t *testing.T, newLock func() *RWMutex) {
		for _, c := range [][2]int{{1, 3}, {4, 3}, {10, 10}} {
			hammerRW(t, newLock(), c[0], c[1], 300)
		}
	})
}

// TestRWMutexTableLayout: the assembly reads the per-P lines through
// rw.cells' first word, the pointer to the slice that cells.Load returns
// (pin.Table's atomic.Pointer); this holds it to that.
func TestRWMutexTableLayout(t *testing.T) {
	rw := new(RWMutex)
	rw.spread()
	p := *(**[]*rwCell)(unsafe.Pointer(&rw.cells))
	cs := rw.cells.Load()
	if p == nil || len(*p) != len(cs) || &(*p)[0] != &cs[0] {
		t.Fatalf("rw.cells' first word is not the pointer to the slice of per-P lines")
	}
}

// TestRWMutexFollowsFenceLight: the byte the assembly tests before a
// biased reader counts without a fence is hal.FenceLight's own, so it
// follows haltool.Force: 0 under the portable fence pair (FenceLight then
// fences, and so must the reader: the assembly takes the locked count),
// and back when the pair is restored.
func TestRWMutexFollowsFenceLight(t *testing.T) {
	if halFenceLight == nil {
		t.Fatal("hal did not publish FenceLight's byte (internal/fencelight)")
	}
	before := *halFenceLight
	restore, err := haltool.Force(fencePairOp, "portable")
	if err != nil {
		t.Fatalf("haltool.Force(%q, portable): %v", fencePairOp, err)
	}
	forced := *halFenceLight
	restore()
	if forced != 0 || *halFenceLight != before {
		t.Fatalf("FenceLight's byte: %d, %d under the portable pair, %d restored; want %d, 0, %d", before, forced, *halFenceLight, before, before)
	}
	if realAsymmetric && before == 0 {
		t.Fatal("the pair is asymmetric but FenceLight's byte says it fences")
	}
}

// TestRWMutexNoBiasWithoutReach: while FenceLight's byte is 0 (here under
// haltool.Force's portable pair; for good after hal degrades the pair), a
// spreading lock does not bias; with the pair restored, a fresh lock
// biases again.
func TestRWMutexNoBiasWithoutReach(t *testing.T) {
	if !asymmetric {
		t.Skip("hal's heavy fence is not asymmetric here: no lock biases")
	}
	spreadBiased := func() bool {
		rw := new(RWMutex)
		atomic.StoreUint32(&rw.solo, soloClosed)
		rw.spread()
		return rw.state.Load()&rwBiased != 0
	}
	restore, err := haltool.Force(fencePairOp, "portable")
	if err != nil {
		t.Fatalf("haltool.Force(%q, portable): %v", fencePairOp, err)
	}
	biased := spreadBiased()
	restore()
	if biased {
		t.Error("under the portable pair: a spread lock biased")
	}
	if !spreadBiased() {
		t.Error("with the pair restored, a fresh lock's spread did not bias it")
	}
}
