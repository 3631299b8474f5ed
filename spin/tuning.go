package spin

import (
	"time"

	"github.com/gohal/gohal/hal"
)

// Every tuning constant of the package, each with its rule, the reason
// for it, and the halbench command that measures it again (run from the
// repository root; lockwait's targets and the Lock section's ratios are
// against sync.Mutex in the same run). Machine-specific figures behind
// the choices are in the commit messages and results/. Waits are bounded
// in time: a count of pauses is derived from a duration with pausesIn,
// from the cost of hal.Pause measured once at init, so that a constant
// means one wait on every CPU although PAUSE's cost varies tenfold
// between them.

// spinWait bounds one spinning round of a waiter before it parks.
//
// Reason: spinning pays only while the holder runs; the package cannot
// tell cheaply whether it does, so the round stays about as long as
// sync.Mutex's 4 × 30 PAUSEs, enough to cover a short critical section
// of a running holder. Measure: go run ./cmd/halbench lockwait, and
// go run ./cmd/halbench -filter '^Lock/'.
const spinWait = 2500 * time.Nanosecond

// spinBudget is spinWait in pauses, the budget of a spinning round.
var spinBudget = pausesIn(spinWait)

// newcomerBudget is half a round: a waiter's first, before it has parked.
//
// Reason: waiters already spinning re-check the word at every pause and
// take it back the moment it is free, so a newcomer that spins long mostly
// loses to them while it holds the woken bit, which keeps Unlock from
// waking a parked waiter; parking sooner queues it for a wake-up.
// Measure: go run ./cmd/halbench lockwait (the occasional median).
var newcomerBudget = max(spinBudget/2, 1)

// tasNewcomerBudget is half newcomerBudget, counted in TAS's CAS attempts.
//
// Reason: a TAS attempt pulls the contended line, which costs about two
// pauses, so the round lasts about as long as the other policies' first.
// Measure: go run ./cmd/halbench lockwait -kinds tas.
var tasNewcomerBudget = max(newcomerBudget/2, 1)

// canSpinEvery is how many pauses pass between two canSpin checks.
//
// Reason: canSpin is a call that reads scheduler words; asked at every
// pause it would cost more than the pause. Measure: go run
// ./cmd/halbench -filter '^Lock/'.
const canSpinEvery = 16

// asmChunk is the most pauses one hal.SpinLockUint32 call of Asm spends.
//
// Reason: between calls Asm asks canSpin and re-reads the word in Go,
// where it sees waiters the assembly cannot take the lock past (see
// spinAsm); canSpinEvery keeps its checks as frequent as the Go loops'.
// Measure: go run ./cmd/halbench -filter '^Lock/kind=asm'.
const asmChunk = canSpinEvery

// Backoff's pauses after a failed attempt: minBackoff, doubling to
// maxBackoff.
//
// Reason: fewer waiters rush at the line when it is released; the cap
// keeps a waiter from noticing a release much later than a TTAS waiter.
// Measure: go run ./cmd/halbench -filter '^Lock/kind=backoff'.
var (
	minBackoff = pausesIn(80 * time.Nanosecond)
	maxBackoff = max(pausesIn(5*time.Microsecond), minBackoff)
)

// starvationThreshold: a waiter that waited longer makes the lock hand over.
//
// Reason: sync.Mutex's bounded-wait rule, with its 1 ms, so that the
// far tail of a wait is what sync.Mutex's is. Measure: go run
// ./cmd/halbench lockwait (the contended max).
const starvationThreshold = time.Millisecond

// stuckWakeAfter: an Unlock on the waker's P yields to a waiter it woke
// longer ago. Every stuckPollEvery-th such Unlock reads the clock.
//
// Reason: about one spinning round, the time a waker that is going to park
// spins first; a yield that comes sooner costs a Gosched per wake-up, one
// that comes much later lets the woken bit block wake-ups. Measure: go run
// ./cmd/halbench lockwait, and go run ./cmd/halbench -filter
// '^Lock/kind=backoff'.
const (
	stuckWakeAfter = 4 * time.Microsecond
	stuckPollEvery = 8
)

// Scheduling points of Ticket and MCS: every schedEvery-th contended
// handover reads the clock. It yields if no releaser of the lock yielded
// for schedInterval.
//
// Reason: a goroutine made runnable on a processor that two lock holders
// keep busy waits for the next preemption (up to 10 ms) otherwise; one
// Gosched per schedInterval bounds that wait at about 1 % of the time.
// Measure: go run ./cmd/halbench lockwait -kinds ticket,mcs.
const (
	schedEvery    = 64
	schedInterval = 100 * time.Microsecond
)

// ticketSlots is how many of one Ticket's waiters can sleep at once.
//
// Reason: each slot is a word of the lock; a waiter whose slot is taken
// keeps its place and waits with brief yields, which is rare while
// waiters number fewer than the slots. Measure: go run ./cmd/halbench
// -filter '^Lock/kind=ticket' -threads 8,32,64.
const ticketSlots = 32

// ticketWakeBatch is how many passed-over waiters a handover wakes after it.
//
// Reason: a wake-up is a scheduler call; made during the handover it
// delays the next ticket's service. Measure: go run ./cmd/halbench
// -filter '^Lock/kind=ticket'.
const ticketWakeBatch = 4

// osYieldEvery: a brief wait asks the kernel to run another thread every
// osYieldEvery runtime.Gosched calls.
//
// Reason: the goroutine waited for may sit on an OS thread the kernel
// descheduled, which no Gosched runs. No benchmark: a liveness rule.
const osYieldEvery = 8

// pinnedWaitLimit is how long a pinned waiter spins before it panics.
//
// Reason: a pinned waiter cannot park; a longer wait means the holder
// broke the pinned-locking rule, and a panic that names the rule beats a
// hang. No benchmark: a diagnosis, not a speed. Tests lower it.
var pinnedWaitLimit = time.Second

// A pinned waiter reads the clock every waitpolicy.PinnedPollEvery
// pauses: the kit's waiting policy (internal/waitpolicy) keeps that
// constant, its spin step and its variant lookup, shared with percpu.

// pauseCost is what one pause costs, measured once at init.
var pauseCost = measurePause()

// measurePause times pause runs and keeps the fastest, so that a run the
// scheduler interrupted does not count.
func measurePause() time.Duration {
	const n = 64
	best := time.Duration(1<<63 - 1)
	for range 5 {
		t0 := time.Now()
		for range n {
			hal.Pause()
		}
		best = min(best, time.Since(t0)/n)
	}
	return max(best, 1)
}

// pausesIn returns how many pauses last d, at least 1 and at most 1<<14.
func pausesIn(d time.Duration) int {
	return int(min(max(d/pauseCost, 1), 1<<14))
}
