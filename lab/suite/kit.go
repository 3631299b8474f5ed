package suite

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/counter"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/spin"
)

// The kit's benchmarks: spin locks against sync.Mutex, the refcounts and
// the counters, each on 1 to n goroutines sharing one object. The bodies
// use concrete types, never an interface or a generic type parameter, so
// that Lock, Inc and Add are called (and inlined) exactly as a user's
// code would call them.

// LockCS are the critical-section lengths, in nanoseconds of
// cyclebench.Spin, the lock benchmarks run with.
var LockCS = []int{0, 50}

func init() {
	addLegends("Lock", [][2]string{
		{"kind=tas", "test-and-set: CAS until it wins"},
		{"kind=ttas", "test-and-test-and-set: read, pause, CAS when free"},
		{"kind=asm", "TTAS whose acquire loop is assembly (hal.SpinLockUint32, in calls of a few pauses)"},
		{"kind=backoff", "TTAS with bounded exponential backoff"},
		{"kind=ticket", "ticket lock, FIFO among spinning waiters; passes over parked ones"},
		{"kind=mcs", "Mellor-Crummey-Scott queue lock, FIFO among spinning waiters; passes over parked ones"},
		{PassedOverUnit, "how often a releaser passed over a waiter that had left the line (parked), per acquisition"},
		{"kind=mutex", "sync.Mutex, the baseline"},
		{"cs=N", "critical section: an increment of the guarded counter (on its own cache line), then about N ns of busy work"},
	})
	addLegends("Handover", [][2]string{
		{"kind=turn", "strict turns through one cache line: goroutine w waits (pause, then yield) until the turn is its own, then passes it to w+1; at 2 goroutines on 2 or more CPUs, the least a hand-over in order to another CPU costs; with more goroutines than CPUs most turns wait for the scheduler (a strict FIFO lock's convoy)"},
		{"kind=mutex", "sync.Mutex, the baseline: a releaser may take it again at once, so it hands over far less often"},
		{"cs=N", "critical section: an increment of the guarded counter (on its own cache line), then about N ns of busy work"},
	})
	addLegends("Refcount", [][2]string{
		{"kind=plain", "an unchecked atomic_t-like count (measured only): inlined sync/atomic add"},
		{"kind=plain-hal", "the unchecked count through hal calls"},
		{"kind=checked-inline", "refcount.Count: refcount_t saturation checks, inlined sync/atomic"},
		{"kind=checked-hal", "refcount.Count's checks through hal calls"},
	})
	addLegends("Counter", [][2]string{
		{"kind=fetchadd", "counter.FetchAdd: one fetch-and-add, wait-free (baseline)"},
		{"kind=casloop", "counter.CASLoop: load + CAS retried, lock-free (retries/op)"},
		{"kind=striped", "counter.Striped: per-CPU-ish stripes on separate lines"},
		{"kind=adder", "counter.Adder: LongAdder-style, a fetch-and-add on a base word probed by a CAS, cells on separate lines once contended"},
		{"kind=mutex", "an int64 under a sync.Mutex (-full only)"},
		{"kind=atomic", "atomic.Int64's Add, inlined, on its own line: the standard choice"},
	})

	for _, cs := range LockCS {
		for _, k := range lockKinds {
			Add(Bench{Name: LockName(k.kind, 0, cs), Baseline: LockName("mutex", 0, cs), Threaded: k.body(cs)})
		}
	}
	for _, cs := range LockCS {
		Add(Bench{Name: csName("Handover", "turn", cs), Baseline: csName("Handover", "mutex", cs), Threaded: handoverTurn(cs)})
		Add(Bench{Name: csName("Handover", "mutex", cs), Baseline: csName("Handover", "mutex", cs), Threaded: lockMutex(cs)})
	}
	addKinds("Refcount", "plain", []kindBody{
		{kind: "plain", body: refPlain}, {kind: "plain-hal", body: refPlainHal},
		{kind: "checked-inline", body: refChecked}, {kind: "checked-hal", body: refCheckedHal},
	})
	addKinds("Counter", "fetchadd", []kindBody{
		{kind: "fetchadd", body: counterFetchAdd}, {kind: "casloop", body: counterCASLoop},
		{kind: "striped", body: counterStriped}, {kind: "adder", body: counterAdder},
		// atomic.Int64 is the standard choice the counter question is
		// answered against; a counter under a lock only with -full.
		{kind: "mutex", body: counterMutex, full: true}, {kind: "atomic", body: counterAtomic},
	})
}

// lockKinds are the lock kinds of the Lock section, sync.Mutex ("mutex",
// the baseline) last: the name element kind=K, the benchmark body, and a
// constructor of a fresh lock for measurements that take the lock through
// an interface (the lock-wait latency measurement, lockwait.go).
var lockKinds = []lockKind{
	{"tas", lockTAS, func() sync.Locker { return new(spin.TAS) }},
	{"ttas", lockTTAS, func() sync.Locker { return new(spin.TTAS) }},
	{"asm", lockAsm, func() sync.Locker { return new(spin.Asm) }},
	{"backoff", lockBackoff, func() sync.Locker { return new(spin.Backoff) }},
	{"ticket", lockTicket, func() sync.Locker { return new(spin.Ticket) }},
	{"mcs", lockMCS, func() sync.Locker { return new(spin.MCS) }},
	{"mutex", lockMutex, func() sync.Locker { return &new(paddedMutex).mu }},
}

type lockKind struct {
	kind    string
	body    func(cs int) func(*testing.B, int)
	newLock func() sync.Locker
}

// addLegends registers the legends of a section, each a key and its text.
func addLegends(section string, ls [][2]string) {
	for _, l := range ls {
		AddLegend(Legend{Section: section, Key: l[0], Text: l[1]})
	}
}

// kindBody is one threaded benchmark of a section whose benchmarks are
// named section/kind=K/threads=N.
type kindBody struct {
	kind string
	body func(*testing.B, int)
	full bool
}

// addKinds registers the kinds of a section as threaded benchmarks
// section/kind=K/threads=*, each compared with kind baseline.
func addKinds(section, baseline string, kinds []kindBody) {
	name := func(kind string) string { return section + "/kind=" + kind + "/" + ThreadsWildcard }
	for _, k := range kinds {
		Add(Bench{Name: name(k.kind), Baseline: name(baseline), Full: k.full, Threaded: k.body})
	}
}

// LockName returns the name of a lock benchmark (threads 0 gives the
// "threads=*" pattern).
func LockName(kind string, threads, cs int) string {
	n := csName("Lock", kind, cs)
	if threads > 0 {
		n = withThreads(n, threads)
	}
	return n
}

// csName returns the threads=* name of a benchmark of section with a kind
// and a critical section of cs ns, as the Lock and Handover sections name
// theirs.
func csName(section, kind string, cs int) string {
	return section + "/kind=" + kind + "/" + ThreadsWildcard + "/cs=" + strconv.Itoa(cs)
}

// lockRunCap bounds the wall time of one run of a lock benchmark; 0 (the
// default, and always under go test) means no bound. See SetLockRunCap.
var lockRunCap atomic.Int64

// SetLockRunCap bounds the wall time of one run of a lock benchmark, for
// a harness with a time budget (halbench); d <= 0 removes the bound.
//
// A FIFO lock (ticket, MCS) whose next waiter is not running stalls every
// goroutine behind it, and on a machine shared with other work it can fall
// into a regime where every hand-over waits for the kernel to run that
// waiter: a thousand times slower than usual, for as long as the run
// lasts. That is worth measuring but not worth waiting a minute for. With
// a bound, the goroutines stop when it passes, and the body reports
// ns/op and cycles/op over the operations actually done and their number
// as the TruncatedUnit metric.
func SetLockRunCap(d time.Duration) { lockRunCap.Store(int64(max(d, 0))) }

// TruncatedUnit is the metric a lock benchmark cut short by
// SetLockRunCap reports: the number of operations it did, fewer than b.N.
// Its ns/op and cycles/op are over those operations.
const TruncatedUnit = "truncated-ops"

// capCheckMask sets how often a lock body's goroutines look at the abort
// flag: every capCheckMask+1 operations.
const capCheckMask = 63

// Progress is a lock body's bookkeeping, kept inline in its own loop (the
// peers module's lock bodies use it too): per goroutine, how many
// operations it had done when the first goroutine finished its share, for
// the fairness metric, and the stop of the goroutines when the run cap
// (SetLockRunCap) passes. Each worker's loop calls Aborted and Note per
// operation and Done after; the body calls Report after cyclebench.RunLoop
// (lockTAS is one).
type Progress struct {
	stop  atomic.Bool
	_     cacheline.Line
	abort atomic.Bool
	_     cacheline.Line
	at    []int
	ops   []int
	timer *time.Timer
}

// NewProgress returns the bookkeeping of a run on threads goroutines.
func NewProgress(threads int) *Progress {
	// Spin calibrates itself on first use, which takes milliseconds: do
	// it here, outside the measurement (RunLoop resets the timer later).
	cyclebench.Calibrate()
	p := &Progress{at: make([]int, threads), ops: make([]int, threads)}
	if d := time.Duration(lockRunCap.Load()); d > 0 {
		p.timer = time.AfterFunc(d, func() { p.abort.Store(true) })
	}
	return p
}

// Aborted reports, every capCheckMask+1 operations of a worker's loop
// (i counts them), whether the run cap has passed.
func (p *Progress) Aborted(i int) bool { return i&capCheckMask == capCheckMask && p.abort.Load() }

// Note is called by worker w after its operation i: the first time it
// sees that another worker finished, it records its count, i+1.
func (p *Progress) Note(w, i int, noted bool) bool {
	if !noted && p.stop.Load() {
		p.at[w] = i + 1
		return true
	}
	return noted
}

// Done is called by worker w after its loop, having done n operations:
// the first to finish stops the others' counts.
func (p *Progress) Done(w, n int, noted bool) {
	p.ops[w] = n
	if !noted {
		p.stop.Store(true)
		p.at[w] = n
	}
}

// Report reports the fairness metric on b and, for a run cut short, the
// time and cycles per operation actually done. It fails b when the
// guarded counter did not count every operation (sections): the lock let
// two goroutines in at once.
func (p *Progress) Report(b *testing.B, r *cyclebench.Result, sections int64) {
	if p.timer != nil {
		p.timer.Stop()
	}
	b.ReportMetric(cyclebench.RelStddev(p.at), cyclebench.FairnessUnit)
	ops := 0
	for _, n := range p.ops {
		ops += n
	}
	if int64(ops) != sections {
		b.Fatalf("%d critical sections incremented the guarded counter to %d: two goroutines were inside at once", ops, sections)
	}
	if ops < r.Ops && ops > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/op")
		b.ReportMetric(float64(r.Ticks)/float64(ops), cyclebench.CyclesUnit)
		b.ReportMetric(float64(ops), TruncatedUnit)
	}
}

// PassedOverUnit is the metric the FIFO locks' bodies report: how many
// times a releaser passed over a waiter that had left the line (stopped
// spinning and parked), per acquisition (spin.Ticket.PassedOver).
const PassedOverUnit = "passed-over/op"

// reportPassed reports passed passes over the operations the run did.
func (p *Progress) reportPassed(b *testing.B, passed uint64) {
	ops := 0
	for _, n := range p.ops {
		ops += n
	}
	if ops > 0 {
		b.ReportMetric(float64(passed)/float64(ops), PassedOverUnit)
	}
}

// The lock bodies: one per type, identical but for the type, so that Lock
// and Unlock are static calls; gen writes them, with the other bodies that
// differ only in their type, into zbodies.go. Each operation is Lock, the critical
// section, Unlock. The critical section writes the data the lock guards,
// as every real one does: it increments a counter on a cache line of its
// own (guarded), which moves to each new holder's CPU, then busy-waits
// about cs ns. The data matters: with no data written, TTAS measured
// 0.8-1.3x sync.Mutex at 4 and 8 goroutines on the Turin-like VM, and
// 0.8-1.9x with the counter (the peers module's lock bodies write one
// too), so a verdict drawn without it could advise a lock that is slower
// in use.

// guarded is the data of a lock benchmark's critical section. Its final
// value, the number of critical sections run, checks mutual exclusion.
type guarded = padded[int64]

// paddedMutex keeps the baseline's lock word on a line of its own, as the
// spin locks keep theirs.
type paddedMutex struct {
	_  cacheline.Line
	mu sync.Mutex
	_  cacheline.Line
}

// turnYieldEvery is how many pauses a goroutine waiting for its turn
// spins before it yields: with more goroutines than processors the turn's
// owner may be waiting for this processor.
const turnYieldEvery = 64

// handoverTurn is the floor of a FIFO lock's hand-over: the goroutines
// take strict turns, worker w the turns w, w+threads, w+2·threads, ...
// (RunLoop's shares cover every turn from 0 exactly once). A turn is
// waited for by loading one shared word (a pause between loads) and
// passed on by storing the next turn's number into it: the least a lock
// that hands over in order can do, with no atomic read-modify-write and
// no bookkeeping. With two goroutines running on two processors every
// turn moves the word's cache line to the other core and back.
func handoverTurn(cs int) func(*testing.B, int) {
	return func(b *testing.B, threads int) {
		turn, x, p := new(padded[atomic.Uint64]), new(guarded), NewProgress(threads)
		r := cyclebench.RunLoop(b, threads, func(w, n int) {
			noted, i := false, 0
		turns:
			for ; i < n && !p.Aborted(i); i++ {
				mine := uint64(i*threads + w)
				for spins := 1; turn.v.Load() != mine; spins++ {
					if spins%turnYieldEvery != 0 {
						hal.Pause()
						continue
					}
					// A run cut short: the turn's owner may have
					// stopped, so every waiter stops too.
					if p.abort.Load() {
						break turns
					}
					runtime.Gosched()
				}
				x.v++
				cyclebench.Spin(cs)
				turn.v.Store(mine + 1)
				noted = p.Note(w, i, noted)
			}
			p.Done(w, i, noted)
		})
		p.Report(b, r, x.v)
	}
}

// padded keeps a value on cache lines of its own.
type padded[T any] struct {
	_ cacheline.Line
	v T
	_ cacheline.Line
}

// The refcount bodies: one Inc per operation of a count that starts at 1
// (an increment never saturates within a benchmark: it would take 2^31
// operations).

// The counter bodies: one Add(1) per operation. counterAdder starts from
// a fresh Adder, as a user's counter does: on its base at 1 goroutine, on
// cells once goroutines collide.

// counterCASLoop also reports "retries/op": failed compare-and-swaps per
// Add.
func counterCASLoop(b *testing.B, threads int) {
	c := new(counter.CASLoop)
	t := cyclebench.NewTally(threads)
	cyclebench.RunLoop(b, threads, func(w, n int) {
		retries := 0
		for range n {
			retries += c.AddRetries(1)
		}
		t.Add(w, uint64(retries))
	})
	t.Report(b, "retries/op")
}

// lockedInt is the textbook counter: an int64 under a sync.Mutex.
type lockedInt struct {
	mu sync.Mutex
	v  int64
}

func (c *lockedInt) Add(d int64) { c.mu.Lock(); c.v += d; c.mu.Unlock() }
