package spin

import "github.com/gohal/gohal/hal"

// TAS is a test-and-set spin lock: Lock retries a compare-and-swap of the
// lock word from 0 to 1 until it wins, without pausing, yielding the
// processor after every [spinBudget] failures. Every failed attempt takes
// the cache line exclusive, so waiters slow the holder down; it is the
// baseline the other locks improve on. The zero value is unlocked.
type TAS struct {
	_    [lineSize]byte
	word uint32
	_    [lineSize - 4]byte
}

// Lock locks l, waiting as long as necessary.
func (l *TAS) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *TAS) lockSlow() {
	var w waiter
	for !hal.CompareAndSwapUint32(&l.word, 0, 1) {
		w.spent()
	}
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded.
func (l *TAS) TryLock() bool {
	return hal.CompareAndSwapUint32(&l.word, 0, 1)
}

// Unlock unlocks l with a release store. As with sync.Mutex, l may be
// unlocked by a goroutine other than the one that locked it. Unlocking an
// unlocked TAS panics.
func (l *TAS) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked TAS")
	}
	hal.StoreReleaseUint32(&l.word, 0)
}
