package percpu

import (
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
)

// allocated returns the bytes the heap allocator handed out while f ran
// (the smallest of a few runs, so that another goroutine's allocation in
// one run does not count), with the size classes' rounding included.
func allocated(f func()) uint64 {
	best := ^uint64(0)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	return best
}

// The Memory section of RWMutex's documentation gives, at 16 Ps, what
// the per-P lines and the waiting place take on the heap, rounding to the
// allocator's size classes included: 1,176 (2,200 on arm64) and 208
// bytes; and says that readers that park allocate nothing more. This test
// computes them (and logs them on every GOARCH).
func TestRWMutexMemory(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	var rw *RWMutex
	lines := allocated(func() {
		rw = new(RWMutex)
		atomic.StoreUint32(&rw.solo, soloClosed)
	})
	base := lines
	lines = allocated(func() {
		rw = new(RWMutex)
		atomic.StoreUint32(&rw.solo, soloClosed)
		rw.cells.Grow(0)
	}) - base
	ids := len(rw.cells.Load())
	// The waiting place as waitsOf makes it, on a fresh lock each time.
	waits := allocated(func() {
		fresh := new(RWMutex)
		fresh.waitsOf()
	}) - base
	// A write for which a reader parked (the reader parks, the writer
	// admits and wakes it), less the same write beside a goroutine that
	// does not read: what the parking costs.
	write := func(read bool) {
		l := new(RWMutex)
		l.waitsOf()
		l.Lock()
		done := make(chan struct{})
		go func() {
			if read {
				l.RLock()
				l.RUnlock()
			}
			close(done)
		}()
		for read && atomic.LoadInt32(&l.parked) == 0 {
			runtime.Gosched()
		}
		if !read {
			<-done
		}
		l.Unlock()
		<-done
	}
	parked := allocated(func() { write(true) }) - allocated(func() { write(false) })
	t.Logf("RWMutex %d B (struct), per-P lines at %d ids %d B, waiting place %d B, a write with a parked reader %d B more, on %s",
		base, ids, lines, waits, parked, runtime.GOARCH)
	if parked != 0 {
		t.Errorf("a write for which a reader parked allocated %d B; the doc says nothing", parked)
	}
	docLines := map[string]uint64{"amd64": 1176, "arm64": 2200}[runtime.GOARCH]
	if docLines == 0 || ids != 16 {
		return
	}
	if base != 64 || lines != docLines || waits != 208 {
		t.Errorf("on %s at 16 Ps: lock %d B, lines %d B, waiting place %d B; the doc says 64, %d, 208",
			runtime.GOARCH, base, lines, waits, docLines)
	}
}

// TestRWMutexUsedIsNotZero: as the type's documentation says, an unlocked
// lock whose readers overlapped is not a zero RWMutex, and works.
func TestRWMutexUsedIsNotZero(t *testing.T) {
	setSlotsPay(t, true) // readers that overlap close the lane, in every build
	rw := new(RWMutex)
	rw.RLock()
	for range laneCloseAt() {
		rw.RLock() // finds the first: after laneCloseAt() of these, the lane closes
		rw.RUnlock()
	}
	rw.RUnlock()
	rw.Lock()
	rw.Unlock()
	if reflect.DeepEqual(rw, new(RWMutex)) {
		t.Fatal("a used, unlocked RWMutex is DeepEqual to a zero one; the doc says it need not be")
	}
	rw.Lock()
	rw.Unlock()
	rw.RLock()
	rw.RUnlock()
}
