package spin

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Backoff is a test-and-test-and-set spin lock with bounded exponential
// backoff, like Concurrency Kit's ck_backoff_eb: after each failed attempt a
// waiter pauses ([hal.Pause]) for a time that doubles, from about 80 ns up to
// about 5 µs, before it looks at the lock word again. Fewer waiters then rush
// at the line at the moment of release, at the price of a waiter sometimes
// noticing a release late. Once a waiter has paused for a spinning round
// (spinWait, a few microseconds), or when spinning cannot pay, it parks until a
// releaser wakes it (see the package documentation). The zero value is
// unlocked.
//
// A Backoff is two cache lines, the lock word's and padding before it: 128
// bytes on amd64 and 386, 256 on arm64, against sync.Mutex's 8.
type Backoff struct {
	_ cacheline.Line
	s tasState
	_ [cacheline.Size - unsafe.Sizeof(tasState{})%cacheline.Size]byte
}

// Lock locks l, waiting as long as necessary. The uncontended path is one
// inline compare-and-swap, as in sync.Mutex.
func (l *Backoff) Lock() {
	if hal.CompareAndSwapUint32(&l.s.state, 0, tasLocked) {
		return
	}
	l.s.lockSlow(policyBackoff)
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded.
func (l *Backoff) TryLock() bool { return l.s.tryLock() }

// Unlock unlocks l, and wakes a parked waiter (or hands it the lock, see the
// package documentation) if one waits. While a woken waiter has not yet run,
// an Unlock on its processor may yield to it ("Scheduling points" in the
// package documentation). The uncontended path is one inline atomic add. l
// may be unlocked by a goroutine other than the one that locked it.
// Unlocking an unlocked Backoff panics.
func (l *Backoff) Unlock() {
	if new := atomic.AddUint32(&l.s.state, ^uint32(tasLocked-1)); new != 0 {
		l.unlockSlow(new)
	}
}

// unlockSlow is Unlock's call out when someone waits (kept apart so that
// Unlock inlines).
//
//go:noinline
func (l *Backoff) unlockSlow(new uint32) { l.s.unlockSlow(new, policyBackoff) }
