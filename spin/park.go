package spin

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
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
	p.parked.Add(1)
	defer p.parked.Add(^uint32(0))
	// A releaser's free word may still sit in its store buffer (the race
	// above): look again for a few hundred nanoseconds before sleeping,
	// which leaves the timeout for the improbable.
	for range parkRecheck {
		if !blocked() {
			return notBlocked
		}
		hal.Pause()
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

// wordLotSize is the size of a lock word followed by a parkingLot, as
// TAS, TTAS, Backoff and Asm lay them out on the lock's cache line.
const wordLotSize = unsafe.Sizeof(struct {
	word uint32
	lot  parkingLot
}{})

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
