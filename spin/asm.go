package spin

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Asm is a test-and-test-and-set spin lock, like [TTAS], whose wait loop
// runs inside one assembly function, [hal.SpinLockUint32]: it reads the
// lock word, pauses (the architecture's spin hint) and reads again while
// the lock is held, and tries the compare-and-swap when the word reads
// free, all in one call instead of one call per pause and per
// compare-and-swap. Each call spends at most 16 pauses; between calls
// Lock reads the word again in Go and, past its spin budget, parks until
// a releaser wakes it, as every waiter in this package does, so the
// waiting policy stays in Go (an assembly loop cannot park).
// hal.SpinLockUint32 takes only a word that is 0, so Asm's waiters call
// it while nobody is counted in the word; otherwise they run the same
// loop in Go, as TTAS. The zero value is unlocked.
//
// A Asm is two cache lines, the lock word's and padding before it: 128
// bytes on amd64 and 386, 256 on arm64, against sync.Mutex's 8.
type Asm struct {
	_ cacheline.Line
	s tasState
	_ [cacheline.Size - unsafe.Sizeof(tasState{})%cacheline.Size]byte
}

// Lock locks l, waiting as long as necessary. The uncontended path is one
// inline compare-and-swap, as in TTAS: a call of the assembly loop (and
// hal.SpinLockUint32's check of its budget) costs more than the CAS it
// would run, and the loop only pays once the lock is held.
func (l *Asm) Lock() {
	if hal.CompareAndSwapUint32(&l.s.state, 0, tasLocked) {
		return
	}
	l.s.lockSlow(policyAsm)
}

// TryLock tries to lock l without waiting and reports whether it
// succeeded. It does not attempt the compare-and-swap when the lock reads
// held.
func (l *Asm) TryLock() bool { return l.s.tryLock() }

// Unlock unlocks l, and wakes a parked waiter (or hands it the lock, see the
// package documentation) if one waits. While a woken waiter has not yet run,
// an Unlock on its processor may yield to it ("Scheduling points" in the
// package documentation). The uncontended path is one inline atomic add. l
// may be unlocked by a goroutine other than the one that locked it.
// Unlocking an unlocked Asm panics.
func (l *Asm) Unlock() {
	if new := atomic.AddUint32(&l.s.state, ^uint32(tasLocked-1)); new != 0 {
		l.unlockSlow(new)
	}
}

// unlockSlow is Unlock's call out when someone waits (kept apart so that
// Unlock inlines).
//
//go:noinline
func (l *Asm) unlockSlow(new uint32) { l.s.unlockSlow(new, policyAsm) }
