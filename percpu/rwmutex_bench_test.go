package percpu

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// rwLocker is what the benchmarks need of a reader/writer lock.
type rwLocker interface {
	sync.Locker
	RLock()
	RUnlock()
}

// rwBenchKinds are the locks the benchmarks compare.
var rwBenchKinds = []struct {
	name string
	new  func() rwLocker
}{
	{"percpu", func() rwLocker { return new(RWMutex) }},
	{"sync", func() rwLocker { return new(sync.RWMutex) }},
}

// BenchmarkRWMutex runs reads and writes on one lock from RunParallel's
// goroutines (-cpu sets how many), writes per 1000 operations, against
// sync.RWMutex. halbench's RWLock section is the full comparison.
func BenchmarkRWMutex(b *testing.B) {
	for _, wpm := range []int{0, 1, 10, 100, 500} {
		for _, k := range rwBenchKinds {
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
				if rw, ok := l.(*RWMutex); ok && k.name == "percpu" {
					b.ReportMetric(float64(atomic.LoadUint32(&rw.solo)>>31), "closed")
				}
			})
		}
	}
}

// BenchmarkRWMutexWork is the shape of GOROOT's RWMutexWorkWrite10 and
// RWMutexWorkWrite100: each read does 100 steps of work inside the lock,
// each write none, one operation in every 10 or 100 a write. Run at -cpu 2
// it re-measures the turn meter's constants (rwTurnShare in rwwait.go):
// with writes every 10 operations it gains from readers that take turns
// where cache-line transfers are slow, and loses to them where they are
// fast; with writes every 100, it loses wherever they do.
func BenchmarkRWMutexWork(b *testing.B) {
	for _, every := range []int{10, 100} {
		for _, k := range rwBenchKinds {
			b.Run(k.name+"/write-every="+strconv.Itoa(every), func(b *testing.B) {
				l := k.new()
				b.RunParallel(func(pb *testing.PB) {
					foo := 0
					for pb.Next() {
						foo++
						if foo%every == 0 {
							l.Lock()
							l.Unlock()
						} else {
							l.RLock()
							for i := 0; i != 100; i++ {
								foo *= 2
								foo /= 2
							}
							l.RUnlock()
						}
					}
				})
				if rw, ok := l.(*RWMutex); ok && k.name == "percpu" {
					b.ReportMetric(float64(atomic.LoadUint32(&rw.solo)>>31), "closed")
				}
			})
		}
	}
}

// BenchmarkRWMutexRevocation is the first write after a read-only
// stretch on a lock biased toward readers: Lock revokes the bias (the
// heavy fence) and Unlock; between iterations, outside the timer, the bias
// is turned back on. sync.RWMutex's Lock and Unlock are beside it.
func BenchmarkRWMutexRevocation(b *testing.B) {
	b.Run("percpu", func(b *testing.B) {
		if !asymmetric {
			b.Skip("no asymmetric fence here: the lock is never biased")
		}
		rw := new(RWMutex)
		rw.spread()
		for b.Loop() {
			rw.Lock()
			rw.Unlock()
			b.StopTimer()
			rw.until.Store(ticks(monotonic())) // as if the inhibition had passed
			rw.tally = uint32(rw.state.Load() / rwGen)
			rw.tryBias()
			if rw.state.Load()&rwBiased == 0 {
				b.Fatal("the bias did not come back")
			}
			b.StartTimer()
		}
	})
	b.Run("sync", func(b *testing.B) {
		var rw sync.RWMutex
		for b.Loop() {
			rw.Lock()
			rw.Unlock()
		}
	})
}

// BenchmarkRWMutexLane re-measures rwLaneOverlaps and rwLaneOverlapsCheap
// (whichever laneCloseAt chose here): reads and writes with
// no work inside, a write every so many of a goroutine's operations
// (every=0: none), on percpu.RWMutex as it chooses, with each threshold
// (low: rwLaneOverlapsCheap, high: rwLaneOverlaps), kept on the solo lane
// (lane: as where the lane never closes), spread from the start (spread),
// and sync.RWMutex. Where the lane beats spreading, "percpu" should match
// "lane"; where spreading wins, "spread"; run at -cpu 2 and more.
func BenchmarkRWMutexLane(b *testing.B) {
	kinds := []struct {
		name string
		new  func(b *testing.B) rwLocker
	}{
		{"percpu", func(*testing.B) rwLocker { return new(RWMutex) }},
		{"low", func(b *testing.B) rwLocker { setLaneCloseAt(b, rwLaneOverlapsCheap); return new(RWMutex) }},
		{"high", func(b *testing.B) rwLocker { setLaneCloseAt(b, rwLaneOverlaps); return new(RWMutex) }},
		{"lane", func(b *testing.B) rwLocker { setSlotsPay(b, false); return new(RWMutex) }},
		{"spread", func(*testing.B) rwLocker { rw := new(RWMutex); rw.spread(); return rw }},
		{"sync", func(*testing.B) rwLocker { return new(sync.RWMutex) }},
	}
	for _, every := range []int{10, 100, 300, 1000, 10000, 0} {
		for _, k := range kinds {
			b.Run("every="+strconv.Itoa(every)+"/"+k.name, func(b *testing.B) {
				l := k.new(b)
				b.RunParallel(func(pb *testing.PB) {
					n := 0
					for pb.Next() {
						n++
						if every > 0 && n%every == 0 {
							l.Lock()
							l.Unlock()
						} else {
							l.RLock()
							l.RUnlock()
						}
					}
				})
				if rw, ok := l.(*RWMutex); ok && k.name != "lane" && k.name != "spread" {
					b.ReportMetric(float64(atomic.LoadUint32(&rw.solo)>>31), "closed")
				}
			})
		}
	}
}
