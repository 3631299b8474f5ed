package refcount

import (
	"fmt"
	"testing"

	"github.com/gohal/gohal/internal/cyclebench"
)

// BenchmarkRefcount measures one Inc of a shared count, for the plain and
// checked counters, inlined (sync/atomic) and through hal calls: the table
// of Linux's refcount_t work (plain atomic vs checked call vs checked
// inline), uncontended (threads=1) and contended. The operation is
// written inline in the measuring loop, so the harness adds no call per
// operation.
func BenchmarkRefcount(b *testing.B) {
	for _, threads := range []int{1, 2, 4, 8} {
		bench := func(name string, f func(b *testing.B, threads int)) {
			b.Run(fmt.Sprintf("kind=%s/threads=%d", name, threads), func(b *testing.B) { f(b, threads) })
		}
		bench("plain", func(b *testing.B, threads int) {
			var c Plain
			c.Set(1)
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Inc()
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Inc()
				}
			})
		})
		bench("plain-hal", func(b *testing.B, threads int) {
			var c PlainHal
			c.Set(1)
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Inc()
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Inc()
				}
			})
		})
		bench("checked", func(b *testing.B, threads int) {
			var c Count
			c.Set(1)
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Inc()
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Inc()
				}
			})
		})
		bench("checked-hal", func(b *testing.B, threads int) {
			var c CountHal
			c.Set(1)
			if threads == 1 {
				m := cyclebench.Start(b)
				for b.Loop() {
					c.Inc()
				}
				m.Stop()
				return
			}
			cyclebench.RunLoop(b, threads, func(_, n int) {
				for range n {
					c.Inc()
				}
			})
		})
	}
}
