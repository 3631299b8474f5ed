package suite

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/lab/cyclebench"
)

// The lock-wait latency measurement (issue 19.4): how long each Lock call
// waits, as a distribution, for every lock kind of the Lock section and
// sync.Mutex, in two scenarios.
//
// Contended: GOMAXPROCS×4 goroutines (8 on a 2-CPU machine) each Lock, run
// a busy critical section of about 50 ns, Unlock, again, until together
// they have made a fixed number of acquisitions (split evenly among them).
//
// Occasional: GOMAXPROCS goroutines (2 on a 2-CPU machine) re-lock at once
// (Lock, 50 ns, Unlock, again) while one more goroutine sleeps about
// 100 µs between its own acquisitions; the wait distribution of that
// occasional goroutine is the result.
//
// A wait is the time from just before Lock is called to just after it
// returns, read with time.Since on a fixed base (one monotonic clock read,
// runtime nanotime; [ClockCost] measures it): every wait includes about
// one read's cost. Waits go into a per-goroutine [WaitHist] (no allocation
// per sample), merged per kind after the run.
//
// The kinds run interleaved in rounds: in round r every kind runs once, the
// order rotated by r, so that load from other processes falls on every
// kind alike; each kind's rounds are merged.

// waitSubBits sets the histogram's precision: 2^waitSubBits buckets per
// power of two, so a bucket is at most 1/32 (3.1 %) of its values wide.
const waitSubBits = 5

const (
	waitSub     = 1 << waitSubBits
	waitBuckets = (64 - waitSubBits) << waitSubBits
)

// WaitHist is a log-bucketed histogram of durations in nanoseconds: exact
// below 64 ns, then 32 buckets per power of two (each at most 3.1 % of its
// lower bound wide). It keeps the count, the sum, the exact maximum and
// exact counts of samples of at least 1 ms and at least 32 ms. Record does
// not allocate. The zero value is an empty histogram.
type WaitHist struct {
	n, sum  uint64
	max     uint64
	ge1ms   uint64
	ge32ms  uint64
	buckets [waitBuckets]uint64
}

// waitBucket returns the bucket index of v.
func waitBucket(v uint64) int {
	if v < 2*waitSub {
		return int(v)
	}
	shift := bits.Len64(v) - waitSubBits - 1
	return (shift+1)<<waitSubBits + int(v>>uint(shift)) - waitSub
}

// waitBucketHigh returns the largest value in bucket i.
func waitBucketHigh(i int) uint64 {
	g := i >> waitSubBits
	if g <= 1 {
		return uint64(i)
	}
	shift := uint(g - 1)
	lo := uint64(i-g<<waitSubBits+waitSub) << shift
	return lo + 1<<shift - 1
}

// Record adds one sample; a negative duration counts as 0.
func (h *WaitHist) Record(d time.Duration) {
	v := uint64(max(d, 0))
	h.n++
	h.sum += v
	h.max = max(h.max, v)
	if v >= uint64(time.Millisecond) {
		h.ge1ms++
		if v >= uint64(32*time.Millisecond) {
			h.ge32ms++
		}
	}
	h.buckets[waitBucket(v)]++
}

// Merge adds the samples of o to h.
func (h *WaitHist) Merge(o *WaitHist) {
	h.n += o.n
	h.sum += o.sum
	h.max = max(h.max, o.max)
	h.ge1ms += o.ge1ms
	h.ge32ms += o.ge32ms
	for i, c := range o.buckets {
		h.buckets[i] += c
	}
}

// Count returns the number of samples.
func (h *WaitHist) Count() uint64 { return h.n }

// Max returns the largest sample, exactly (0 when empty).
func (h *WaitHist) Max() time.Duration { return time.Duration(h.max) }

// Mean returns the mean sample (0 when empty).
func (h *WaitHist) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return time.Duration(h.sum / h.n)
}

// AtLeast1ms returns the number of samples of at least 1 ms, exactly.
func (h *WaitHist) AtLeast1ms() uint64 { return h.ge1ms }

// AtLeast32ms returns the number of samples of at least 32 ms, exactly.
func (h *WaitHist) AtLeast32ms() uint64 { return h.ge32ms }

// Quantile returns the q-quantile (0 < q ≤ 1) of the samples: the upper
// end of the bucket that holds the ⌈q·n⌉-th smallest sample, but at most
// the maximum. It is never below the true quantile and at most 3.1 % above
// it. An empty histogram gives 0.
func (h *WaitHist) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	if !(q > 0 && q <= 1) {
		panic(fmt.Sprintf("suite: quantile %v not in (0, 1]", q))
	}
	rank := uint64(q * float64(h.n))
	if float64(rank) < q*float64(h.n) {
		rank++ // ⌈q·n⌉
	}
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.buckets {
		seen += c
		if seen >= rank {
			return time.Duration(min(waitBucketHigh(i), h.max))
		}
	}
	return time.Duration(h.max)
}

// LockWaitKinds returns the lock kinds the measurement covers, in the
// Lock section's order, "mutex" (sync.Mutex, the baseline) last.
func LockWaitKinds() []string {
	out := make([]string, len(lockKinds))
	for i, k := range lockKinds {
		out[i] = k.kind
	}
	return out
}

// LockWaitConfig sets the sizes of a [MeasureLockWait] run.
type LockWaitConfig struct {
	// Acquisitions is the number of contended acquisitions per kind, over
	// all rounds and goroutines; at least Rounds.
	Acquisitions int
	// Goroutines is the number of goroutines of the contended scenario;
	// 0 means GOMAXPROCS×4.
	Goroutines int
	// Occasional is the number of the occasional goroutine's own
	// acquisitions per kind, over all rounds; at least Rounds.
	Occasional int
	// Spinners is the number of goroutines that re-lock at once in the
	// occasional scenario; 0 means GOMAXPROCS.
	Spinners int
	// Interval is how long the occasional goroutine sleeps between its
	// acquisitions (time.Sleep; the actual gap is reported); 0 means
	// 100 µs.
	Interval time.Duration
	// CS is the critical section, in ns of cyclebench.Spin; 0 means 50,
	// negative means none.
	CS int
	// Rounds is the number of interleaved rounds; each kind's counts are
	// split evenly among them. 0 means 1.
	Rounds int
	// Kinds restricts the run to these kinds (nil: all of LockWaitKinds).
	Kinds []string
	// RunCap, if positive, bounds the wall time of each scenario of each
	// kind in each round; a run cut short reports fewer samples and sets
	// Truncated. A FIFO lock whose next waiter is descheduled can run a
	// thousand times slower than usual on a shared machine.
	RunCap time.Duration
	// Progress, if set, is called before each run.
	Progress func(round, rounds int, kind string)
}

// LockWaitResult is the measurement of one kind, all rounds merged.
type LockWaitResult struct {
	Kind string
	// Contended holds every contended Lock call's wait.
	Contended WaitHist
	// Occasional holds the occasional goroutine's waits.
	Occasional WaitHist
	// Gap holds the occasional goroutine's time from one Lock return to
	// its next Lock call (the sleep as it turned out, plus the critical
	// section and Unlock).
	Gap WaitHist
	// SpinnerOps is the number of acquisitions the re-locking goroutines
	// made in the occasional scenario.
	SpinnerOps uint64
	// ContendedWall and OccasionalWall are the wall times of the runs.
	ContendedWall, OccasionalWall time.Duration
	// Truncated counts the runs RunCap cut short.
	Truncated int
}

func (c *LockWaitConfig) fill() error {
	p := runtime.GOMAXPROCS(0)
	if c.Goroutines == 0 {
		c.Goroutines = 4 * p
	}
	if c.Spinners == 0 {
		c.Spinners = p
	}
	if c.Interval == 0 {
		c.Interval = 100 * time.Microsecond
	}
	if c.CS == 0 {
		c.CS = 50
	}
	if c.Rounds == 0 {
		c.Rounds = 1
	}
	switch {
	case c.Goroutines < 1 || c.Spinners < 1:
		return fmt.Errorf("suite: lock wait: %d goroutines, %d spinners: need at least 1", c.Goroutines, c.Spinners)
	case c.Rounds < 1:
		return fmt.Errorf("suite: lock wait: %d rounds", c.Rounds)
	case c.Acquisitions < c.Rounds || c.Occasional < c.Rounds:
		return fmt.Errorf("suite: lock wait: %d acquisitions and %d occasional ones: need at least one per round (%d rounds)",
			c.Acquisitions, c.Occasional, c.Rounds)
	case c.Interval < 0:
		return fmt.Errorf("suite: lock wait: interval %v", c.Interval)
	}
	return nil
}

// MeasureLockWait runs the lock-wait measurement: see the comment at the
// top of lockwait.go. It returns one result per kind, in the order of
// LockWaitKinds (or of cfg.Kinds).
func MeasureLockWait(cfg LockWaitConfig) ([]LockWaitResult, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	kinds := lockKinds
	if cfg.Kinds != nil {
		kinds = kinds[:0:0]
		for _, want := range cfg.Kinds {
			i := slices.IndexFunc(lockKinds, func(k lockKind) bool { return k.kind == want })
			if i < 0 {
				return nil, fmt.Errorf("suite: lock wait: unknown kind %q (want one of %v)", want, LockWaitKinds())
			}
			kinds = append(kinds, lockKinds[i])
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("suite: lock wait: no kinds")
	}
	cyclebench.Calibrate()
	res := make([]LockWaitResult, len(kinds))
	for i, k := range kinds {
		res[i].Kind = k.kind
	}
	// One histogram per goroutine, reused by every run.
	hists := make([]WaitHist, max(cfg.Goroutines, 2))
	for r := range cfg.Rounds {
		acq := cyclebench.Share(cfg.Acquisitions, cfg.Rounds, r)
		occ := cyclebench.Share(cfg.Occasional, cfg.Rounds, r)
		for j := range kinds {
			i := (j + r) % len(kinds)
			k := &kinds[i]
			if cfg.Progress != nil {
				cfg.Progress(r, cfg.Rounds, k.kind)
			}
			runtime.GC() // no collection of the previous run's garbage during this one

			hs := hists[:cfg.Goroutines]
			wall, cut := contendedRun(k.newLock(), hs, acq, cfg.CS, cfg.RunCap)
			for w := range hs {
				res[i].Contended.Merge(&hs[w])
			}
			res[i].ContendedWall += wall
			if cut {
				res[i].Truncated++
			}

			wall, spins, cut := occasionalRun(k.newLock(), &hists[0], &hists[1], cfg.Spinners, occ, cfg.CS, cfg.Interval, cfg.RunCap)
			res[i].Occasional.Merge(&hists[0])
			res[i].Gap.Merge(&hists[1])
			res[i].SpinnerOps += spins
			res[i].OccasionalWall += wall
			if cut {
				res[i].Truncated++
			}
		}
	}
	return res, nil
}

// runGate starts goroutines together and stops them when a cap passes.
type runGate struct {
	ready atomic.Int32
	start atomic.Bool
	_     cacheline.Line
	stop  atomic.Bool
	_     cacheline.Line
	cut   atomic.Bool
}

// arm starts the cap's timer (if capped) and releases the goroutines; it
// returns a function that stops the timer.
func (g *runGate) arm(n int32, runCap time.Duration) (disarm func()) {
	for g.ready.Load() < n {
		runtime.Gosched()
	}
	var t *time.Timer
	if runCap > 0 {
		t = time.AfterFunc(runCap, func() { g.cut.Store(true); g.stop.Store(true) })
	}
	g.start.Store(true)
	return func() {
		if t != nil {
			t.Stop()
		}
	}
}

// wait is called by each goroutine before its loop.
func (g *runGate) wait() {
	g.ready.Add(1)
	for !g.start.Load() {
		runtime.Gosched()
	}
}

// waitBase is the base of the monotonic clock the waits are read from:
// time.Since(waitBase) is one runtime nanotime call.
var waitBase = time.Now()

// contendedRun runs the contended scenario on l with len(hs) goroutines
// and total acquisitions, goroutine w recording into hs[w] (reset first).
func contendedRun(l sync.Locker, hs []WaitHist, total, cs int, runCap time.Duration) (time.Duration, bool) {
	var (
		g  runGate
		wg sync.WaitGroup
	)
	for w := range hs {
		hs[w] = WaitHist{}
		n := cyclebench.Share(total, len(hs), w)
		h := &hs[w]
		wg.Go(func() {
			g.wait()
			for i := 0; i < n; i++ {
				if i&capCheckMask == capCheckMask && g.stop.Load() {
					break
				}
				t0 := time.Since(waitBase)
				l.Lock()
				t1 := time.Since(waitBase)
				cyclebench.Spin(cs)
				l.Unlock()
				h.Record(t1 - t0)
			}
		})
	}
	disarm := g.arm(int32(len(hs)), runCap)
	t0 := time.Now()
	wg.Wait()
	wall := time.Since(t0)
	disarm()
	return wall, g.cut.Load()
}

// occasionalRun runs the occasional scenario on l: spinners goroutines
// re-lock at once until the occasional goroutine has made n acquisitions,
// sleeping interval before each; its waits go to wait and its gaps to gap
// (both reset first). It returns the wall time, the spinners'
// acquisitions and whether the cap cut the run short.
func occasionalRun(l sync.Locker, wait, gap *WaitHist, spinners, n, cs int, interval, runCap time.Duration) (time.Duration, uint64, bool) {
	*wait, *gap = WaitHist{}, WaitHist{}
	var (
		g     runGate
		wg    sync.WaitGroup
		spins atomic.Uint64
	)
	for range spinners {
		wg.Go(func() {
			g.wait()
			var i uint64
			for ; i&capCheckMask != capCheckMask || !g.stop.Load(); i++ {
				l.Lock()
				cyclebench.Spin(cs)
				l.Unlock()
			}
			spins.Add(i)
		})
	}
	wg.Go(func() {
		defer g.stop.Store(true) // the spinners stop when this goroutine is done
		g.wait()
		var last time.Duration
		for i := 0; i < n && !g.stop.Load(); i++ {
			time.Sleep(interval)
			t0 := time.Since(waitBase)
			l.Lock()
			t1 := time.Since(waitBase)
			cyclebench.Spin(cs)
			l.Unlock()
			wait.Record(t1 - t0)
			if i > 0 {
				gap.Record(t0 - last)
			}
			last = t1
		}
	})
	disarm := g.arm(int32(spinners+1), runCap)
	t0 := time.Now()
	wg.Wait()
	wall := time.Since(t0)
	disarm()
	return wall, spins.Load(), g.cut.Load()
}

// ClockCost returns the cost of one read of the clock the waits are read
// with (time.Since on a fixed base), the fastest of a few batches: every
// recorded wait includes about one read.
func ClockCost() time.Duration {
	const reads = 10000
	best := time.Duration(1 << 62)
	var sink time.Duration
	for range 5 {
		t0 := time.Now()
		for range reads {
			sink += time.Since(waitBase)
		}
		best = min(best, time.Since(t0))
	}
	if sink == 1 {
		best++ // keep sink live
	}
	return best / reads
}
