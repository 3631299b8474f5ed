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

// The Memory section of RWMutex's documentation gives, at 16 Ps,
// what the per-P lines and the wake channel take on the heap, rounding to
// the allocator's size classes included: 1,176 (2,200 on arm64) and 120
// bytes. This test computes both (and logs them on every GOARCH).
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
	// The wake channel as waitReaders makes it: a buffered channel and
	// the pointer the lock stores.
	var keep *chan struct{}
	wake := allocated(func() {
		c := make(chan struct{}, 1)
		keep = &c
	})
	_ = keep
	t.Logf("RWMutex %d B (struct), per-P lines at %d ids %d B, wake channel %d B, on %s",
		base, len(rw.cells.Load()), lines, wake, runtime.GOARCH)
	docLines := map[string]uint64{"amd64": 1176, "arm64": 2200}[runtime.GOARCH]
	if docLines == 0 || len(rw.cells.Load()) != 16 {
		return
	}
	if base != 64 || lines != docLines || wake != 120 {
		t.Errorf("on %s at 16 Ps: lock %d B, lines %d B, wake channel %d B; the doc says 64, %d, 120", runtime.GOARCH, base, lines, wake, docLines)
	}
}

// TestRWMutexUsedIsNotZero: as the type's documentation says, an unlocked
// lock whose readers overlapped is not a zero RWMutex, and works.
func TestRWMutexUsedIsNotZero(t *testing.T) {
	rw := new(RWMutex)
	rw.RLock()
	rw.RLock() // the second reader finds the first: the lane closes
	rw.RUnlock()
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
