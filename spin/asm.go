package spin

import "github.com/gohal/gohal/hal"

// Asm is a test-and-test-and-set spin lock, like [TTAS], whose whole
// wait loop runs inside one assembly function, [hal.SpinLockUint32]:
// it reads the lock word, pauses (the architecture's spin hint) and reads
// again while the lock is held, and tries the compare-and-swap when the
// word reads free, all in one call instead of one call per pause and per
// compare-and-swap. The call returns after [spinBudget] pauses without the
// lock; Lock then parks until a releaser wakes it, as every waiter in this
// package does, and calls again, so the waiting policy stays in Go (an
// assembly loop cannot park). The zero value is unlocked.
type Asm struct {
	_    [lineSize]byte
	word uint32
	lot  parkingLot
	_    [lineSize - wordLotSize]byte
}

// Lock locks l, waiting as long as necessary. The uncontended path is one
// inline compare-and-swap, as in TTAS: a call of the assembly loop (and
// hal.SpinLockUint32's check of its budget) costs more than the CAS it
// would run, and the loop only pays once the lock is held.
func (l *Asm) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *Asm) lockSlow() {
	if l.spin(spinBudget) {
		return
	}
	timeout := parkTimeout
	for {
		timeout = nextTimeout(timeout, l.lot.park(l.held, timeout))
		budget := uint32(0)
		if canSpin(0) {
			budget = spinBudget
		}
		if l.spin(budget) {
			return
		}
	}
}

// spin is hal.SpinLockUint32 on l's word with the given budget, except
// where hal.Pause yields (the portable build's SpinLockUint32 pauses with
// it) and the goroutine holds a percpu.Pin: there it is the same loop in
// Go over pause, which never yields.
func (l *Asm) spin(budget uint32) bool {
	if pauseYields && mayNotSleep() {
		for range budget {
			if hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1) {
				return true
			}
			pause()
		}
		return false
	}
	return hal.SpinLockUint32(&l.word, budget)
}

// held reports whether l is held, for park.
func (l *Asm) held() bool { return hal.LoadAcquireUint32(&l.word) != 0 }

// TryLock tries to lock l without waiting and reports whether it
// succeeded: hal.SpinLockUint32 with no budget, which does not attempt the
// compare-and-swap when the lock reads held.
func (l *Asm) TryLock() bool {
	return hal.SpinLockUint32(&l.word, 0)
}

// Unlock unlocks l with a release store and wakes one parked waiter if
// any registered to park. l may be unlocked by a goroutine other than the
// one that locked it. Unlocking an unlocked Asm panics.
func (l *Asm) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked Asm")
	}
	hal.StoreReleaseUint32(&l.word, 0)
	l.lot.wakeIfParked()
}
