package spin

import "github.com/gohal/gohal/hal"

// TTAS is a test-and-test-and-set spin lock. A waiter reads the lock word
// and spins on [hal.Pause] while it is held, reading it again after each
// pause, and tries the compare-and-swap only when the word reads free:
// waiters keep shared copies of the line instead of stealing it from the
// holder on every attempt. This is the change OpenBSD made to mtx_enter.
// The zero value is unlocked.
type TTAS struct {
	_    [lineSize]byte
	word uint32
	_    [lineSize - 4]byte
}

// Lock locks l, waiting as long as necessary.
func (l *TTAS) Lock() {
	if hal.CompareAndSwapUint32(&l.word, 0, 1) {
		return
	}
	l.lockSlow()
}

func (l *TTAS) lockSlow() {
	var w waiter
	for {
		for hal.LoadAcquireUint32(&l.word) != 0 {
			w.pause()
		}
		if hal.CompareAndSwapUint32(&l.word, 0, 1) {
			return
		}
	}
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded. It does not attempt the compare-and-swap when the lock reads
// held.
func (l *TTAS) TryLock() bool {
	return hal.LoadAcquireUint32(&l.word) == 0 && hal.CompareAndSwapUint32(&l.word, 0, 1)
}

// Unlock unlocks l with a release store. l may be unlocked by a goroutine
// other than the one that locked it. Unlocking an unlocked TTAS panics.
func (l *TTAS) Unlock() {
	if hal.LoadAcquireUint32(&l.word) == 0 {
		panic("spin: unlock of unlocked TTAS")
	}
	hal.StoreReleaseUint32(&l.word, 0)
}
