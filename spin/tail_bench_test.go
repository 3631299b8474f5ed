package spin

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
)

// BenchmarkTail measures the far tail of lock waits (issue 19.4): 8
// goroutines on GOMAXPROCS 2, each op a Lock, a busy critical section of
// about 50 ns and an Unlock; every wait (Lock's duration, monotonic clock)
// is recorded, and the run reports its p50, p99, p99.9 and max, and how
// many waits lasted 1 ms or more and 32 ms or more, for every lock and
// sync.Mutex in one process.
func BenchmarkTail(b *testing.B) {
	kinds := append([]lockKind{{name: "mutex", new: func() Locker { return new(sync.Mutex) }}}, lockKinds...)
	for _, k := range kinds {
		b.Run("kind="+k.name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			cyclebench.Calibrate()
			const goroutines = 8
			l := k.new()
			per := max(b.N/goroutines, 1)
			waits := make([][]time.Duration, goroutines)
			var wg sync.WaitGroup
			b.ResetTimer()
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := make([]time.Duration, 0, per)
					for range per {
						t0 := time.Now()
						l.Lock()
						w = append(w, time.Since(t0))
						cyclebench.Spin(50)
						l.Unlock()
					}
					waits[g] = w
				}()
			}
			wg.Wait()
			b.StopTimer()
			all := slices.Concat(waits...)
			slices.Sort(all)
			q := func(p float64) float64 { return float64(all[min(int(p*float64(len(all))), len(all)-1)].Nanoseconds()) }
			var ge1, ge32 int
			for _, d := range all {
				if d >= time.Millisecond {
					ge1++
				}
				if d >= 32*time.Millisecond {
					ge32++
				}
			}
			b.ReportMetric(q(0.5), "p50-ns")
			b.ReportMetric(q(0.99), "p99-ns")
			b.ReportMetric(q(0.999), "p99.9-ns")
			b.ReportMetric(float64(all[len(all)-1].Nanoseconds()), "max-ns")
			b.ReportMetric(float64(ge1), "waits>=1ms")
			b.ReportMetric(float64(ge32), "waits>=32ms")
		})
	}
}

// BenchmarkOccasional measures the wait of a goroutine that locks only
// now and then (every 20 µs of its own work) against two that re-lock at
// once, on GOMAXPROCS 2, and reports its median wait (issue 19.4).
func BenchmarkOccasional(b *testing.B) {
	kinds := append([]lockKind{{name: "mutex", new: func() Locker { return new(sync.Mutex) }}}, lockKinds...)
	for _, k := range kinds {
		b.Run("kind="+k.name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			cyclebench.Calibrate()
			l := k.new()
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						for range 64 {
							l.Lock()
							cyclebench.Spin(50)
							l.Unlock()
						}
					}
				}()
			}
			n := max(b.N/1000, 200)
			waits := make([]time.Duration, 0, n)
			b.ResetTimer()
			for range n {
				cyclebench.Spin(20000)
				t0 := time.Now()
				l.Lock()
				waits = append(waits, time.Since(t0))
				l.Unlock()
			}
			b.StopTimer()
			close(stop)
			wg.Wait()
			slices.Sort(waits)
			b.ReportMetric(float64(waits[len(waits)/2].Nanoseconds()), "occasional-p50-ns")
		})
	}
}
