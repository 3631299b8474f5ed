package percpu

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
)

// TestFenceSB is the store-buffering litmus test of the fence pair: one
// goroutine stores x, runs fenceLight and loads y; the other stores y,
// runs fenceHeavy and loads x. Both loads returning 0 would let a reader
// and a writer each miss the other, which RWMutex's exclusion rests on.
func TestFenceSB(t *testing.T) {
	t.Logf("asymmetric %v: %s", asymmetric, asymmetricWhy)
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs to run both sides at once")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	iters := 20000
	if testing.Short() {
		iters = 2000
	}
	var x, y uint64
	var go1, go2, done atomic.Uint32
	r1 := make([]uint64, iters)
	r2 := make([]uint64, iters)
	finished := make(chan struct{})
	go func() { // the writer's side
		defer close(finished)
		for i := range iters {
			for go2.Load() != uint32(i+1) {
			}
			hal.StoreReleaseUint64(&y, 1)
			fenceHeavy()
			r2[i] = hal.LoadAcquireUint64(&x)
			done.Add(1)
		}
	}()
	for i := range iters { // the reader's side
		hal.StoreReleaseUint64(&x, 0)
		hal.StoreReleaseUint64(&y, 0)
		go1.Store(uint32(i + 1))
		go2.Store(uint32(i + 1))
		hal.StoreReleaseUint64(&x, 1)
		fenceLight()
		r1[i] = hal.LoadAcquireUint64(&y)
		for done.Load() != uint32(i+1) {
		}
	}
	<-finished
	for i := range iters {
		if r1[i] == 0 && r2[i] == 0 {
			t.Fatalf("iteration %d: both loads returned 0 (store buffering not prevented)", i)
		}
	}
}
