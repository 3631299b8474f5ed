package spin

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// TTAS is a test-and-test-and-set spin lock. A waiter reads the lock word
// and spins on [hal.Pause] while it is held, reading it again after each
// pause, and tries the compare-and-swap only when the word reads free:
// waiters keep shared copies of the line instead of stealing it from the
// holder on every attempt. This is the change OpenBSD made to mtx_enter.
// A waiter spins for at most a few microseconds and while spinning can
// pay, then parks until a releaser wakes it (see the package
// documentation). The zero value is unlocked.
//
// A waiter reads the word after every pause, so with a short critical
// section each read takes the line from the holder, whose next Lock or
// Unlock must fetch it back, and a waiter often wins the lock just
// released, moving the guarded data to its CPU too. Where several
// goroutines hammer a short critical section that can make TTAS (and
// [Asm]) slower than sync.Mutex; [Backoff] reads the word less often for
// that reason. halbench -filter '^Lock/' measures both on your machine.
//
// A TTAS is two cache lines, the lock word's and padding before it: 128
// bytes on amd64 and 386, 256 on arm64, against sync.Mutex's 8.
type TTAS struct {
	_ cacheline.Line
	s tasState
	_ [cacheline.Size - unsafe.Sizeof(tasState{})%cacheline.Size]byte
}

// Lock locks l, waiting as long as necessary. The uncontended path is one
// inline compare-and-swap, as in sync.Mutex.
func (l *TTAS) Lock() {
	if hal.CompareAndSwapUint32(&l.s.state, 0, tasLocked) {
		return
	}
	l.s.lockSlow(policyTTAS)
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded. It does not attempt the compare-and-swap when the lock reads
// held.
func (l *TTAS) TryLock() bool { return l.s.tryLock() }

// Unlock unlocks l, and wakes a parked waiter (or hands it the lock, see the
// package documentation) if one waits. While a woken waiter has not yet run,
// an Unlock on its processor may yield to it ("Scheduling points" in the
// package documentation). The uncontended path is one inline atomic add. l
// may be unlocked by a goroutine other than the one that locked it.
// Unlocking an unlocked TTAS panics.
func (l *TTAS) Unlock() {
	if new := atomic.AddUint32(&l.s.state, ^uint32(tasLocked-1)); new != 0 {
		l.unlockSlow(new)
	}
}

// unlockSlow is Unlock's call out when someone waits (kept apart so that
// Unlock inlines).
//
//go:noinline
func (l *TTAS) unlockSlow(new uint32) { l.s.unlockSlow(new, policyTTAS) }
