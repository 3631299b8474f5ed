// Package cyclebench is the measuring harness shared by gohal's benchmark
// suites.
//
// It runs an operation on a chosen number of goroutines released together by
// a start barrier, reports the cost of one operation in [hal.Cycles] units
// as the "cycles/op" metric, measures how evenly the goroutines progressed,
// and provides a calibrated busy-wait that stands in for a critical section
// of a given length.
//
// A benchmark that runs on n goroutines does exactly b.N operations in
// total, b.N/n per goroutine (the first b.N%n goroutines do one more), so
// ns/op and cycles/op are both wall-clock time divided by the total number
// of operations: the inverse of throughput.
//
// The two entry points differ in how the operation is called:
//
//   - [RunLoop] hands each goroutine its whole share at once, loop(worker,
//     n), so the operation can be written inline in a plain for loop and the
//     harness adds nothing per operation.
//   - [Start] and [Meter.Stop] bracket a benchmark's own `for b.Loop()`
//     loop, for single-goroutine measurements of inlined operations.
//
// RunLoop always starts its workers behind the barrier, even one.
//
// # Cycles
//
// cycles/op counts ticks of [hal.Cycles], whose rate is
// [hal.CycleFrequency]: on amd64 the TSC (which ticks at a fixed nominal
// rate, close to but not the same as the core clock), on arm64 the generic
// timer, and in hal's portable build nanoseconds.
package cyclebench

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Unit names of the metrics this package reports, for use with
// testing.B.ReportMetric and in benchstat tables.
const (
	// CyclesUnit is the metric [RunLoop] and [Meter.Stop] report:
	// hal.Cycles ticks per operation.
	CyclesUnit = "cycles/op"
	// FairnessUnit is the metric for the relative standard deviation of
	// per-goroutine progress, in percent ([RelStddev]), which the suite's
	// lock benchmarks report.
	FairnessUnit = "fairness-stddev%"
)

// Result is one measured run.
type Result struct {
	// Threads is the number of goroutines that ran the operation.
	Threads int
	// Ops is the total number of operations measured (b.N).
	Ops int
	// Ticks is the number of hal.Cycles ticks between the release of the
	// start barrier and the end of the last goroutine's share.
	Ticks uint64
}

// CyclesPerOp returns Ticks divided by Ops, or 0 for an empty run.
func (r *Result) CyclesPerOp() float64 {
	if r.Ops == 0 {
		return 0
	}
	return float64(r.Ticks) / float64(r.Ops)
}

// MaxRelStddev returns the largest value [RelStddev] takes for k
// non-negative values: 100·√(k−1), reached when one value holds the
// whole sum and the others are 0. 0 for k < 2.
//
// As a fairness figure (the per-goroutine progress when the first
// goroutine finished), the maximum means one goroutine did its whole
// share before any other completed an operation. The figure is a property
// of one run, not of the lock alone. A lock the releasing goroutine can
// take again at once (test-and-set, TTAS, sync.Mutex until a waiter has
// waited 1 ms) lets one goroutine do its whole share when the share is
// short, and with more goroutines than CPUs free to run them the figure
// shows which were scheduled first: with shares of a millisecond or less
// most locks read the maximum. It is stable only for shares well over
// Go's 10 ms time slice with a CPU per goroutine.
func MaxRelStddev(k int) float64 {
	if k < 2 {
		return 0
	}
	return 100 * math.Sqrt(float64(k-1))
}

// RelStddev returns the population standard deviation of xs as a
// percentage of their mean; 0 for fewer than two values or a zero mean.
func RelStddev(xs []int) float64 {
	if len(xs) < 2 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	mean := sum / float64(len(xs))
	if mean == 0 {
		return 0
	}
	var ss float64
	for _, x := range xs {
		d := float64(x) - mean
		ss += d * d
	}
	return math.Sqrt(ss/float64(len(xs))) / mean * 100
}

// Share returns how many of total operations worker w of threads does: the
// total split as evenly as possible, the first total%threads workers doing
// one more.
func Share(total, threads, w int) int {
	n := total / threads
	if w < total%threads {
		n++
	}
	return n
}

// RunLoop measures b.N operations in total by threads goroutines behind a
// start barrier: it calls loop(worker, n) once per goroutine, on that
// goroutine, with worker from 0 to threads-1 and the number of operations
// n it must perform, so the operation can be inlined into the caller's
// loop. It reports the "cycles/op" metric on b and returns the
// measurement. With threads == 1 the one worker also runs on its own
// goroutine behind the barrier, so the harness is the same at every
// thread count. RunLoop panics if threads < 1.
func RunLoop(b *testing.B, threads int, loop func(worker, n int)) *Result {
	if threads < 1 {
		panic("cyclebench: threads < 1")
	}
	return runWorkers(b, threads, loop)
}

type paddedUint64 struct {
	v uint64
	_ [cacheline.Size - unsafe.Sizeof(uint64(0))%cacheline.Size]byte
}

// runWorkers starts threads goroutines, waits until all are ready, resets
// the timer, releases them together and waits for the last one. Each
// goroutine records the hal.Cycles value at which it finished; the run
// ends at the latest of them.
func runWorkers(b *testing.B, threads int, work func(w, n int)) *Result {
	var (
		ready atomic.Int32
		start atomic.Bool
		wg    sync.WaitGroup
		ends  = make([]paddedUint64, threads)
	)
	total := b.N
	for w := range threads {
		n := Share(total, threads, w)
		wg.Go(func() {
			ready.Add(1)
			for !start.Load() {
				runtime.Gosched()
			}
			work(w, n)
			ends[w].v = hal.Cycles()
		})
	}
	for ready.Load() < int32(threads) {
		runtime.Gosched()
	}
	b.ResetTimer()
	c0 := hal.Cycles()
	start.Store(true)
	wg.Wait()
	b.StopTimer()
	var c1 uint64
	for i := range ends {
		c1 = max(c1, ends[i].v)
	}
	r := &Result{Threads: threads, Ops: total, Ticks: c1 - c0}
	b.ReportMetric(r.CyclesPerOp(), CyclesUnit)
	return r
}

// Meter brackets a benchmark's own single-goroutine `for b.Loop()` loop:
//
//	m := cyclebench.Start(b)
//	for b.Loop() {
//		c.Inc()
//	}
//	m.Stop()
type Meter struct {
	b  *testing.B
	c0 uint64
	t0 time.Time
}

// Start begins a measurement on b. Call it just before the `for b.Loop()`
// loop.
func Start(b *testing.B) Meter {
	c0 := hal.Cycles()
	return Meter{b: b, c0: c0, t0: time.Now()}
}

// Stop ends the measurement begun by [Start], just after the loop,
// reports the "cycles/op" metric over b.N operations and returns the
// measurement.
//
// The ticks are counted over the interval b's timer measured: b.Loop's
// first and last calls, between Start and Stop, also reset and stop the
// timer, each reading the memory statistics (a stop-the-world pause of
// tens of microseconds on a quiet machine, milliseconds on a loaded one,
// which made cycles/op read up to 1.3 times ns/op in short runs). Stop
// scales the ticks between Start and Stop by the share of that wall time
// the timer counted: the counter ticks at a constant rate, so this is the
// tick count of the timed part (and never negative or zero, however short
// the run).
func (m Meter) Stop() *Result {
	c1 := hal.Cycles()
	total, timed := time.Since(m.t0), m.b.Elapsed()
	ticks := c1 - m.c0
	if timed > 0 && timed < total {
		ticks = uint64(float64(ticks) * float64(timed) / float64(total))
	}
	r := &Result{Threads: 1, Ops: m.b.N, Ticks: ticks}
	m.b.ReportMetric(r.CyclesPerOp(), CyclesUnit)
	return r
}

// Tally is a set of per-goroutine counters on separate cache lines, for
// extra metrics such as retries per operation: each goroutine adds to its
// own slot without contending with the others.
type Tally struct {
	slots []paddedUint64
}

// NewTally returns a Tally with one slot per goroutine.
func NewTally(threads int) *Tally {
	return &Tally{slots: make([]paddedUint64, threads)}
}

// Add adds v to worker's slot. Only worker's own goroutine may call it
// while the measurement runs.
func (t *Tally) Add(worker int, v uint64) { t.slots[worker].v += v }

// Sum returns the total over all slots. Call it after the run.
func (t *Tally) Sum() uint64 {
	var s uint64
	for i := range t.slots {
		s += t.slots[i].v
	}
	return s
}

// Report reports Sum()/b.N on b as the metric unit, for example
// "retries/op".
func (t *Tally) Report(b *testing.B, unit string) {
	if b.N > 0 {
		b.ReportMetric(float64(t.Sum())/float64(b.N), unit)
	}
}
