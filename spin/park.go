package spin

import (
	"fmt"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/waitpolicy"
	"runtime"
	"sync"
)

// The wait primitive. A waiter that has spent its spin budget parks: it
// blocks receiving from a channel of its own (capacity 1) and the waker
// sends on it. A blocked channel receive is a real sleep: the goroutine
// leaves its processor and the scheduler does not run it again until the
// send makes it runnable (gopark/goready inside the runtime, the same
// machinery sync.Mutex's semaphore uses). The channel is part of a pooled
// parker, so parking allocates nothing in steady state. A send never
// blocks (the one slot is empty: every send is matched by one receive), so
// a releaser may wake a waiter while it holds a percpu.Pin.
//
// No park has a timeout. The TAS family parks on a semaphore (sema.go)
// whose releases are never lost. Ticket and MCS waiters park keyed by
// their place in line: a waiter publishes its parker where the releaser
// that reaches its ticket (its queue node) looks, with an atomic
// read-modify-write, and that releaser, which takes the mark with a
// compare-and-swap, wakes exactly that waiter (ticket.go, mcs.go). Either
// the waiter takes its mark back itself and does not sleep, or the
// releaser takes it and sends: one wake-up per sleep, never a lost one.

// parker is one parked goroutine's wake-up channel, and its place in a
// sema's queue.
type parker struct {
	next *parker
	// wake receives one value when a waker picks this parker.
	wake chan struct{}
	// queued is true while the parker is on a sema's queue; guarded by
	// the queue's lock.
	queued bool
}

var parkers = sync.Pool{New: func() any { return &parker{wake: make(chan struct{}, 1)} }}

// unpark wakes the goroutine parked (or about to park) on w. The caller
// must own w's one wake-up (it took the waiter's mark); it must not touch
// w afterwards, since the woken goroutine recycles it.
func (w *parker) unpark() { w.wake <- struct{}{} }

// mayNotSleep reports whether the calling goroutine must not park or
// yield because it holds a percpu.Pin (pin.Held: a procPin, a load and a
// procUnpin). Only the slow paths ask, just before they would park or
// yield, so a lock nobody waits for never pays for it.
func mayNotSleep() bool { return pin.Held() }

// yield hands the processor to another goroutine (runtime.Gosched), or,
// when the calling goroutine holds a percpu.Pin and must not yield,
// pauses once instead.
func yield() {
	if mayNotSleep() {
		pause()
		return
	}
	runtime.Gosched()
}

// pinnedClock times a pinned goroutine's wait for a lock (see "Locking
// while pinned" in the package documentation). Under the race detector a
// goroutine that stays pinned for milliseconds while it spins can stall
// inside the race runtime: keep pinned critical sections to microseconds
// there.
//
// A pinned waiter cannot park, so it waits only as long as the holder runs, and
// only a pinned holder surely does: a holder that is not pinned can block,
// or be stopped by a stop-the-world (a GC cycle's) that itself waits for
// the spinning waiter to stop, and the program would hang. Past
// pinnedWaitLimit the waiter panics instead, naming the rule.
type pinnedClock struct{ waitpolicy.PinnedClock }

// check counts one pause of the wait and panics once the wait has
// lasted pinnedWaitLimit.
func (c *pinnedClock) check() {
	if c.timedOut() {
		pinnedWaitPanic()
	}
}

// timedOut counts one pause of the wait (the clock is read every
// waitpolicy.PinnedPollEvery) and reports whether the wait has lasted
// pinnedWaitLimit.
func (c *pinnedClock) timedOut() bool { return c.TimedOut(pinnedWaitLimit) }

// pinnedWaitPanic ends a pinned wait that has lasted pinnedWaitLimit. A
// panic while pinned is a fatal error of the runtime ("panic holding
// locks"), so it first releases the goroutine's Pins (pin.Release) and
// says so; the panic can then be recovered.
func pinnedWaitPanic() {
	n := pin.Release()
	panic(fmt.Sprintf("spin: a goroutine that holds a percpu.Pin waited over %v for a lock: "+
		"a pinned goroutine cannot park, so it spins, and the lock's holder is not running "+
		"(it holds the lock unpinned, so it could block or be stopped by a stop-the-world that "+
		"waits for this goroutine). A lock that pinned goroutines take must be held only pinned "+
		"(Pin, Lock, …, Unlock, Unpin); or Unpin before Lock. "+
		"The goroutine's %d Pin(s) were released so that it could panic: each matching Unpin "+
		"now panics as an Unpin without a matching Pin", pinnedWaitLimit, n))
}
