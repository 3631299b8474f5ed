package spin

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

// The states of an MCS queue node's locked word.
const (
	mcsGranted = 0 // the predecessor handed the lock over
	mcsWaiting = 1 // the owner waits in the queue
	mcsLeft    = 2 // the owner stopped waiting; the releaser that reaches the node passes over it
)

// mcsNode is one waiter's place in an MCS queue. Each pooled node fills
// a cache line of its own, so a waiter spinning on its locked word shares
// the line with nobody.
type mcsNode struct {
	// next is the successor, set by the successor once it has joined
	// the queue behind this node. A pointer, so it goes through
	// sync/atomic, never hal.
	next atomic.Pointer[mcsNode]
	// locked is mcsWaiting while the node's owner waits; the
	// predecessor swings it to mcsGranted to hand over the lock, the
	// owner to mcsLeft to leave the queue, each with a compare-and-swap,
	// so exactly one of the two happens.
	locked uint32
	_      [lineSize - 12]byte
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
// A strict MCS lock hands the lock to its successor even when that
// goroutine is not running, and the whole queue waits for the scheduler.
// MCS is preemption-adaptive instead, after the time-published queue locks
// of He, Scherer and Scott (2005): a waiter spins for at most [spinBudget]
// pauses and while spinning can pay, then marks its node as left and
// parks. A releaser that finds its successor's node left passes over it
// (and recycles it), hands the lock to the next node that still waits,
// and counts the pass in [MCS.PassedOver]; the parked waiter joins the end
// of the queue with a new node when it is woken. The zero value is
// unlocked.
//
// Lock and Unlock take no node argument: the holder's node travels from
// Lock to Unlock in the lock itself, which only the holder touches. An
// uncontended Lock uses a node embedded in the lock and needs no pool;
// a Lock that finds the lock held takes a node from a sync.Pool, which
// Unlock returns. Unlock must be called by a goroutine that is ordered
// after the Lock (normally the same goroutine).
type MCS struct {
	_ [lineSize]byte
	// tail is the last node in the queue, nil when the lock is free.
	tail atomic.Pointer[mcsNode]
	// holder is the current holder's node; only the holder reads or
	// writes it.
	holder *mcsNode
	lot    parkingLot
	passed atomic.Uint64
	_      [lineSize - mcsHotSize]byte
	// own is the node of a holder that found the lock free. It is free
	// for reuse whenever tail is nil: a holder that uses it leaves the
	// queue either by swinging tail from it to nil or by handing over
	// to a successor, after which nothing refers to it.
	own mcsNode
}

// mcsHotSize is the size of MCS's fields on its first line.
const mcsHotSize = unsafe.Sizeof(struct {
	tail   atomic.Pointer[mcsNode]
	holder *mcsNode
	lot    parkingLot
	passed atomic.Uint64
}{})

// Lock locks l, queueing behind the current holder and waiters.
func (l *MCS) Lock() {
	if l.tail.CompareAndSwap(nil, &l.own) {
		l.holder = &l.own
		return
	}
	l.lockSlow()
}

func (l *MCS) lockSlow() {
	timeout := parkTimeout
	// A pinned goroutine must not use sync.Pool: its slow path (the first
	// Get or Put on a P, and after a GOMAXPROCS change) takes a mutex,
	// and a pinned goroutine that parks on it stops the program. It
	// allocates its node (allowed while pinned), and release drops it.
	pinned := mayNotSleep()
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
		var w waiter
		var c pinnedClock
		for i := 0; ; i++ {
			if hal.LoadAcquireUint32(&n.locked) == mcsGranted {
				l.holder = n
				return
			}
			if !spinning(i) {
				if strictFIFO {
					w.pause() // tests only: wait in line with brief yields
					continue
				}
				// A goroutine that holds a percpu.Pin cannot park, so it
				// stays in line and spins on its node; leaving would only
				// have it spin until the whole queue drains.
				if !pinned {
					break
				}
				if c.timedOut() {
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
		if !hal.CompareAndSwapUint32(&n.locked, mcsWaiting, mcsLeft) {
			l.holder = n // granted while deciding to leave
			return
		}
		// n belongs to the releaser that passes over it now. Park until
		// a releaser wakes this goroutine or the lock is free, then
		// queue again.
		for {
			how := l.lot.park(l.queued, timeout)
			timeout = nextTimeout(timeout, how)
			if how != timedOut {
				break
			}
		}
	}
}

// queued reports whether l is held, for park.
func (l *MCS) queued() bool { return l.tail.Load() != nil }

// TryLock locks l only if no goroutine holds it or waits for it, and
// reports whether it did.
func (l *MCS) TryLock() bool {
	if l.tail.Load() == nil && l.tail.CompareAndSwap(nil, &l.own) {
		l.holder = &l.own
		return true
	}
	return false
}

// Unlock unlocks l, handing it to the first waiter still in the queue if
// there is one, and wakes one parked waiter if any registered to park.
// Unlocking an unlocked MCS panics.
func (l *MCS) Unlock() {
	n := l.holder
	if n == nil {
		panic("spin: unlock of unlocked MCS")
	}
	l.holder = nil
	for {
		succ := n.next.Load()
		if succ == nil {
			if l.tail.CompareAndSwap(n, nil) {
				l.release(n)
				break
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
		l.release(n)
		if hal.CompareAndSwapUint32(&succ.locked, mcsWaiting, mcsGranted) {
			break
		}
		// succ's owner left: pass over it. Its node is this releaser's
		// to recycle once it is past it.
		l.passed.Add(1)
		n = succ
	}
	l.lot.wakeIfParked()
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
