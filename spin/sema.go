package spin

import (
	"runtime"
	"sync/atomic"

	"github.com/gohal/gohal/internal/pin"
)

// sema is a counting semaphore with a FIFO (or, on request, LIFO) queue of
// parked goroutines: the runtime semaphore sync.Mutex parks on, rebuilt
// over the package's parkers. acquire takes a pending release if there is
// one and otherwise parks until release hands it one; release wakes the
// first queued goroutine or, if none has queued yet, leaves a pending
// release for the next acquire. Because a release is never lost, a waiter
// that counted itself in a lock's state word before it parks cannot miss
// the wake-up its count asks for, however its acquire and the releaser's
// release interleave: no timeout is needed.
//
// The queue is guarded by qlock, a spin lock held for a few instructions
// with preemption disabled (pin.ProcPin), never across a call that could
// block. A goroutine that holds a percpu.Pin may therefore release (a
// pinned Unlock wakes a parked waiter) without any risk of parking: a
// sync.Mutex there could park it on contention, which the runtime turns
// into a fatal error. The zero value is an empty semaphore.
type sema struct {
	qlock atomic.Uint32
	// count is the number of releases no acquire has taken yet; guarded
	// by qlock.
	count uint32
	// head and tail are the parked goroutines, in wake-up order; guarded
	// by qlock.
	head, tail *parker
}

// lock takes s's queue lock and disables preemption until unlock. It
// spins: the holder runs a few instructions and cannot be preempted. Where
// nothing can be pinned (the fallback build of internal/pin) the holder
// can be preempted, and a waiter that is not pinned yields now and then.
func (s *sema) lock() {
	for i := 1; ; i++ {
		pin.ProcPin()
		if s.qlock.CompareAndSwap(0, 1) {
			return
		}
		pin.ProcUnpin()
		for s.qlock.Load() != 0 {
			pause()
			if i++; i%spinBudget == 0 && !pin.Pinned && !mayNotSleep() {
				runtime.Gosched()
			}
		}
	}
}

// unlock releases s's queue lock and re-enables preemption.
func (s *sema) unlock() {
	s.qlock.Store(0)
	pin.ProcUnpin()
}

// acquire takes a pending release of s, or parks the calling goroutine
// until a release wakes it. lifo queues it at the front, for a waiter
// that has been woken before and lost the lock again (sync.Mutex's
// rule: it keeps its seniority). The caller must not hold a percpu.Pin.
func (s *sema) acquire(lifo bool) {
	// Take the parker before the queue lock: sync.Pool's slow path takes
	// a mutex, which must not happen with preemption disabled.
	w := parkers.Get().(*parker)
	s.lock()
	if s.count > 0 {
		s.count--
		s.unlock()
		parkers.Put(w)
		return
	}
	w.queued = true
	switch {
	case s.tail == nil:
		s.head, s.tail = w, w
	case lifo:
		w.next = s.head
		s.head = w
	default:
		s.tail.next = w
		s.tail = w
	}
	s.unlock()
	countPark()
	<-w.wake
	parkers.Put(w)
}

// release wakes the first parked goroutine, or leaves a pending release
// for the next acquire when none is parked. It never blocks: the wake-up
// is a send on the parker's channel, whose one slot is empty, and may be
// called by a goroutine that holds a percpu.Pin.
func (s *sema) release() {
	s.lock()
	w := s.head
	if w == nil {
		s.count++
		s.unlock()
		return
	}
	s.head = w.next
	if s.head == nil {
		s.tail = nil
	}
	w.next, w.queued = nil, false
	s.unlock()
	w.wake <- struct{}{}
}
