package spin

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/internal/pin"
)

// The wait primitive. A waiter that has spent its spin budget parks: it
// blocks receiving from a channel of its own (capacity 1) and the waker
// sends on it. A blocked channel receive is a real sleep: the goroutine
// leaves its processor and the scheduler does not run it again until the
// send makes it runnable (gopark/goready inside the runtime, the same
// machinery sync.Mutex's semaphore uses). The channel is part of a pooled
// parker, so parking allocates nothing in steady state.
//
// Each lock holds a parkingLot: a count of goroutines about to park or
// parked, a flag saying a woken waiter has not run yet, and a FIFO list of
// parked waiters under a sync.Mutex. The releaser reads the count after
// releasing the lock (one plain load on the lock's own cache line) and
// takes the list's mutex only when the count is not zero, so a lock
// nobody waits for pays no extra atomic operation.
//
// The one race this leaves: a waiter registers (an atomic add), then
// checks the lock word under the list's mutex and sleeps if the lock is
// held; a releaser of TAS, TTAS, Backoff or Asm stores the free lock word
// with a plain release store, then reads the count. Nothing orders that
// store before that load (a store may wait in the store buffer while the
// load is served), so both may see the other's old value: the releaser
// sees nobody parked, the waiter sees the lock held, and the waiter would
// sleep on a free lock. Closing the race needs a full fence in every
// Unlock, which is the uncontended cost this package will not pay. So
// every park of those locks (and Ticket's) also has a timeout: a waiter
// whose wake-up was lost wakes after parkTimeout (doubling, up to
// maxParkTimeout, while it keeps timing out) and looks at the lock again.
// Any later Unlock also wakes it, because the count it registered stays
// visible. Ticket (when it hands over) and MCS release with an atomic
// read-modify-write, which orders the count load after the release, so
// for them the timeout is only a backstop; they use it too.
//
// parkRecheck is how many pauses a registered waiter spends looking at
// the lock again before it sleeps, to let such a store drain.
const (
	parkTimeout    = time.Millisecond
	maxParkTimeout = 4 * time.Millisecond
	parkRecheck    = 16
)

// parker is one parked goroutine's place in a parkingLot.
type parker struct {
	next *parker
	// wake receives one value when a waker picks this parker.
	wake chan struct{}
	// timer bounds a park with a timeout; created on first use.
	timer *time.Timer
	// queued is true while the parker is on a list; guarded by the
	// list's mutex.
	queued bool
}

var parkers = sync.Pool{New: func() any { return &parker{wake: make(chan struct{}, 1)} }}

// parkingLot holds the goroutines parked on one lock. The zero value is
// empty. It contains a sync.Mutex, so go vet reports a copy of any lock
// that holds one.
type parkingLot struct {
	// parked counts goroutines that registered to park and have not
	// left the lot yet (some may still be deciding whether to sleep).
	parked atomic.Uint32
	// waking is 1 from the moment a waker picks a parker until that
	// parker runs, so that a burst of releases wakes one goroutine, not
	// one per release (sync.Mutex's mutexWoken).
	waking atomic.Uint32
	mu     sync.Mutex
	// head and tail are the parked goroutines, oldest first.
	head, tail *parker
}

// wakeIfParked wakes one parked goroutine if any registered to park. The
// releaser calls it after releasing the lock; it is one load when nobody
// waits.
func (p *parkingLot) wakeIfParked() {
	if p.parked.Load() != 0 {
		p.wakeOne()
	}
}

// wakeOne wakes the goroutine parked longest, unless a woken goroutine
// has not run yet.
func (p *parkingLot) wakeOne() {
	if p.waking.Load() != 0 || !p.waking.CompareAndSwap(0, 1) {
		return
	}
	p.mu.Lock()
	w := p.head
	if w != nil {
		p.head = w.next
		if p.head == nil {
			p.tail = nil
		}
		w.next, w.queued = nil, false
	}
	p.mu.Unlock()
	if w == nil {
		// Registered goroutines that have not queued yet check the
		// lock under mu after this, and do not sleep on a free lock.
		p.waking.Store(0)
		return
	}
	w.wake <- struct{}{}
}

// How a park ended.
const (
	notBlocked = iota // blocked reported false: the goroutine did not sleep
	woken             // a waker woke it
	timedOut          // its timeout passed
)

// park puts the calling goroutine to sleep if blocked (called under the
// lot's mutex, after the goroutine registered in parked) reports true,
// until a waker picks it or, if timeout > 0, the timeout passes, and says
// which happened.
func (p *parkingLot) park(blocked func() bool, timeout time.Duration) int {
	if mayNotSleep() {
		// A goroutine that holds a percpu.Pin must not park: the
		// runtime cannot switch goroutines on its thread and stops the
		// program ("schedule: holding locks"). It spins instead, until
		// the lock looks free (for Ticket: until it is served or passed
		// over), and then tries again. That ends only if the holder runs:
		// see the package documentation for the rule (hold such a lock
		// only pinned), and
		// pinnedClock for the panic that replaces a hang when the rule
		// is broken. A waiter here holds no place in any queue (Ticket's
		// has marked its ticket left), so the panic leaves the lock as
		// it was.
		var c pinnedClock
		for blocked() {
			c.check()
			pause()
		}
		return notBlocked
	}
	p.parked.Add(1)
	defer p.parked.Add(^uint32(0))
	// A releaser's free word may still sit in its store buffer (the race
	// above): look again for a few hundred nanoseconds before sleeping,
	// which leaves the timeout for the improbable.
	for range parkRecheck {
		if !blocked() {
			return notBlocked
		}
		pause()
	}
	p.mu.Lock()
	if !blocked() {
		p.mu.Unlock()
		return notBlocked
	}
	w := parkers.Get().(*parker)
	w.queued = true
	if p.tail == nil {
		p.head = w
	} else {
		p.tail.next = w
	}
	p.tail = w
	p.mu.Unlock()

	woke := false
	if timeout <= 0 {
		<-w.wake
		woke = true
	} else {
		if w.timer == nil {
			w.timer = time.NewTimer(timeout)
		} else {
			w.timer.Reset(timeout)
		}
		select {
		case <-w.wake:
			woke = true
		case <-w.timer.C:
			p.mu.Lock()
			if w.queued {
				p.remove(w)
			} else {
				woke = true // picked as the timer fired: the send is on its way
			}
			p.mu.Unlock()
			if woke {
				<-w.wake
			}
		}
		w.timer.Stop()
	}
	parkers.Put(w)
	if !woke {
		return timedOut
	}
	p.waking.Store(0)
	return woken
}

// remove takes w off the list; p.mu is held.
func (p *parkingLot) remove(w *parker) {
	var prev *parker
	for q := p.head; q != nil; prev, q = q, q.next {
		if q != w {
			continue
		}
		if prev == nil {
			p.head = q.next
		} else {
			prev.next = q.next
		}
		if p.tail == q {
			p.tail = prev
		}
		break
	}
	w.next, w.queued = nil, false
}

// nextTimeout is the timeout of the park after one that ended in how with
// timeout d: doubled, up to maxParkTimeout, after a timeout; parkTimeout
// after a wake-up.
func nextTimeout(d time.Duration, how int) time.Duration {
	switch how {
	case timedOut:
		return min(2*d, maxParkTimeout)
	case woken:
		return parkTimeout
	}
	return d
}

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

// pinnedWaitLimit is how long a goroutine that holds a percpu.Pin spins
// for one lock before it panics. Tests lower it.
var pinnedWaitLimit = time.Second

// pinnedClock times a pinned goroutine's wait for a lock. A pinned
// waiter cannot park, so it waits only as long as the holder runs, and
// only a pinned holder surely does: a holder that is not pinned can block,
// or be stopped by a stop-the-world (a GC cycle's) that itself waits for
// the spinning waiter to stop, and the program would hang. Past
// pinnedWaitLimit the waiter panics instead, naming the rule.
type pinnedClock struct {
	start time.Time
	n     uint32
}

// check counts one pause of the wait and panics once the wait has
// lasted pinnedWaitLimit.
func (c *pinnedClock) check() {
	if c.timedOut() {
		pinnedWaitPanic()
	}
}

// timedOut counts one pause of the wait, reads the clock every 1024, and
// reports whether the wait has lasted pinnedWaitLimit.
func (c *pinnedClock) timedOut() bool {
	c.n++
	if c.n%1024 != 0 {
		return false
	}
	if c.start.IsZero() {
		c.start = time.Now()
		return false
	}
	return time.Since(c.start) > pinnedWaitLimit
}

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
