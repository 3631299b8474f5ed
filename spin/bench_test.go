package spin

import (
	"fmt"
	"testing"

	"github.com/gohal/gohal/internal/cyclebench"
)

// BenchmarkLock measures Lock + critical section + Unlock for every lock
// and sync.Mutex, on 1, 2, 4 and 8 goroutines, with an empty critical
// section and a busy one of about 50 ns. ns/op and cycles/op are wall-clock
// time over all acquisitions (the inverse of throughput);
// fairness-stddev% is how unevenly the goroutines had progressed when the
// first finished its share.
func BenchmarkLock(b *testing.B) {
	cyclebench.Calibrate()
	for _, k := range append(lockKinds[:len(lockKinds):len(lockKinds)], baseline) {
		for _, threads := range []int{1, 2, 4, 8} {
			for _, cs := range []int{0, 50} {
				name := fmt.Sprintf("kind=%s/threads=%d/cs=%d", k.name, threads, cs)
				b.Run(name, func(b *testing.B) {
					l := k.new()
					r := cyclebench.Run(b, threads, func(int) {
						l.Lock()
						cyclebench.Spin(cs)
						l.Unlock()
					})
					r.ReportFairness(b)
				})
			}
		}
	}
}
