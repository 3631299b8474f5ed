package spin

import (
	"sync"
	"sync/atomic"

	"github.com/gohal/gohal/hal"
)

// mcsNode is one waiter's place in an MCS queue. Each pooled node fills
// a cache line of its own, so a waiter spinning on its locked word shares
// the line with nobody.
type mcsNode struct {
	// next is the successor, set by the successor once it has joined
	// the queue behind this node. A pointer, so it goes through
	// sync/atomic, never hal.
	next atomic.Pointer[mcsNode]
	// locked is 1 while the node's owner must wait; the predecessor
	// clears it to hand over the lock.
	locked uint32
	_      [lineSize - 12]byte
}

// nodes recycles queue nodes across all MCS locks: Lock takes one when it
// has to queue and Unlock returns it, so steady-state locking allocates
// nothing. sync.Pool keeps a cache per processor, so the node a goroutine
// gets was usually last used on the same CPU.
var nodes = sync.Pool{New: func() any { return new(mcsNode) }}

// MCS is the Mellor-Crummey–Scott queue lock. Waiters form a linked queue
// through the tail pointer; each spins on the locked word of its own node
// and the holder hands over by clearing its successor's word, so the lock
// is FIFO-fair and a release invalidates one waiter's cache line, not
// every waiter's. The zero value is unlocked.
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
	_      [lineSize - 16]byte
	// own is the node of a holder that found the lock free. It is free
	// for reuse whenever tail is nil: a holder that uses it leaves the
	// queue either by swinging tail from it to nil or by handing over
	// to a successor, after which nothing refers to it.
	own mcsNode
}

// Lock locks l, queueing behind the current holder and waiters.
func (l *MCS) Lock() {
	if l.tail.CompareAndSwap(nil, &l.own) {
		l.holder = &l.own
		return
	}
	l.lockSlow()
}

func (l *MCS) lockSlow() {
	n := nodes.Get().(*mcsNode)
	n.next.Store(nil)
	hal.StoreReleaseUint32(&n.locked, 1)
	pred := l.tail.Swap(n)
	if pred != nil {
		pred.next.Store(n)
		var w waiter
		for hal.LoadAcquireUint32(&n.locked) != 0 {
			w.pause()
		}
	}
	l.holder = n
}

// TryLock locks l only if no goroutine holds it or waits for it, and
// reports whether it did.
func (l *MCS) TryLock() bool {
	if l.tail.Load() == nil && l.tail.CompareAndSwap(nil, &l.own) {
		l.holder = &l.own
		return true
	}
	return false
}

// Unlock unlocks l, handing it to the first waiter if there is one.
// Unlocking an unlocked MCS panics.
func (l *MCS) Unlock() {
	n := l.holder
	if n == nil {
		panic("spin: unlock of unlocked MCS")
	}
	l.holder = nil
	succ := n.next.Load()
	if succ == nil {
		if l.tail.CompareAndSwap(n, nil) {
			l.release(n)
			return
		}
		// A successor has swapped itself into tail but not yet linked
		// itself behind n: it is about to, and does not yield in
		// between, so wait briefly.
		var w waiter
		for succ = n.next.Load(); succ == nil; succ = n.next.Load() {
			w.pause()
		}
	}
	// Clear the link before handing over: once succ runs, n may be
	// reused (l.own as soon as tail is nil again) and must start with
	// no successor.
	n.next.Store(nil)
	hal.StoreReleaseUint32(&succ.locked, 0)
	l.release(n)
}

// release returns a pooled node after its holder is done with it.
func (l *MCS) release(n *mcsNode) {
	if n != &l.own {
		nodes.Put(n)
	}
}
