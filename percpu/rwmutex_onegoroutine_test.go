package percpu_test

import (
	"sync"
	"testing"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/percpu"
)

// BenchmarkRWMutexOneGoroutine (ns/op and cycles/op) is one goroutine's
// RLock and RUnlock, called directly as a user writes them, so that each
// lock's fast path inlines where it can, against sync.RWMutex. Names:
// kind=percpu or sync; writes=0 reads only (a fresh percpu lock spreads
// after rwLaneReads reads where laneSpreads says so), writes=10 makes
// every 10th operation a Lock and Unlock, which keeps percpu's lock on
// its solo lane.
func BenchmarkRWMutexOneGoroutine(b *testing.B) {
	for _, every := range []int{0, 10} {
		suffix := "/writes=0"
		if every > 0 {
			suffix = "/writes=10"
		}
		b.Run("kind=percpu"+suffix, func(b *testing.B) {
			var rw percpu.RWMutex
			m := cyclebench.Start(b)
			for i := 0; b.Loop(); i++ {
				if every > 0 && i%every == 0 {
					rw.Lock()
					rw.Unlock()
					continue
				}
				rw.RLock()
				rw.RUnlock()
			}
			m.Stop()
		})
		b.Run("kind=sync"+suffix, func(b *testing.B) {
			var rw sync.RWMutex
			m := cyclebench.Start(b)
			for i := 0; b.Loop(); i++ {
				if every > 0 && i%every == 0 {
					rw.Lock()
					rw.Unlock()
					continue
				}
				rw.RLock()
				rw.RUnlock()
			}
			m.Stop()
		})
	}
}
