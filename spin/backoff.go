package spin

import "github.com/gohal/gohal/hal"

// Backoff bounds: a waiter pauses minBackoff times after its first failed
// attempt, twice as long after each further failure, up to maxBackoff.
const (
	minBackoff = 4
	maxBackoff = 256
)

// Backoff is a test-and-test-and-set spin lock with bounded exponential
// backoff, like Concurrency Kit's ck_backoff_eb: after each failed
// attempt a waiter pauses for a number of [hal.Pause] steps that doubles,
// from 4 up to 256, before it looks at the lock word again. Fewer waiters
// then rush at the line at the moment of release, at the price of a
// waiter sometimes noticing a release late. Once a waiter has paused
// [spinBudget] times, or when spinning cannot pay, it parks until a
// releaser wakes it (see the package documentation). The zero value is
// unlocked.
type Backoff struct {
	_    [lineSize]byte
	word uint32
	lot  parkingLot
	_    [lineSize - wordLotSize]byte
}

// Lock locks l, waiting as long as necessary.
func (l *Backoff) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *Backoff) lockSlow() {
	timeout := parkTimeout
	for {
		delay := minBackoff
		for spent := 0; spent < spinBudget && canSpin(0); spent += delay {
			for range delay {
				pause()
			}
			if delay < maxBackoff {
				delay <<= 1
			}
			if hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1) {
				return
			}
		}
		timeout = nextTimeout(timeout, l.lot.park(l.held, timeout))
		if hal.CompareAndSwapUint32(&l.word, 0, 1) {
			return
		}
	}
}

// held reports whether l is held, for park.
func (l *Backoff) held() bool { return hal.LoadAcquireUint32(&l.word) != 0 }

// TryLock tries to lock l without waiting and reports whether it
// succeeded.
func (l *Backoff) TryLock() bool {
	return hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1)
}

// Unlock unlocks l with a release store and wakes one parked waiter if
// any registered to park. l may be unlocked by a goroutine other than the
// one that locked it. Unlocking an unlocked Backoff panics.
func (l *Backoff) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked Backoff")
	}
	hal.StoreReleaseUint32(&l.word, 0)
	l.lot.wakeIfParked()
}
