package percpu

import (
	"strconv"
	"sync"
	"testing"
)

// rwLocker is what the benchmarks need of a reader/writer lock.
type rwLocker interface {
	sync.Locker
	RLock()
	RUnlock()
}

// BenchmarkRWMutex runs reads and writes on one lock from RunParallel's
// goroutines (-cpu sets how many), writes per 1000 operations, against
// sync.RWMutex. halbench's RWLock section is the full comparison.
func BenchmarkRWMutex(b *testing.B) {
	for _, wpm := range []int{0, 1, 10, 100, 500} {
		for _, k := range []struct {
			name string
			new  func() rwLocker
		}{
			{"percpu", func() rwLocker { return new(RWMutex) }},
			{"sync", func() rwLocker { return new(sync.RWMutex) }},
		} {
			b.Run(k.name+"/writes="+strconv.Itoa(wpm), func(b *testing.B) {
				l := k.new()
				var x [16]int64
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						i++
						if wpm > 0 && i%1000 < wpm {
							l.Lock()
							x[0]++
							l.Unlock()
						} else {
							l.RLock()
							_ = x[0]
							l.RUnlock()
						}
					}
				})
			})
		}
	}
}
