package spin

import "github.com/gohal/gohal/hal"

// TTAS is a test-and-test-and-set spin lock. A waiter reads the lock word
// and spins on [hal.Pause] while it is held, reading it again after each
// pause, and tries the compare-and-swap only when the word reads free:
// waiters keep shared copies of the line instead of stealing it from the
// holder on every attempt. This is the change OpenBSD made to mtx_enter.
// A waiter spins for at most [spinBudget] pauses and while spinning can
// pay, then parks until a releaser wakes it (see the package
// documentation). The zero value is unlocked.
type TTAS struct {
	_    [lineSize]byte
	word uint32
	lot  parkingLot
	_    [lineSize - wordLotSize]byte
}

// Lock locks l, waiting as long as necessary.
func (l *TTAS) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *TTAS) lockSlow() {
	timeout := parkTimeout
	for {
		for i := 0; spinning(i); i++ {
			if hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1) {
				return
			}
			pause()
		}
		timeout = nextTimeout(timeout, l.lot.park(l.held, timeout))
		if hal.CompareAndSwapUint32(&l.word, 0, 1) {
			return
		}
	}
}

// held reports whether l is held, for park.
func (l *TTAS) held() bool { return hal.LoadAcquireUint32(&l.word) != 0 }

// TryLock tries to lock l without waiting and reports whether it
// succeeded. It does not attempt the compare-and-swap when the lock reads
// held.
func (l *TTAS) TryLock() bool {
	return hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1)
}

// Unlock unlocks l with a release store and wakes one parked waiter if
// any registered to park. l may be unlocked by a goroutine other than the
// one that locked it. Unlocking an unlocked TTAS panics.
func (l *TTAS) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked TTAS")
	}
	hal.StoreReleaseUint32(&l.word, 0)
	l.lot.wakeIfParked()
}
