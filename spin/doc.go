// Package spin provides spin locks built on gohal's hardware layer, after
// OpenBSD's mtx_enter and Concurrency Kit's ck_spinlock family:
//
//   - [TAS]: test-and-set, a compare-and-swap retried until it wins. Every
//     waiter writes the lock's cache line on every attempt.
//   - [TTAS]: test-and-test-and-set. A waiter reads the lock word and spins
//     on [hal.Pause] while it is held, and tries the compare-and-swap only
//     when the word looks free, so waiters share the line read-only until
//     the holder releases it (the change OpenBSD made to mtx_enter).
//   - [Asm]: TTAS whose whole acquire loop (test, pause, compare-and-swap)
//     is one assembly function, [hal.SpinLockUint32], generated per
//     architecture like every hal op: one call per acquisition instead of
//     one per pause and per compare-and-swap. It returns after a budget of
//     pauses, and Lock yields in Go between calls.
//   - [Backoff]: TTAS that waits a bounded, exponentially growing number of
//     pauses after each failed attempt.
//   - [Ticket]: a FIFO-fair ticket lock.
//   - [MCS]: the Mellor-Crummey–Scott queue lock: each waiter spins on its
//     own queue node, so a release touches one waiter's cache line only.
//
// Every lock is a [sync.Locker] with TryLock (the [Locker] interface), its
// zero value is unlocked, and padding keeps its lock word on a cache line
// of its own. A lock must not be copied after first use.
//
// # Oversubscription
//
// A spinning waiter only makes sense while the holder is running on
// another CPU. When goroutines outnumber CPUs the holder (or, for the FIFO
// locks, the waiter whose turn it is) may be descheduled, and spinning then
// only delays it. Every waiter in this package therefore spins for a
// bounded budget of pauses and then yields its processor with
// runtime.Gosched before spinning again, so eight goroutines on two CPUs
// still make progress, even through the FIFO handoffs of [Ticket] and
// [MCS]. [Asm] spends its budget inside [hal.SpinLockUint32], which
// returns when the budget runs out, and yields between calls.
//
// # Memory ordering
//
// Lock has acquire and Unlock release semantics, as for sync.Mutex: what a
// goroutine wrote before Unlock is visible to the next goroutine after its
// Lock. The lock words are integers driven through hal's operations; the
// MCS queue's pointers go through sync/atomic, because hal's assembly
// would bypass the garbage collector's write barrier.
package spin

import "sync"

// Locker is a [sync.Locker] that can also try to lock without waiting.
// Every lock in this package, and sync.Mutex, implements it.
type Locker interface {
	sync.Locker
	// TryLock tries to lock without waiting and reports whether it
	// succeeded.
	TryLock() bool
}
