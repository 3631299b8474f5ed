package spin

import (
	"runtime"
	"sync/atomic"
)

// Scheduling points of the FIFO locks. Two goroutines that pass a Ticket
// or MCS lock back and forth keep two processors busy without ever
// entering the scheduler: each finds its turn within a few hundred
// nanoseconds, so neither parks. But a processor runs its timers, and the
// goroutines queued on it, only when it enters the scheduler. So a third
// goroutine whose time.Sleep has expired (or that a releaser woke onto
// that processor) waits for the next preemption, up to 10 ms, and then
// arrives just when one of the two stalled, which is when its wait for
// the lock is longest. sync.Mutex has no such gap: its waiters park after
// a few spins, and a parking goroutine enters the scheduler. So a
// releaser that hands the lock to a waiter (a contended handover) yields
// after the handover, holding no place in line, when it finds that no
// releaser of the lock has yielded for a while (schedEvery and
// schedInterval, tuning.go). A releaser that holds a percpu.Pin does not.

// schedClock is a lock's record of when one of its releasers last
// yielded at a scheduling point. The zero value has never yielded.
type schedClock struct{ last atomic.Int64 }

// due reports whether the releaser of the contended handover numbered n
// (a count that advances by one per handover, wrapping) must yield: every
// schedEvery-th handover reads the clock, and the first releaser to see
// schedInterval passed since the last yield claims the yield.
func (c *schedClock) due(n uint32) bool {
	return n%schedEvery == 0 && c.claim()
}

// claim reads the clock and claims the yield if it is due.
func (c *schedClock) claim() bool {
	now := schedNow()
	last := c.last.Load()
	return now-last >= int64(schedInterval) && c.last.CompareAndSwap(last, now)
}

// schedYield is the yield of a scheduling point, after the handover.
func schedYield() {
	if mayNotSleep() {
		return // a pinned goroutine must not yield
	}
	countYield()
	runtime.Gosched()
}
