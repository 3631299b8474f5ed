package percpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRWMutexReaderBeforeNextWriter asserts the turn itself: a reader
// that parked during a write is in before the next writer. That holds
// even for a writer that is running when the first releases (here the same
// goroutine, which takes the lock again at once). Before readers were
// admitted by the releasing writer, that writer retook the writers' mutex
// ahead of the reader it had just woken there.
func TestRWMutexReaderBeforeNextWriter(t *testing.T) {
	forMode(t, func(t *testing.T, newLock func() *RWMutex) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.NumCPU(), 2)))
		for range 20 {
			rw := newLock()
			rw.Lock()
			var in atomic.Bool
			done := make(chan struct{})
			go func() {
				defer close(done)
				rw.RLock()
				in.Store(true)
				rw.RUnlock()
			}()
			for parkedReaders(rw) == 0 { // the reader spins first, then parks
				runtime.Gosched()
			}
			rw.Unlock()
			rw.Lock() // the next writer, already running
			if !in.Load() {
				t.Fatal("a writer got the lock before the reader that waited for the previous writer")
			}
			rw.Unlock()
			<-done
		}
	})
}

// TestRWMutexReaderBesideWriters is the review's shape: one reader beside
// four writers that each hold the lock for a while, back to back. Every
// writer that leaves with the reader parked must let it in before the
// next writer: the next writer to get the lock checks that the reader has
// been in since. The reader must also finish its reads while the writers
// keep writing (a starving reader hangs the test; go test's timeout fails
// it).
func TestRWMutexReaderBesideWriters(t *testing.T) {
	reads := 2000
	if testing.Short() {
		reads = 200
	}
	forMode(t, func(t *testing.T, newLock func() *RWMutex) {
		for _, procs := range []int{2, 4} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				rw := newLock()
				var entries atomic.Int64 // the reader's critical sections so far
				mustPass := int64(-1)    // under the write lock: entries the next writer must see above
				var stop atomic.Bool
				var bad atomic.Value
				var wg sync.WaitGroup
				for range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for !stop.Load() {
							rw.Lock()
							if mustPass >= 0 && entries.Load() <= mustPass {
								bad.CompareAndSwap(nil, "a writer got the lock before the reader its predecessor left parked")
							}
							mustPass = -1
							for range 2000 { // hold it, as the review's writers held 20 µs
								if stop.Load() {
									break
								}
							}
							// The only reader is parked for this writer's
							// flag: release admits it (parked does not go
							// down while the flag is up).
							if parkedReaders(rw) > 0 {
								mustPass = entries.Load()
							}
							rw.Unlock()
						}
					}()
				}
				for range reads {
					rw.RLock()
					entries.Add(1)
					rw.RUnlock()
				}
				stop.Store(true)
				wg.Wait()
				if s := bad.Load(); s != nil {
					t.Fatalf("GOMAXPROCS %d: %v", procs, s)
				}
			}()
		}
	})
}

// parkedReaders returns how many readers are parked for the writer whose
// flag is up: the lock's parked, read under waits.mu. A reader counts
// itself parked and then looks at the flag within one hold of that mutex
// ([R-park]), and backs out if the flag is down; read without the mutex,
// parked could show a reader that has not looked yet, which a writer
// releasing at that moment does not admit (it has not parked, so it has no
// turn to take).
func parkedReaders(rw *RWMutex) int32 {
	ws := rw.waits.Load()
	if ws == nil {
		return 0
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return atomic.LoadInt32(&rw.parked)
}
