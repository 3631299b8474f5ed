// Package spin provides spin locks built on gohal's hardware layer, after
// OpenBSD's mtx_enter and Concurrency Kit's ck_spinlock family:
//
//   - [TAS]: test-and-set, a compare-and-swap retried until it wins. Every
//     waiter writes the lock's cache line on every attempt.
//   - [TTAS]: test-and-test-and-set. A waiter reads the lock word and spins
//     on [hal.Pause] while it is held, and tries the compare-and-swap only
//     when the word looks free, so waiters share the line read-only until
//     the holder releases it (the change OpenBSD made to mtx_enter).
//   - [Asm]: TTAS whose whole wait loop (test, pause, compare-and-swap)
//     is one assembly function, [hal.SpinLockUint32], generated per
//     architecture like every hal op: one call per contended acquisition
//     instead of one per pause and per compare-and-swap (the uncontended
//     Lock is TTAS's inline compare-and-swap). It returns after a budget
//     of pauses, and Lock parks in Go between calls.
//   - [Backoff]: TTAS that waits a bounded, exponentially growing number of
//     pauses after each failed attempt.
//   - [Ticket]: a ticket lock, FIFO among waiters that are spinning.
//   - [MCS]: the Mellor-Crummey–Scott queue lock: each waiter spins on its
//     own queue node, so a release touches one waiter's cache line only;
//     FIFO among waiters that are spinning.
//
// Every lock is a [sync.Locker] with TryLock (the [Locker] interface), its
// zero value is unlocked, and padding keeps its lock word on a cache line
// of its own. A lock must not be copied after first use (go vet's
// copylocks check reports copies).
//
// # Waiting: spin while it can pay, then park
//
// A spinning waiter only makes sense while the holder is running on
// another CPU. When goroutines outnumber CPUs the holder (or, for a FIFO
// lock, the waiter whose turn it is) may be descheduled, and spinning then
// only delays it. Every waiter in this package therefore spins for at most
// 128 pauses ([hal.Pause], a few microseconds; a TAS-family waiter's first
// round, before it has parked, 64, or for TAS 32 compare-and-swap
// attempts), and only while the runtime says
// spinning can pay (the check sync.Mutex makes: another processor is
// running Go code and no goroutine waits in this processor's run queue),
// then parks: it blocks on a channel of its own, a real sleep that leaves
// its processor to other goroutines, until a releaser wakes it.
//
// TAS, TTAS, Backoff and Asm keep sync.Mutex's state word: a locked bit,
// a woken bit, a starving bit and the count of parked waiters. Lock is one
// inline compare-and-swap and Unlock one inline atomic add, each calling
// out only when someone waits, so a lock nobody waits for costs what a
// sync.Mutex does. Unlock's add is a read-modify-write, so the waiter
// count it returns is read after the release, in one indivisible step: a
// waiter that counted itself in is either seen by that Unlock, which wakes
// a waiter, or counted itself in after the release, and then saw the lock
// free and took it instead of parking; so its parks need no timeout.
// [Ticket] and [MCS] waiters park keyed by their place in line (a ticket's
// slot, a queue node) and the releaser that reaches that place wakes
// exactly that waiter: one wake-up per sleep, never a lost one, and no
// park has a timeout.
//
// # Bounded wait
//
// The TAS family follows sync.Mutex's starvation rule: a woken waiter
// that has waited over 1 ms and finds the lock taken again marks the lock
// starving; from then on every Unlock hands the lock straight to the
// oldest parked waiter, and newcomers neither take it nor spin but park
// at the end of the queue, until the waiter that gets it is the last one
// or has waited under 1 ms. So no releaser barges past such a waiter more
// than once. Ticket and MCS have the same rule in their own terms: a
// waiter that has slept in its Lock and waited over 1 ms no longer leaves
// the line when it stops spinning but sleeps keeping its place, and the
// releaser that reaches it hands it the lock and wakes it, so it is
// passed over only during its first millisecond. BenchmarkParkWake
// measures a park and wake-up round trip; BenchmarkTail and
// BenchmarkOccasional the far tail of lock waits.
//
// [Ticket] and [MCS] are preemption-adaptive, after He, Scherer and
// Scott's time-published queue locks (HiPC 2005): a waiter that stops
// spinning publishes that it left the line, and a releaser that reaches it
// passes over it to the next waiter still spinning instead of handing the
// lock to a goroutine that is not running; the parked waiter rejoins the
// line when it is woken. PassedOver counts the passes. So they are FIFO
// among running waiters, not strictly FIFO: a strict FIFO lock convoys
// whenever goroutines outnumber processors, every handover waiting for
// the scheduler to run the next waiter (halbench lockwait measures it).
//
// # What order costs
//
// A hand-over in order moves the lock's cache line, and the data it
// guards, to the waiter's CPU at every acquisition, and the next hand-over
// moves it back. sync.Mutex, TAS, TTAS, Backoff and Asm let a releaser that
// locks again at once take the lock back while the line is still in its
// cache, so under contention they hand over far less often. So wherever
// moving a line between two CPUs costs more than a few uncontended
// acquisitions, Ticket and MCS are slower than sync.Mutex at every
// goroutine count above one, by a factor no lock design can remove while
// it keeps the order. The suite's Handover section (BenchmarkHandover,
// halbench -filter '^Handover/') measures that floor on the machine it
// runs on: goroutines taking strict turns through one cache line with no
// lock, beside sync.Mutex. Passing over waiters that left the line lets
// Ticket and MCS run below it at times, at the price of the order.
//
// # Scheduling points
//
// A processor runs its expired timers, and the goroutines queued on it,
// only when it enters the scheduler, and a goroutine that a releaser wakes
// is queued on the releaser's processor. So every lock here has points
// where its releaser hands over the processor (runtime.Gosched).
//
// A TAS-family Unlock that wakes a parked waiter does not yield: the
// woken waiter runs as soon as the releaser waits for the lock and parks,
// which is what a releaser in a contended loop soon does. But a releaser
// that keeps taking the lock back could keep the processor until it is
// preempted (up to 10 ms), and until the woken waiter runs its woken bit
// keeps every Unlock from waking another. So an Unlock on the processor
// where a woken waiter has been queued for over 4 µs (about as long as a
// waiter spins before it parks) calls runtime.Gosched, and again every
// 4 µs until the waiter runs. A yield at every wake-up, which sync.Mutex
// makes only when it hands the lock to a starving waiter (and so do these
// locks), costs a trip through the scheduler per wake-up: on a 2-vCPU VM
// it made Backoff 1.2× sync.Mutex at 4 goroutines with a 50 ns critical
// section.
//
// Two goroutines that pass a [Ticket] or [MCS] lock back and forth never
// enter the scheduler: each finds its turn within a few hundred
// nanoseconds and so never parks. A goroutine whose
// time.Sleep ends meanwhile would wait for the next preemption, up to
// 10 ms, and then arrive just when a stall let a processor go, when the
// line is longest. So the releaser of a contended Ticket or MCS reads
// the clock every 64 handovers, and if no releaser of that lock has
// yielded for 100 µs, it calls runtime.Gosched after the handover,
// holding no place in line: about 1 µs per 100 µs of contended locking.
// sync.Mutex needs no such rule, since its waiters park after a few
// spins, and a parking goroutine enters the scheduler. A releaser that
// holds a percpu.Pin never yields, at either kind of point.
//
// # Locking while pinned
//
// A goroutine that holds a percpu.Pin cannot park: the runtime would stop
// the program ("fatal error: schedule: holding locks"). So a pinned
// goroutine's Lock never parks or yields; it spins until the lock is its
// own. That ends only if the holder keeps running, and only a pinned
// holder surely does: a holder that is not pinned can block, or be stopped
// by a stop-the-world (every GC cycle has two) that itself waits for the
// spinning goroutine to stop. The rule, as for a kernel's spin lock taken
// with preemption disabled: a lock that pinned goroutines take is held
// only pinned (Pin, Lock, …, Unlock, Unpin), for a short critical section.
// Where the rule is broken and a pinned wait lasts over a second, Lock
// panics with a message naming it instead of hanging; since a panic while
// pinned is itself a fatal error, it first releases the goroutine's Pins
// (the message says how many, and each later matching Unpin panics as
// unmatched). Under the race detector a goroutine that stays pinned for
// milliseconds while it spins can stall inside the race runtime; keep
// pinned critical sections to microseconds there.
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
