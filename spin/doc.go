// Package spin provides spin locks on gohal's hardware layer, to measure
// against sync.Mutex and to use where they win.
//
//   - [TAS]: test-and-set, a compare-and-swap retried until it wins.
//   - [TTAS]: test-and-test-and-set: waiters read the word and pause
//     while it is held, and try the compare-and-swap only when it reads
//     free (OpenBSD's mtx_enter).
//   - [Asm]: TTAS whose wait loop is one assembly call,
//     [hal.SpinLockUint32].
//   - [Backoff]: TTAS that pauses longer after each failed attempt.
//   - [Ticket]: a ticket lock, FIFO among waiters that are running.
//   - [MCS]: the Mellor-Crummey–Scott queue lock: each waiter spins on its
//     own node, FIFO among waiters that are running.
//
// Every lock is a [Locker] (a [sync.Locker] with TryLock), its zero value
// is unlocked, and it must not be copied after first use (go vet's
// copylocks check reports copies). Padding keeps each lock's hot words on
// cache lines of their own, so a lock is far larger than sync.Mutex's
// 8 bytes: each type's documentation gives its size. Lock has acquire
// and Unlock release semantics, as for sync.Mutex.
//
// # Which lock
//
// Uncontended, every lock costs about what sync.Mutex does: one atomic
// operation each way, inline but for Ticket's Unlock. Under contention
// Backoff is the one that keeps up with sync.Mutex; TTAS and Asm lose to
// it when several goroutines hammer a short critical section. Ticket and
// MCS hand the lock over in order, which moves its cache line (and the
// data it guards) to another CPU at every acquisition, so they are slower
// than sync.Mutex whenever more than one goroutine locks; they buy order,
// not speed. go run ./cmd/halbench -filter '^Lock/' measures all of them
// beside sync.Mutex on your machine, and halbench lockwait their waits.
//
// # Waiting
//
// A waiter spins for a few microseconds (a duration, not a count of
// pauses: tuning.go), and only while the runtime says spinning can pay,
// the check sync.Mutex makes; then it parks until a releaser wakes it.
// No wake-up is lost and no park needs a timeout. Waits are bounded as
// sync.Mutex bounds them: a waiter that has waited over 1 ms is handed
// the lock ahead of newcomers, so nobody barges past it again.
//
// Ticket and MCS are preemption-adaptive (He, Scherer and Scott, HiPC
// 2005): a waiter that stops spinning leaves the line, and the releaser
// passes over it to a waiter that is still running rather than hand the
// lock to a goroutine that is not ([Ticket.PassedOver] counts it); a
// strict FIFO lock convoys whenever goroutines outnumber processors.
//
// # Scheduling points
//
// A processor runs the goroutines queued on it, and its expired timers,
// only when it enters the scheduler, so an Unlock sometimes yields
// (runtime.Gosched): a TAS-family Unlock on the processor where a waiter
// it woke has waited over 4 µs to run, or one that hands the lock to a
// starving waiter; a Ticket or MCS Unlock that hands over, at most once
// per 100 µs of contended locking. A releaser that holds a percpu.Pin
// never yields. The design notes are beside the code, in tasstate.go
// (wakeMark) and schedpoint.go.
//
// # Locking while pinned
//
// A goroutine that holds a percpu.Pin cannot park, so its Lock spins
// until the lock is its own. That ends only if the holder keeps running,
// which only a pinned holder surely does. The rule, as for a kernel's
// spin lock taken with preemption disabled: a lock that pinned goroutines
// take is held only pinned (Pin, Lock, …, Unlock, Unpin), for a short
// critical section. Where the rule is broken and a pinned wait lasts over
// a second, Lock releases the goroutine's Pins and panics with a message
// naming the rule, instead of hanging.
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
