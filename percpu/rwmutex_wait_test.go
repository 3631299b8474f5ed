package percpu

import (
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRWMutexWait measures how long RLock and Lock wait, beside
// sync.RWMutex in the same run. It runs under continuous writers
// (shape=writers: g writers each hold the lock rwWaitHold, back to back,
// beside one reader that reads again at once) and under continuous readers
// (shape=readers: g readers each hold it rwWaitHold, beside one writer
// that writes again at once): the reviews' shapes for issue 40's turn
// taking. Each b.N is a window of rwWaitWindow. It reports reader and
// writer wait p50 and p99 (ns) and reads and writes done per second.
// Compare the kinds with benchstat over interleaved runs, e.g.
//
//	for i in 1 2 3 4 5 6; do go test -run '^$' -bench RWMutexWait -benchtime 1x ./percpu/; done
func BenchmarkRWMutexWait(b *testing.B) {
	for _, shape := range []string{"writers", "readers"} {
		for _, g := range []int{2, 4, 8} {
			for _, k := range []struct {
				name string
				new  func() rwLocker
			}{
				{"percpu", func() rwLocker { return new(RWMutex) }},
				{"sync", func() rwLocker { return new(sync.RWMutex) }},
			} {
				b.Run("shape="+shape+"/g="+strconv.Itoa(g)+"/lock="+k.name, func(b *testing.B) {
					var r, w waitSamples
					for range b.N {
						rwWaitWindow1(k.new(), shape == "writers", g, &r, &w)
					}
					secs := float64(b.N) * rwWaitWindow.Seconds()
					b.ReportMetric(r.quantile(0.5), "r-p50-ns")
					b.ReportMetric(r.quantile(0.99), "r-p99-ns")
					b.ReportMetric(w.quantile(0.5), "w-p50-ns")
					b.ReportMetric(w.quantile(0.99), "w-p99-ns")
					b.ReportMetric(float64(r.n)/secs, "reads/s")
					b.ReportMetric(float64(w.n)/secs, "writes/s")
					b.ReportMetric(0, "ns/op")
				})
			}
		}
	}
}

const (
	rwWaitWindow = 100 * time.Millisecond
	rwWaitHold   = 20 * time.Microsecond
	rwWaitKeep   = 1 << 16 // samples kept per side per window (the rest are counted)
)

// waitSamples collects one side's waits: every wait is counted; the first
// rwWaitKeep of each goroutine per window are kept for the quantiles.
type waitSamples struct {
	mu      sync.Mutex
	samples []time.Duration
	n       int
}

func (s *waitSamples) add(ws []time.Duration, n int) {
	s.mu.Lock()
	s.samples = append(s.samples, ws...)
	s.n += n
	s.mu.Unlock()
}

// quantile returns the q-quantile in ns, a wait under 1 µs counted as 1 µs
// (issue 40's rule for comparing the kinds).
func (s *waitSamples) quantile(q float64) float64 {
	if len(s.samples) == 0 {
		return 0
	}
	slices.Sort(s.samples)
	v := s.samples[min(int(q*float64(len(s.samples))), len(s.samples)-1)]
	return float64(max(v, time.Microsecond))
}

// rwWaitWindow1 runs one window on l: g goroutines of the continuous side
// and one of the other, each recording its waits into r (RLock) or w
// (Lock).
func rwWaitWindow1(l rwLocker, writers bool, g int, r, w *waitSamples) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	run := func(write bool, hold time.Duration) {
		defer wg.Done()
		ws := make([]time.Duration, 0, rwWaitKeep)
		n := 0
		for !stop.Load() {
			t0 := time.Now()
			if write {
				l.Lock()
			} else {
				l.RLock()
			}
			d := time.Since(t0)
			if hold > 0 {
				for time.Since(t0) < d+hold {
				}
			}
			if write {
				l.Unlock()
			} else {
				l.RUnlock()
			}
			n++
			if len(ws) < cap(ws) {
				ws = append(ws, d)
			}
		}
		if write {
			w.add(ws, n)
		} else {
			r.add(ws, n)
		}
	}
	for range g {
		wg.Add(1)
		go run(writers, rwWaitHold)
	}
	wg.Add(1)
	go run(!writers, 0)
	time.Sleep(rwWaitWindow)
	stop.Store(true)
	wg.Wait()
}
