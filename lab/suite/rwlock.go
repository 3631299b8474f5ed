package suite

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/percpu"
)

// The RWLock section: percpu.RWMutex against sync.RWMutex (the baseline)
// and sync.Mutex, on 1 to n goroutines sharing one lock, at several write
// shares. Each goroutine's operation i is a write when i mod 1000 is below
// the share, else a read; a write increments the guarded counter, a read
// loads it. As in the Lock section the bodies use concrete types.

// RWLockWrites are the write shares the RWLock section runs, in writes per
// 1000 operations: read-only, 0.1 %, 1 %, 10 %, 50 %, and writes only
// (at 1 goroutine, the uncontended writer). Those above rwLockQuickWrites
// answer no question of the registry, so only -full runs them.
var RWLockWrites = []int{0, 1, 10, 100, 500, 1000}

// rwLockQuickWrites is the largest write share a default run measures.
const rwLockQuickWrites = 100

func init() {
	AddSection(Section{Name: "RWLock", Title: "Reader/writer locks: RLock + read + RUnlock, or Lock + write + Unlock",
		Doc: "writes = writes per 1000 operations on each goroutine; ns/op is wall time per operation over all goroutines. Ratio: against sync.RWMutex at the same threads and writes."})
	addLegends("RWLock", [][2]string{
		{"kind=percpu", "percpu.RWMutex: readers count themselves on per-P lines once readers on many Ps overlap; biased toward readers where a heavy fence (membarrier) reaches every thread"},
		{"kind=rwmutex", "sync.RWMutex, the baseline"},
		{"kind=mutex", "sync.Mutex for reads and writes alike"},
		{"writer=D", "every goroutine reads; one more goroutine writes every D (a timer), the shape of a service's config or feature-flag map"},
		{"writes=N", "N of every 1000 operations are writes (an increment of the guarded counter); the others are reads (a load of it)"},
		{"revoke", "the first write after a read-only stretch: each operation reads for " + RWLockStretch.String() + ", then writes once, beside a goroutine that reads throughout; the difference from sync.RWMutex is what that write costs more (percpu: the revocation of the readers' bias, a heavy fence)"},
	})
	for _, wpm := range RWLockWrites {
		for _, k := range []struct {
			kind string
			body func(int) func(*testing.B, int)
		}{{"percpu", rwPercpu}, {"rwmutex", rwSync}, {"mutex", rwMutex}} {
			Add(Bench{Name: RWLockName(k.kind, 0, wpm), Baseline: RWLockName("rwmutex", 0, wpm), Threaded: k.body(wpm),
				Full: wpm > rwLockQuickWrites})
		}
	}
	for _, period := range RWLockWriters {
		d, err := time.ParseDuration(period)
		if err != nil {
			panic("suite: RWLockWriters: " + err.Error())
		}
		for _, k := range []struct {
			kind string
			lock func() rwLocker
		}{{"percpu", func() rwLocker { return new(percpu.RWMutex) }}, {"rwmutex", func() rwLocker { return new(sync.RWMutex) }},
			{"mutex", func() rwLocker { return rwMutexOnly{new(sync.Mutex)} }}} {
			Add(Bench{Name: RWLockTimerName(k.kind, 0, period), Baseline: RWLockTimerName("rwmutex", 0, period),
				Threaded: rwTimer(d, k.lock)})
		}
	}
	Add(Bench{Name: RWLockRevokeName("percpu"), Baseline: RWLockRevokeName("rwmutex"), F: rwRevokePercpu})
	Add(Bench{Name: RWLockRevokeName("rwmutex"), Baseline: RWLockRevokeName("rwmutex"), F: rwRevokeSync})
}

// RWLockStretch is how long each revoke operation reads before its write.
// It is several times percpu.RWMutex's inhibition after a write (30 times
// a revocation's cost, a few microseconds each), so that the
// readers turn the bias back on before every write.
const RWLockStretch = 300 * time.Microsecond

// RWLockName returns the name of an RWLock benchmark (threads 0 gives the
// threads=* name).
func RWLockName(kind string, threads, wpm int) string {
	n := "RWLock/kind=" + kind + "/" + ThreadsWildcard + "/writes=" + strconv.Itoa(wpm)
	if threads > 0 {
		n = withThreads(n, threads)
	}
	return n
}

// RWLockTimerName returns the name of an RWLock benchmark with one writer
// every period (threads 0 gives the threads=* name).
func RWLockTimerName(kind string, threads int, period string) string {
	n := "RWLock/kind=" + kind + "/" + ThreadsWildcard + "/writer=" + period
	if threads > 0 {
		n = withThreads(n, threads)
	}
	return n
}

// rwLocker is what the timer-writer body needs of a lock. The body calls
// it through this interface, unlike the others: its one writer's cost per
// read is the point, and both kinds pay the same call.
type rwLocker interface {
	sync.Locker
	RLock()
	RUnlock()
}

// rwMutexOnly is a sync.Mutex taken for reads too.
type rwMutexOnly struct{ *sync.Mutex }

func (m rwMutexOnly) RLock()   { m.Lock() }
func (m rwMutexOnly) RUnlock() { m.Unlock() }

// rwTimer returns the body of the service shape: threads goroutines read,
// and one more writes every period until they are done. ns/op is wall
// time per read. The guarded counter must equal the writes made.
func rwTimer(period time.Duration, newLock func() rwLocker) func(*testing.B, int) {
	return func(b *testing.B, threads int) {
		l, x := newLock(), new(guarded)
		stop, done := make(chan struct{}), make(chan int64)
		go func() {
			var n int64
			t := time.NewTicker(period)
			defer t.Stop()
			for {
				select {
				case <-stop:
					done <- n
					return
				case <-t.C:
					l.Lock()
					x.v++
					l.Unlock()
					n++
				}
			}
		}()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			for range n {
				l.RLock()
				_ = x.v
				l.RUnlock()
			}
		})
		close(stop)
		if n := <-done; x.v != n {
			b.Fatalf("%d writes incremented the guarded counter to %d: a writer was not alone", n, x.v)
		}
	}
}

// RWLockRevokeName returns the name of the revoke benchmark of a kind.
func RWLockRevokeName(kind string) string { return "RWLock/kind=" + kind + "/revoke" }

// RunRevoke runs the revoke operations on b: each reads for
// RWLockStretch (by the clock, checked every 64 reads), then writes once,
// while a second goroutine reads throughout. The two readers overlap,
// which is what spreads a percpu.RWMutex and biases it, so that each write
// revokes the bias that the stretch's reads turned back on.
func RunRevoke(b *testing.B, read, write func()) {
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			for range 64 {
				read()
			}
		}
	}()
	m := cyclebench.Start(b)
	for b.Loop() {
		for end := time.Now().Add(RWLockStretch); time.Now().Before(end); {
			for range 64 {
				read()
			}
		}
		write()
	}
	m.Stop()
	stop.Store(true)
	<-done
}

// rwRun runs threads goroutines over one lock; op does operation i of a
// goroutine and reports whether it wrote. It fails b when the guarded
// counter does not equal the number of writes.
func rwRun(b *testing.B, threads int, x *guarded, op func(i int) bool) {
	writes := make([]int64, threads)
	cyclebench.RunLoop(b, threads, func(w, n int) {
		for i := range n {
			if op(i) {
				writes[w]++
			}
		}
	})
	var sum int64
	for _, n := range writes {
		sum += n
	}
	if x.v != sum {
		b.Fatalf("%d writes incremented the guarded counter to %d: a writer was not alone", sum, x.v)
	}
}

func rwMutex(wpm int) func(*testing.B, int) {
	return func(b *testing.B, threads int) {
		l, x := new(paddedMutex), new(guarded)
		rwRun(b, threads, x, func(i int) bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			if i%1000 < wpm {
				x.v++
				return true
			}
			_ = x.v
			return false
		})
	}
}
