package spin

import "github.com/gohal/gohal/hal"

// TAS is a test-and-set spin lock: Lock retries a compare-and-swap of the
// lock word from 0 to 1 until it wins, without pausing, for at most
// [spinBudget] attempts and while spinning can pay, then parks until a
// releaser wakes it (see the package documentation). Every failed attempt
// takes the cache line exclusive, so spinning waiters slow the holder
// down; it is the baseline the other locks improve on. The zero value is
// unlocked.
type TAS struct {
	_    [lineSize]byte
	word uint32
	lot  parkingLot
	_    [lineSize - wordLotSize]byte
}

// Lock locks l, waiting as long as necessary.
func (l *TAS) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *TAS) lockSlow() {
	timeout := parkTimeout
	for {
		for i := 0; spinning(i); i++ {
			if hal.CompareAndSwapUint32(&l.word, 0, 1) {
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
func (l *TAS) held() bool { return hal.LoadAcquireUint32(&l.word) != 0 }

// TryLock tries to lock l without waiting and reports whether it
// succeeded.
func (l *TAS) TryLock() bool {
	return hal.CompareAndSwapUint32(&l.word, 0, 1)
}

// Unlock unlocks l with a release store and wakes one parked waiter if
// any registered to park. As with sync.Mutex, l may be unlocked by a
// goroutine other than the one that locked it. Unlocking an unlocked TAS
// panics.
func (l *TAS) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked TAS")
	}
	hal.StoreReleaseUint32(&l.word, 0)
	l.lot.wakeIfParked()
}
