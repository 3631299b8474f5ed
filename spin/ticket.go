package spin

import "github.com/gohal/gohal/hal"

// Ticket is a FIFO-fair ticket lock, like Concurrency Kit's
// ck_spinlock_ticket: Lock takes the next ticket with a fetch-and-add and
// waits until the lock serves that ticket; Unlock serves the next one.
// Goroutines acquire the lock in the order they asked for it, so none
// starves, but a waiter whose turn has come and who is not running holds
// up everyone behind it (the convoy that the yield after each spin budget
// keeps from turning into a stall). The zero value is unlocked.
type Ticket struct {
	_ [lineSize]byte
	// next is the next ticket to hand out; serving the ticket allowed
	// in. The lock is free when they are equal. Both wrap.
	next    uint32
	serving uint32
	_       [lineSize - 8]byte
}

// Lock locks l, waiting for its turn.
func (l *Ticket) Lock() {
	t := hal.FetchAddUint32(&l.next, 1)
	if hal.LoadAcquireUint32(&l.serving) == t {
		return
	}
	l.wait(t)
}

// wait spins until ticket t is served. A waiter with k tickets ahead of it
// spends its spin budget k times as fast: the goroutines ahead of it must
// all run first, and when goroutines outnumber processors the quickest way
// to get them run is to hand them this processor.
func (l *Ticket) wait(t uint32) {
	var w waiter
	for {
		s := hal.LoadAcquireUint32(&l.serving)
		if s == t {
			return
		}
		w.pauseWeighted(int(t - s))
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

// Unlock serves the next ticket with a release store. l may be unlocked
// by a goroutine other than the one that locked it. Unlocking an unlocked
// Ticket panics.
func (l *Ticket) Unlock() {
	s := hal.LoadAcquireUint32(&l.serving)
	if hal.LoadAcquireUint32(&l.next) == s {
		panic("spin: unlock of unlocked Ticket")
	}
	hal.StoreReleaseUint32(&l.serving, s+1)
}
