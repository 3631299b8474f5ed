package spin

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

// ticketSlots is how many waiters of one Ticket lock can have left the
// line at the same time: a waiter with ticket t publishes that it left in
// slot t % ticketSlots. A waiter whose slot is taken (more than
// ticketSlots goroutines hold tickets) keeps its place and waits with
// brief yields, as every Ticket waiter did before waiters could park.
const ticketSlots = 32

// Ticket is a ticket lock, like Concurrency Kit's ck_spinlock_ticket:
// Lock takes the next ticket with a fetch-and-add and waits until the
// lock serves that ticket; Unlock serves the next one. Among waiters that
// are running, the lock is FIFO-fair: tickets are served in the order they
// were taken.
//
// A strict ticket lock hands the lock to the next ticket even when its
// holder is not running, and everyone behind it waits for the scheduler
// (a convoy: with more goroutines than processors, most of them). Ticket
// is preemption-adaptive instead, after the time-published queue locks of
// He, Scherer and Scott (2005): a waiter spins for at most [spinBudget]
// pauses and while spinning can pay, then publishes that it left (a mark
// for its ticket) and parks. A releaser that reaches a ticket whose waiter
// left passes over it, serves the next ticket, and counts the pass in
// [Ticket.PassedOver]; the passed-over waiter takes a new ticket (at the
// end of the line) when it runs again, after yielding its processor if
// another goroutine is waiting for it. A parked waiter that is woken
// before its turn takes its mark back and keeps its place. So the order is
// FIFO among waiters that keep spinning, and a waiter that left can be
// overtaken. The zero value is unlocked.
type Ticket struct {
	_ [lineSize]byte
	// next is the next ticket to hand out; serving the ticket allowed
	// in. The lock is free when they are equal. Both wrap.
	next    uint32
	serving uint32
	lot     parkingLot
	_       [lineSize - ticketHotSize]byte
	// left[t % ticketSlots] holds leftMark(t) while the waiter holding
	// ticket t has left the line; 0 when the slot is free.
	left   [ticketSlots]atomic.Uint64
	passed atomic.Uint64
}

// ticketHotSize is the size of Ticket's fields on its first line.
const ticketHotSize = unsafe.Sizeof(struct {
	next, serving uint32
	lot           parkingLot
}{})

// leftMark is the value of a slot whose waiter, holding ticket t, left.
func leftMark(t uint32) uint64 { return uint64(t)<<1 | 1 }

// Lock locks l, waiting for its turn.
func (l *Ticket) Lock() {
	t := hal.FetchAddUint32(&l.next, 1)
	if hal.LoadAcquireUint32(&l.serving) == t {
		return
	}
	l.wait(t)
}

// wait waits until ticket t is served. A waiter with k tickets ahead of
// it spends its spin budget k times as fast: the goroutines ahead of it
// must all run first, and when goroutines outnumber processors the
// quickest way to get them run is to hand them this processor.
func (l *Ticket) wait(t uint32) {
	timeout := parkTimeout
	for {
		for spent := 0; ; {
			s := hal.LoadAcquireUint32(&l.serving)
			if s == t {
				return
			}
			if spent >= spinBudget || !canSpin(0) {
				if !strictFIFO {
					break
				}
				var w waiter // tests only: wait in line with brief yields
				w.spins = spinBudget
				w.pause()
				continue
			}
			spent += int(t - s)
			pause()
		}
		slot := &l.left[t%ticketSlots]
		mark := leftMark(t)
		if !slot.CompareAndSwap(0, mark) {
			// Another waiter has left in this slot: keep the place.
			var w waiter
			w.spins = spinBudget // yield now
			w.pause()
			continue
		}
		// From here the releaser that reaches t may pass over it, and a
		// mark it took away says so.
		for {
			how := l.lot.park(func() bool {
				return slot.Load() == mark && hal.LoadAcquireUint32(&l.serving) != t
			}, timeout)
			timeout = nextTimeout(timeout, how)
			if how != timedOut {
				break
			}
		}
		// Woken, served, or passed over. If the mark is still there, take
		// it back: the waiter is in line again with the same ticket (and
		// sees at once if it is being served).
		if slot.CompareAndSwap(mark, 0) {
			continue
		}
		// Passed over: join the end of the line, but first, if another
		// goroutine is waiting for this processor, let it run. Otherwise
		// a waiter that keeps leaving (spinning cannot pay while that
		// goroutine waits) and being passed over at once never sleeps and
		// never lets it run either, and every pass costs the releaser.
		if !canSpin(0) {
			yield()
		}
		t = hal.FetchAddUint32(&l.next, 1)
		if hal.LoadAcquireUint32(&l.serving) == t {
			return
		}
	}
}

// TryLock takes a ticket only if it would be served at once, and reports
// whether it did.
func (l *Ticket) TryLock() bool {
	s := hal.LoadAcquireUint32(&l.serving)
	// serving never passes next, so next == s at the compare-and-swap
	// means the lock is free.
	return hal.CompareAndSwapUint32(&l.next, s, s+1)
}

// Unlock serves the next ticket, passing over tickets whose waiters left,
// and wakes one parked waiter if any registered to park. l may be
// unlocked by a goroutine other than the one that locked it. Unlocking an
// unlocked Ticket panics.
//
// When no other ticket was taken, Unlock serves the next one with a
// release store, as a strict ticket lock does. Otherwise it serves each
// ticket with an atomic swap, which orders the look at that ticket's slot
// after it: either the waiter sees its turn, or the releaser sees its mark.
func (l *Ticket) Unlock() {
	s := hal.LoadAcquireUint32(&l.serving)
	n := hal.LoadAcquireUint32(&l.next)
	if n == s {
		panic("spin: unlock of unlocked Ticket")
	}
	s++
	if n == s {
		hal.StoreReleaseUint32(&l.serving, s)
	} else {
		l.handOver(s)
	}
	l.lot.wakeIfParked()
}

// handOver serves ticket s, and the next while the waiter of the one
// served has left.
func (l *Ticket) handOver(s uint32) {
	for {
		hal.SwapUint32(&l.serving, s)
		if hal.LoadAcquireUint32(&l.next) == s {
			return // nobody holds ticket s: the lock is free
		}
		slot := &l.left[s%ticketSlots]
		mark := leftMark(s)
		if slot.Load() != mark || !slot.CompareAndSwap(mark, 0) {
			return // s's waiter is in line, or took its mark back: it has the lock
		}
		l.passed.Add(1)
		s++
	}
}

// PassedOver returns how many times a releaser of l passed over a waiter
// that had left the line (stopped spinning and parked): the price of
// Ticket's preemption adaptivity in fairness.
func (l *Ticket) PassedOver() uint64 { return l.passed.Load() }
