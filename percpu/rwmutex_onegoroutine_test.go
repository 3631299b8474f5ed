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
// kind=percpu or sync; writes=0 reads only, writes=10 makes every 10th
// operation a Lock and Unlock. One goroutine's reads never overlap, so
// percpu's lock stays on its solo lane. Both kinds run the same loop and
// its same branches.
func BenchmarkRWMutexOneGoroutine(b *testing.B) {
	for _, every := range []int{0, 10} {
		for _, kind := range []string{"percpu", "sync"} {
			name := "kind=" + kind + "/writes=0"
			if every > 0 {
				name = "kind=" + kind + "/writes=10"
			}
			b.Run(name, func(b *testing.B) {
				var p percpu.RWMutex
				var s sync.RWMutex
				onPercpu := kind == "percpu"
				m := cyclebench.Start(b)
				for i := 0; b.Loop(); i++ {
					write := every > 0 && i%every == 0
					switch {
					case onPercpu && write:
						p.Lock()
						p.Unlock()
					case onPercpu:
						p.RLock()
						p.RUnlock()
					case write:
						s.Lock()
						s.Unlock()
					default:
						s.RLock()
						s.RUnlock()
					}
				}
				m.Stop()
			})
		}
	}
}
