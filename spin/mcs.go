package spin

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// The states of an MCS queue node's locked word.
const (
	mcsGranted  = 0 // the predecessor handed the lock over
	mcsWaiting  = 1 // the owner waits in the queue
	mcsLeft     = 2 // the owner left the queue and sleeps on its parker; the releaser that reaches the node passes over it and wakes it
	mcsSleeping = 3 // the owner sleeps on its parker keeping its place; the releaser that reaches the node hands it the lock and wakes it
)

// mcsNode is one waiter's place in an MCS queue. Each pooled node fills
// a cache line of its own, so a waiter spinning on its locked word shares
// the line with nobody.
type mcsNode struct {
	mcsNodeWords
	_ [cacheline.Size - unsafe.Sizeof(mcsNodeWords{})%cacheline.Size]byte
}

// mcsNodeWords are an mcsNode's fields, which its tail pads to a line.
type mcsNodeWords struct {
	// next is the successor, set by the successor once it has joined
	// the queue behind this node. A pointer, so it goes through
	// sync/atomic, never hal.
	next atomic.Pointer[mcsNode]
	// p is the owner's parker, stored by the owner before it swings
	// locked to mcsLeft or mcsSleeping (nil for a pinned waiter that gave
	// up, which nobody wakes); the releaser that reaches the node reads it
	// after seeing that state.
	p atomic.Pointer[parker]
	// locked is mcsWaiting while the node's owner waits; the
	// predecessor swings it to mcsGranted to hand over the lock, the
	// owner to mcsLeft or mcsSleeping to sleep, each with a
	// compare-and-swap, so exactly one of the two happens.
	locked uint32
}

// nodes recycles queue nodes across all MCS locks: Lock takes one when it
// has to queue and Unlock returns it (or the releaser that passes over
// it, for a node whose owner left), so steady-state locking allocates
// nothing. sync.Pool keeps a cache per processor, so the node a goroutine
// gets was usually last used on the same CPU.
var nodes = sync.Pool{New: func() any { return new(mcsNode) }}

// MCS is the Mellor-Crummey–Scott queue lock. Waiters form a linked queue
// through the tail pointer; each spins on the locked word of its own node
// and the holder hands over by swinging its successor's word, so a release
// invalidates one waiter's cache line, not every waiter's. Among waiters
// that are running the lock is FIFO-fair.
//
// A strict MCS lock hands the lock to its successor even when that goroutine is
// not running, and the whole queue waits for the scheduler. MCS is
// preemption-adaptive instead, after the time-published queue locks of He,
// Scherer and Scott (2005): a waiter spins for at most a spinning round (a few
// microseconds) and while spinning can pay, then marks its node as left and
// parks. A releaser that finds its successor's node left passes over it (and
// recycles it), hands the lock to the next node that still waits, wakes the
// waiter it passed over (exactly that one: its parker is in the node) and
// counts the pass in [MCS.PassedOver]; the woken waiter joins the end of the
// queue with a new node.
//
// The bounded-wait rule (sync.Mutex's 1 ms): a waiter that has already
// slept in this Lock and waited over 1 ms does not leave when it stops
// spinning; it sleeps keeping its place in the queue, and the releaser
// that reaches its node hands it the lock and wakes it. So a waiter is
// passed over only during its first millisecond. The zero value is
// unlocked.
//
// Lock and Unlock take no node argument: the holder's node travels from
// Lock to Unlock in the lock itself, which only the holder touches. An
// uncontended Lock uses a node embedded in the lock and needs no pool;
// a Lock that finds the lock held takes a node from a sync.Pool, which
// Unlock returns. Unlock must be called by a goroutine that is ordered
// after the Lock (normally the same goroutine).
//
// An MCS is 200 bytes on amd64 and 386 (392 on arm64): its tail and
// holder on a cache line of their own, and the node an uncontended Lock
// uses, a line of its own too; sync.Mutex is 8.
type MCS struct {
	_ cacheline.Line
	mcsHot
	_ [cacheline.Size - unsafe.Sizeof(mcsHot{})%cacheline.Size]byte
	// own is the node of a holder that found the lock free. It is free
	// for reuse whenever tail is nil: a holder that uses it leaves the
	// queue either by swinging tail from it to nil or by handing over
	// to a successor, after which nothing refers to it.
	own   mcsNode
	sched schedClock
}

// mcsHot are MCS's fields on its first line, which its tail pads to a
// line.
type mcsHot struct {
	// tail is the last node in the queue, nil when the lock is free.
	tail atomic.Pointer[mcsNode]
	// holder is the current holder's node when it is a pooled one, nil
	// while the holder uses own (so the uncontended Lock and Unlock
	// write only tail); only the holder reads or writes it.
	holder *mcsNode
	// handovers counts the handovers to a waiter, for the scheduling
	// point (schedpoint.go); only the holder reads or writes it.
	handovers uint32
	passed    atomic.Uint64
}

// Lock locks l, queueing behind the current holder and waiters.
func (l *MCS) Lock() {
	if !atomic.CompareAndSwapUintptr(l.tailWord(), 0, uintptr(unsafe.Pointer(&l.own))) {
		l.lockSlow()
	}
}

// tailWord is l.tail as a word, for the uncontended paths' swing between
// nil and &l.own, which is then one inline compare-and-swap: sync/atomic's
// pointer compare-and-swap is two calls (its write barrier check, then the
// CAS), and made MCS's uncontended Lock and Unlock slower than
// sync.Mutex's. No write barrier is needed there: &l.own points into l
// itself, so neither storing it into l nor overwriting it can hide a live
// object from the collector, and l.tail stays a pointer field, which the
// collector scans and stack copying adjusts. Every swing to or from a
// pooled node goes through sync/atomic.
func (l *MCS) tailWord() *uintptr { return (*uintptr)(unsafe.Pointer(&l.tail)) }

func (l *MCS) lockSlow() {
	// A pinned goroutine must not use sync.Pool: its slow path (the first
	// Get or Put on a P, and after a GOMAXPROCS change) takes a mutex,
	// and a pinned goroutine that parks on it stops the program. It
	// allocates its node (allowed while pinned), and release drops it.
	pinned := mayNotSleep()
	var w *parker
	defer func() {
		if w != nil {
			parkers.Put(w)
		}
	}()
	var slept time.Time // when this Lock first slept
	for {
		var n *mcsNode
		if pinned {
			n = new(mcsNode)
		} else {
			n = nodes.Get().(*mcsNode)
		}
		n.next.Store(nil)
		hal.StoreReleaseUint32(&n.locked, mcsWaiting)
		pred := l.tail.Swap(n)
		if pred == nil {
			l.holder = n
			return
		}
		pred.next.Store(n)
		var sw waiter
		var c pinnedClock
		for i := 0; ; i++ {
			if hal.LoadAcquireUint32(&n.locked) == mcsGranted {
				l.holder = n
				return
			}
			if !spinning(i) {
				if strictFIFO() {
					sw.pause() // tests only: wait in line with brief yields
					continue
				}
				// A goroutine that holds a percpu.Pin cannot park, so it
				// stays in line and spins on its node; leaving would only
				// have it spin until the whole queue drains.
				if !pinned {
					break
				}
				if c.timedOut() {
					n.p.Store(nil) // nobody to wake
					if hal.CompareAndSwapUint32(&n.locked, mcsWaiting, mcsLeft) {
						// n belongs to the releaser that passes over it.
						pinnedWaitPanic()
					}
					l.holder = n // granted just now
					return
				}
			}
			pause()
		}
		if w == nil {
			w = parkers.Get().(*parker)
		}
		n.p.Store(w)
		state := uint32(mcsLeft)
		if slept.IsZero() {
			slept = time.Now()
		} else if time.Since(slept) > starvationThreshold {
			state = mcsSleeping // bounded wait: keep the place
		}
		countSleeper(l, 1)
		if !hal.CompareAndSwapUint32(&n.locked, mcsWaiting, state) {
			countSleeper(l, -1)
			l.holder = n // granted while deciding to sleep
			return
		}
		// The releaser that reaches n owns the one wake-up now.
		<-w.wake
		countSleeper(l, -1)
		if state == mcsSleeping {
			l.holder = n // handed over while asleep
			return
		}
		// Passed over: n belongs to the releaser that passed over it.
		// Queue again at the end, but first, if another goroutine is
		// waiting for this processor, let it run: otherwise a waiter that
		// cannot spin leaves again at once, and every pass costs a
		// releaser a wake-up.
		if !canSpin(0) {
			yield()
		}
	}
}

// TryLock locks l only if no goroutine holds it or waits for it, and
// reports whether it did.
func (l *MCS) TryLock() bool {
	return l.tail.Load() == nil && atomic.CompareAndSwapUintptr(l.tailWord(), 0, uintptr(unsafe.Pointer(&l.own)))
}

// Unlock unlocks l, handing it to the first waiter still in the queue if
// there is one: a spinning waiter, or one that sleeps keeping its place
// (which it wakes). It passes over, and wakes, every waiter before that
// one that left the queue. Unlocking an unlocked MCS panics.
//
// An Unlock that hands the lock to a waiter may then yield the processor
// (runtime.Gosched), at most once per 100 µs per lock: see "Scheduling
// points" in the package documentation.
func (l *MCS) Unlock() {
	if l.holder != nil || !atomic.CompareAndSwapUintptr(l.tailWord(), uintptr(unsafe.Pointer(&l.own)), 0) {
		l.unlockSlow()
	}
}

// unlockSlow is Unlock when the holder's node is pooled or has a
// successor (kept apart so that Unlock inlines).
func (l *MCS) unlockSlow() {
	if l.tail.Load() == nil {
		panic("spin: unlock of unlocked MCS")
	}
	n := l.holderNode()
	l.holder = nil
	// Waiters passed over are woken after the handover, so that the next
	// waiter gets the lock without waiting for the scheduler calls.
	var later [ticketWakeBatch]*parker
	nlater := 0
	yield := false
	defer func() {
		for _, w := range later[:nlater] {
			w.unpark()
		}
		if yield {
			schedYield()
		}
	}()
	for {
		succ := n.next.Load()
		if succ == nil {
			if l.tail.CompareAndSwap(n, nil) {
				l.release(n)
				return
			}
			// A successor has swapped itself into tail but not yet
			// linked itself behind n: it is about to, and does not
			// park in between, so wait briefly.
			var w waiter
			for succ = n.next.Load(); succ == nil; succ = n.next.Load() {
				w.pause()
			}
		}
		// Clear the link before handing over: once succ runs, n may be
		// reused (l.own as soon as tail is nil again) and must start
		// with no successor.
		n.next.Store(nil)
		// n goes back to the pool after the handover, not before: the
		// pool's Put (and the pin check before it) would otherwise stand
		// between this releaser and the waiter it hands the lock to.
		// Nothing refers to n once succ has linked itself behind it.
		// The count is read and written before the handover, while this
		// goroutine still holds the lock.
		l.handovers++
		h := l.handovers
		if hal.CompareAndSwapUint32(&succ.locked, mcsWaiting, mcsGranted) {
			l.release(n)
			yield = l.sched.due(h)
			return
		}
		l.release(n)
		// succ's owner sleeps: it swung locked once and will not touch
		// succ again before it is woken, so its parker is read here.
		w := succ.p.Load()
		if hal.LoadAcquireUint32(&succ.locked) == mcsSleeping {
			// Hand over to the sleeper (its node is its own again).
			hal.StoreReleaseUint32(&succ.locked, mcsGranted)
			w.unpark()
			return
		}
		// Left: pass over it and wake it. Its node is this releaser's to
		// recycle once it is past it.
		l.passed.Add(1)
		switch {
		case w == nil: // a pinned waiter that gave up
		case nlater < len(later):
			later[nlater] = w
			nlater++
		default:
			w.unpark()
		}
		n = succ
	}
}

// holderNode returns the holder's node, for the holder of l.
func (l *MCS) holderNode() *mcsNode {
	if l.holder == nil {
		return &l.own
	}
	return l.holder
}

// release returns a pooled node after its holder is done with it.
func (l *MCS) release(n *mcsNode) {
	if n != &l.own && !mayNotSleep() { // a pinned releaser must not use sync.Pool (see lockSlow)
		nodes.Put(n)
	}
}

// PassedOver returns how many times a releaser of l passed over a waiter
// that had left the queue (stopped spinning and parked): the price of
// MCS's preemption adaptivity in fairness.
func (l *MCS) PassedOver() uint64 { return l.passed.Load() }
