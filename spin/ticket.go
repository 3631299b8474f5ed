package spin

import (
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Ticket is a ticket lock, like Concurrency Kit's ck_spinlock_ticket:
// Lock takes the next ticket with a fetch-and-add and waits until the
// lock serves that ticket; Unlock serves the next one. Among waiters that
// are running, the lock is FIFO-fair: tickets are served in the order they
// were taken.
//
// A strict ticket lock hands the lock to the next ticket even when its holder
// is not running, and everyone behind it waits for the scheduler (a convoy:
// with more goroutines than processors, most of them). Ticket is
// preemption-adaptive instead, after the time-published queue locks of He,
// Scherer and Scott (2005): a waiter spins for at most a spinning round (a few
// microseconds) and while spinning can pay, then publishes that it left (a mark
// for its ticket, with its parker) and parks. A releaser that reaches a ticket
// whose waiter left passes over it, serves the next ticket, wakes that waiter
// (exactly the one whose ticket it passed over) and counts the pass in
// [Ticket.PassedOver]; the woken waiter takes a new ticket, at the end of the
// line. So the order is FIFO among waiters that keep spinning, and a waiter
// that left can be overtaken.
//
// The bounded-wait rule (sync.Mutex's 1 ms): a waiter that has already
// slept in this Lock and waited over 1 ms does not leave when it stops
// spinning; it sleeps keeping its place, and the releaser that reaches its
// ticket hands it the lock and wakes it. So a waiter is passed over only
// during its first millisecond. The zero value is unlocked.
//
// A Ticket is 664 bytes on amd64 and 386 (792 on arm64): its two
// counters on a cache line of their own, and 32 sleep slots; sync.Mutex
// is 8.
type Ticket struct {
	_ cacheline.Line
	// next is the next ticket to hand out; serving the ticket allowed
	// in. The lock is free when they are equal. Both wrap. They are
	// fields of Ticket itself, not of an embedded struct padded by a
	// tail, because Lock must inline (TestUncontendedPathsInline) and a
	// promoted field costs the inliner a node per use; the whole line
	// after them keeps the fields below off their line instead.
	next    uint32
	serving uint32
	_       cacheline.Line
	// slots[t % ticketSlots] holds the mark of the waiter holding
	// ticket t while it sleeps (or is about to); see ticketSlot.
	slots  [ticketSlots]ticketSlot
	passed atomic.Uint64
	sched  schedClock
}

// What order costs (Ticket and MCS). A hand-over in order moves the
// lock's cache line, and the data it guards, to the waiter's CPU at every
// acquisition, and the next hand-over moves it back. sync.Mutex and the
// TAS family let a releaser that locks again at once take the lock back
// while the line is still in its cache, so under contention they hand
// over far less often. Wherever moving a line between two CPUs costs more
// than a few uncontended acquisitions, a FIFO lock is slower than
// sync.Mutex at every goroutine count above one, by a factor no design
// removes while it keeps the order. halbench's Handover section
// (-filter '^Handover/') measures that floor: goroutines taking strict
// turns through one cache line, no lock. Passing over waiters that left
// the line lets Ticket and MCS run below it at times, at the price of the
// order.

// A ticketSlot is where the waiter of a ticket t publishes that it
// sleeps. mark is 0 while the slot is free, else slotMark(t, kind):
//
//   - slotClaimed: the waiter owns the slot and is storing its parker in
//     p; it is still in line (a releaser that reaches t serves it).
//   - slotLeft: the waiter left the line and sleeps on p. The releaser that
//     reaches t takes the mark (compare-and-swap to 0), passes over t and
//     wakes p.
//   - slotStay: the waiter sleeps on p keeping its place. The releaser that
//     reaches t takes the mark, leaves t served and wakes p: the lock is
//     the woken goroutine's.
//
// The waiter may take its own mark back (compare-and-swap to 0) and then
// does not sleep; whoever takes the mark owns the one wake-up. p is
// written only by the slot's owner while the mark is slotClaimed, and read
// by a releaser between loading a left or stay mark and taking it, so a
// releaser that takes the mark has read that waiter's parker.
type ticketSlot struct {
	mark atomic.Uint64
	p    atomic.Pointer[parker]
}

// The kinds of a slot mark.
const (
	slotClaimed = 1
	slotLeft    = 2
	slotStay    = 3
)

// slotMark is the mark of a slot whose waiter holds ticket t.
func slotMark(t uint32, kind uint64) uint64 { return uint64(t)<<2 | kind }

// Lock locks l, waiting for its turn. The uncontended path is one inline
// fetch-and-add and one load (sync/atomic's, which hal's amd64 binding is
// too; hal's wrappers cost the inliner 10 more than Lock's budget leaves);
// it calls out only to wait.
func (l *Ticket) Lock() {
	t := atomic.AddUint32(&l.next, 1) - 1
	if atomic.LoadUint32(&l.serving) != t {
		l.wait(t)
	}
}

// wait waits until ticket t is served. A waiter with k tickets ahead of
// it spends its spin budget k times as fast: the goroutines ahead of it
// must all run first, and when goroutines outnumber processors the
// quickest way to get them run is to hand them this processor.
func (l *Ticket) wait(t uint32) {
	if mayNotSleep() {
		l.waitPinned(t)
		return
	}
	var w *parker
	defer func() {
		if w != nil {
			parkers.Put(w)
		}
	}()
	var slept time.Time // when this Lock first slept
	for {
		for spent := 0; ; {
			s := hal.LoadAcquireUint32(&l.serving)
			if s == t {
				return
			}
			if spent >= spinBudget || !canSpin(0) {
				if !strictFIFO() {
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
		slot := &l.slots[t%ticketSlots]
		if !slot.mark.CompareAndSwap(0, slotMark(t, slotClaimed)) {
			// Another waiter sleeps in this slot: keep the place.
			var w waiter
			w.spins = spinBudget // yield now
			w.pause()
			continue
		}
		if w == nil {
			w = parkers.Get().(*parker)
		}
		slot.p.Store(w)
		kind := uint64(slotLeft)
		if slept.IsZero() {
			slept = time.Now()
		} else if time.Since(slept) > starvationThreshold {
			kind = slotStay // bounded wait: keep the place
		}
		mark := slotMark(t, kind)
		// A swap, so that the load of serving below is ordered after
		// it: either this waiter sees its turn, or the releaser that
		// serves t (a swap, then a load of the slot) sees the mark.
		slot.mark.Swap(mark)
		if atomic.LoadUint32(&l.serving) == t && slot.mark.CompareAndSwap(mark, 0) {
			return // served meanwhile: the mark is taken back, nobody wakes this waiter
		}
		<-w.wake // the releaser that took the mark woke it
		if kind == slotStay {
			return // handed over while asleep
		}
		// Passed over: join the end of the line, but first, if another
		// goroutine is waiting for this processor, let it run (as MCS).
		if !canSpin(0) {
			yield()
		}
		t = hal.FetchAddUint32(&l.next, 1)
		if hal.LoadAcquireUint32(&l.serving) == t {
			return
		}
	}
}

// waitPinned is wait for a goroutine that holds a percpu.Pin: it must not
// park or yield, so it keeps its place and spins until served. That ends
// only if the holders run (see the package documentation for the rule);
// past pinnedWaitLimit it leaves the line (a left mark without a parker:
// the releaser passes over it and wakes nobody) and panics, so the panic
// leaves the lock working.
func (l *Ticket) waitPinned(t uint32) {
	var c pinnedClock
	for hal.LoadAcquireUint32(&l.serving) != t {
		pause()
		if !c.timedOut() {
			continue
		}
		slot := &l.slots[t%ticketSlots]
		if !slot.mark.CompareAndSwap(0, slotMark(t, slotClaimed)) {
			continue // the slot is taken: try again after the next pause
		}
		slot.p.Store(nil)
		mark := slotMark(t, slotLeft)
		slot.mark.Swap(mark)
		if atomic.LoadUint32(&l.serving) == t && slot.mark.CompareAndSwap(mark, 0) {
			return // served just now
		}
		pinnedWaitPanic() // the releaser that reaches t passes over it
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

// Unlock serves the next ticket, passing over tickets whose waiters left
// (and waking each of them), or hands the lock to a waiter that sleeps
// keeping its place and wakes it. l may be unlocked by a goroutine other
// than the one that locked it. Unlocking an unlocked Ticket panics.
//
// Unlock serves the next ticket with an atomic swap (an atomic
// read-modify-write, as sync.Mutex's Unlock is an atomic add), which
// orders the loads after it: the look at next, and at the ticket's slot.
// A plain release store would not: a goroutine could take that ticket
// just after the releaser looked at next, publish that it sleeps, and
// still read the old serving (the store waiting in the releaser's store
// buffer, or the releaser preempted between its load and its store); the
// releaser, having seen nobody, would never look at the slot, and the
// waiter would sleep forever. With the swap, either the waiter sees its
// turn, or the releaser sees the ticket taken and its mark.
//
// An Unlock that hands the lock to a waiter may then yield the processor
// (runtime.Gosched), at most once per 100 µs per lock: see "Scheduling
// points" in the package documentation.
//
// When nobody holds the next ticket, Unlock is one call (it does not
// inline: its loads, swap and misuse check cost the inliner more than its
// budget) and calls nothing else; it calls handOver only to hand the lock
// to a waiter.
func (l *Ticket) Unlock() {
	s := hal.LoadAcquireUint32(&l.serving)
	if hal.LoadAcquireUint32(&l.next) == s {
		panic("spin: unlock of unlocked Ticket")
	}
	if s++; l.serve(s) {
		l.handOver(s)
	}
}

// serve serves ticket s and reports whether a goroutine holds it; if none
// does, the lock is free.
func (l *Ticket) serve(s uint32) bool {
	hal.SwapUint32(&l.serving, s)
	return hal.LoadAcquireUint32(&l.next) != s
}

// handOver completes the handover of ticket s, which the releaser has
// just served (swapped into serving) and which a goroutine holds: it
// serves the next ticket while the waiter of the one served has left,
// waking every waiter it passes over; a waiter that sleeps keeping its
// place gets the lock and is woken.
func (l *Ticket) handOver(s uint32) {
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
		slot := &l.slots[s%ticketSlots]
		m := slot.mark.Load()
		if m != slotMark(s, slotLeft) && m != slotMark(s, slotStay) {
			// s's waiter is in line: it has the lock. serving counts
			// the handovers for the scheduling point (schedpoint.go).
			yield = l.sched.due(s)
			return
		}
		w := slot.p.Load()
		if !slot.mark.CompareAndSwap(m, 0) {
			return // s's waiter took its mark back: it has the lock
		}
		if m == slotMark(s, slotStay) {
			w.unpark() // handed over to a sleeper
			return
		}
		l.passed.Add(1)
		switch {
		case w == nil: // a pinned waiter that gave up (waitPinned)
		case nlater < len(later):
			later[nlater] = w
			nlater++
		default:
			w.unpark()
		}
		if s++; !l.serve(s) {
			return // the lock is free
		}
	}
}

// PassedOver returns how many times a releaser of l passed over a waiter
// that had left the line (stopped spinning and parked): the price of
// Ticket's preemption adaptivity in fairness.
func (l *Ticket) PassedOver() uint64 { return l.passed.Load() }
