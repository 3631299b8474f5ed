package spin

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// TAS is a test-and-set spin lock: a waiter retries a compare-and-swap that
// takes the lock, without pausing, for at most a few microseconds' worth of
// attempts and while spinning can pay, then parks until a releaser wakes it
// (see the package documentation). Every failed attempt takes the cache line
// exclusive, so spinning waiters slow the holder down; it is the baseline the
// other locks improve on. The zero value is unlocked.
//
// A TAS is two cache lines, the lock word's and padding before it: 128
// bytes on amd64 and 386, 256 on arm64, against sync.Mutex's 8.
type TAS struct {
	_ cacheline.Line
	s tasState
	_ [cacheline.Size - unsafe.Sizeof(tasState{})%cacheline.Size]byte
}

// Lock locks l, waiting as long as necessary. The uncontended path is one
// inline compare-and-swap, as in sync.Mutex.
func (l *TAS) Lock() {
	if hal.CompareAndSwapUint32(&l.s.state, 0, tasLocked) {
		return
	}
	l.s.lockSlow(policyTAS)
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded.
func (l *TAS) TryLock() bool { return l.s.tryLock() }

// Unlock unlocks l, and wakes a parked waiter (or hands it the lock, see the
// package documentation) if one waits. While a woken waiter has not yet run,
// an Unlock on its processor may yield to it ("Scheduling points" in the
// package documentation). The uncontended path is one inline atomic add
// (sync/atomic's, which hal's amd64 binding is too; hal's wrapper costs the
// inliner 5 more than Unlock's budget leaves), as in sync.Mutex. As with
// sync.Mutex, l may be unlocked by a goroutine other than the one that
// locked it. Unlocking an unlocked TAS panics.
func (l *TAS) Unlock() {
	if new := atomic.AddUint32(&l.s.state, ^uint32(tasLocked-1)); new != 0 {
		l.unlockSlow(new)
	}
}

// unlockSlow is Unlock's call out when someone waits (kept apart so that
// Unlock inlines).
//
//go:noinline
func (l *TAS) unlockSlow(new uint32) { l.s.unlockSlow(new, policyTAS) }
