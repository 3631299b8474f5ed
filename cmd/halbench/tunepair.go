package main

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/lab/cyclebench"
)

// fencePairPeriod is the heavy side's period in the workload tune judges
// the fence pair on: the rate of the service shape's most frequent write.
const fencePairPeriod = time.Millisecond

// fencePairBody is the workload the asymmetric fence pair exists for, the
// light side hot and the heavy side at a stated rate: each of threads
// goroutines stores to its own word, runs hal.FenceLight and loads a word
// the heavy side writes (a biased reader's path), while one more goroutine
// stores that word and runs hal.FenceHeavy every period (a revoking
// writer's). ns/op is wall time per light-side operation, so the heavy
// side's cost to the readers (an interrupt on every CPU running the
// process, for membarrier) is in it.
func fencePairBody(threads int, period time.Duration) func(*testing.B) {
	return func(b *testing.B) {
		type slot struct {
			v uint64
			_ [cacheline.Size - unsafe.Sizeof(uint64(0))%cacheline.Size]byte
		}
		slots := make([]slot, threads)
		flag := new(slot)
		var stop atomic.Bool
		var wg sync.WaitGroup
		wg.Go(func() {
			t := time.NewTicker(period)
			defer t.Stop()
			for i := uint64(1); !stop.Load(); i++ {
				<-t.C
				hal.StoreReleaseUint64(&flag.v, i)
				hal.FenceHeavy()
			}
		})
		cyclebench.RunLoop(b, threads, func(w, n int) {
			s := &slots[w]
			var seen uint64
			for i := range n {
				hal.StoreReleaseUint64(&s.v, uint64(i))
				hal.FenceLight()
				seen += hal.LoadAcquireUint64(&flag.v)
			}
			tuneSink.Add(seen)
		})
		stop.Store(true)
		wg.Wait()
	}
}
