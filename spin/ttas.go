package spin

import "github.com/gohal/gohal/hal"

// ttasPollPauses is how many pauses a TTAS waiter spends between reads of
// the lock word. Every read of a held lock pulls its line into the
// waiter's cache in shared state, so the holder's next write (its release,
// or its next acquisition) must take the line back across the
// interconnect. Reading after every pause (about 30 ns on the 2-vCPU amd64
// machine gohal is measured on) did that several times per 50 ns critical
// section: 2-goroutine throughput was about half that of reading every 4th
// pause, which still notices a release within about 120 ns.
const ttasPollPauses = 4

// TTAS is a test-and-test-and-set spin lock. A waiter reads the lock word
// and spins on [hal.Pause] while it is held (a few pauses between reads),
// trying the compare-and-swap only when the word reads free: waiters keep
// shared copies of the line instead of stealing it from the holder on
// every attempt. This is the change OpenBSD made to mtx_enter. The zero
// value is unlocked.
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
			w.pauseN(ttasPollPauses)
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
