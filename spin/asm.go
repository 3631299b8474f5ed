package spin

import "github.com/gohal/gohal/hal"

// Asm is a test-and-test-and-set spin lock, like [TTAS], whose whole
// acquire loop runs inside one assembly function, [hal.SpinLockUint32]:
// it reads the lock word, pauses (the architecture's spin hint) and reads
// again while the lock is held, and tries the compare-and-swap when the
// word reads free, all in one call instead of one call per pause and per
// compare-and-swap. The call returns after [spinBudget] pauses without the
// lock; Lock then yields the processor, as every waiter in this package
// does, and calls again, so the oversubscription policy stays in Go (an
// assembly loop cannot yield). The zero value is unlocked.
type Asm struct {
	_    [lineSize]byte
	word uint32
	_    [lineSize - 4]byte
}

// Lock locks l, waiting as long as necessary.
func (l *Asm) Lock() {
	if hal.SpinLockUint32(&l.word, spinBudget) {
		return
	}
	l.lockSlow()
}

func (l *Asm) lockSlow() {
	var w waiter
	for {
		w.yield()
		if hal.SpinLockUint32(&l.word, spinBudget) {
			return
		}
	}
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded: hal.SpinLockUint32 with no budget, which does not attempt the
// compare-and-swap when the lock reads held.
func (l *Asm) TryLock() bool {
	return hal.SpinLockUint32(&l.word, 0)
}

// Unlock unlocks l with a release store. l may be unlocked by a goroutine
// other than the one that locked it. Unlocking an unlocked Asm panics.
func (l *Asm) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked Asm")
	}
	hal.StoreReleaseUint32(&l.word, 0)
}
