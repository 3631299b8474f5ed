package counter

import (
	"fmt"
	"testing"

	"github.com/gohal/gohal/internal/cyclebench"
)

// BenchmarkCounter measures Add(1) on one shared counter from 1, 2, 4 and
// 8 goroutines: the lock-free CAS loop (with its failed attempts as
// retries/op), the wait-free fetch-and-add, the striped counter, and two
// baselines, a sync.Mutex-protected int64 and an inlined sync/atomic add.
// The operation is written inline in the measuring loop.
func BenchmarkCounter(b *testing.B) {
	for _, threads := range []int{1, 2, 4, 8} {
		name := func(k string) string { return fmt.Sprintf("kind=%s/threads=%d", k, threads) }
		b.Run(name("casloop"), func(b *testing.B) {
			var c CASLoop
			tally := cyclebench.NewTally(threads)
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					tally.Add(0, uint64(c.AddRetries(1)))
				}
				m.Stop()
			} else {
				cyclebench.RunLoop(b, threads, func(w, n int) {
					r := 0
					for range n {
						r += c.AddRetries(1)
					}
					tally.Add(w, uint64(r))
				})
			}
			tally.Report(b, "retries/op")
		})
		b.Run(name("fetchadd"), func(b *testing.B) {
			var c FetchAdd
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Add(1)
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Add(1)
				}
			})
		})
		b.Run(name("striped"), func(b *testing.B) {
			var c Striped
			c.Add(0) // allocate the stripes outside the measurement
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Add(1)
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Add(1)
				}
			})
		})
		b.Run(name("mutex"), func(b *testing.B) {
			var c mutexCounter
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Add(1)
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Add(1)
				}
			})
		})
		b.Run(name("atomic"), func(b *testing.B) {
			var c atomicCounter
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Add(1)
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Add(1)
				}
			})
		})
	}
}
