package spin

import (
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
)

// The state word of the test-and-set locks (TAS, TTAS, Backoff, Asm), laid
// out as sync.Mutex's: the locked bit, the woken bit (a waiter is awake
// and trying, so Unlock need not wake another), the starving bit (the lock
// is handed from releaser to the oldest waiter; nobody barges) and, above
// them, the number of goroutines parked or about to park.
//
// Lock is one inline compare-and-swap from 0 to locked. Unlock is one
// inline atomic add that clears the locked bit and returns the new state;
// only when that is not 0 (someone waits, or the lock is starving) does it
// call unlockSlow. Because the add is an atomic read-modify-write, the
// waiter count it returns is read after the release, in one indivisible
// step: a waiter that counted itself in (with a compare-and-swap that saw
// the lock held) is either seen by that Unlock, which then wakes a waiter,
// or counted itself in after the release, and then its compare-and-swap
// saw the lock free and took it instead of parking. With the semaphore's
// pending releases (sema) no wake-up is lost and no park needs a timeout.
const (
	tasLocked      = 1 << iota // held
	tasWoken                   // a woken or spinning waiter will try: Unlock wakes nobody
	tasStarving                // handoff mode: Unlock gives the lock to the first parked waiter
	tasWaiterShift = iota      // waiter count: state >> tasWaiterShift
)

// The spinning policies of the test-and-set locks, which their shared
// slow path (tasState.lockSlow) runs before a waiter parks.
const (
	policyTAS     = iota // compare-and-swap retried, no pause
	policyTTAS           // read, pause while held, compare-and-swap when free
	policyBackoff        // TTAS with exponentially growing pauses
	policyAsm            // TTAS in one hal.SpinLockUint32 call where the word allows
)

var policyNames = [...]string{policyTAS: "TAS", policyTTAS: "TTAS", policyBackoff: "Backoff", policyAsm: "Asm"}

// tasState is a test-and-set lock's state word and the semaphore its
// waiters park on, which TAS, TTAS, Backoff and Asm embed on their cache
// line.
type tasState struct {
	state uint32
	sema  sema
	woke  wakeMark
}

// wakeMark is a TAS-family lock's record of its last wake-up while the
// woken waiter has not yet run (see unlockSlow).
//
// A woken waiter is queued on its waker's P (its runnext), and the waker
// runs on. When the waker goes on to wait for the lock it spins a round
// and parks, and the woken waiter runs. But when the waker keeps taking
// the lock back, the woken waiter waits for the waker to be preempted, up
// to 10 ms, and meanwhile its woken bit keeps every Unlock from waking
// another. So an Unlock on the waker's P that finds its woken waiter
// still pending stuckWakeAfter after the wake-up yields the processor to
// it (yieldIfStuck), reading the clock only every stuckPollEvery such
// Unlocks, since a waker that keeps the lock runs through many of them.
type wakeMark struct {
	// at is when (schedNow, never 0) an Unlock woke a waiter that has not
	// run since; 0 when no woken waiter is pending.
	at atomic.Int64
	// p is the P that Unlock ran on, where the woken waiter is queued
	// (where pin.Pinned; in the fallback build of internal/pin, which
	// cannot name the P, every P's Unlocks count).
	p atomic.Int32
	// polls counts the Unlocks on p since the wake-up. Only goroutines
	// on p write it (but for the fallback build, where a lost count only
	// delays a yield), so an acquire-load and release-store (plain moves
	// on amd64) count it.
	polls uint32
}

// tryLock takes the lock if it is free and not being handed to a waiter,
// as sync.Mutex.TryLock does.
func (s *tasState) tryLock() bool {
	old := hal.LoadAcquireUint32(&s.state)
	return old&(tasLocked|tasStarving) == 0 && hal.CompareAndSwapUint32(&s.state, old, old|tasLocked)
}

// lockSlow is Lock after its inline compare-and-swap failed: sync.Mutex's
// lockSlow with the lock's own spinning policy and the package's park.
//
// A waiter spins while the lock is held and not starving, by its policy,
// for at most spinBudget pauses and only while spinning can pay; then it
// counts itself in the state word and parks on the semaphore. A woken
// waiter tries again (spins, then parks at the front of the queue). A
// waiter that has waited over starvationThreshold when it is woken, and
// still finds the lock taken, sets the starving bit: from then on every
// Unlock hands the lock to the first parked waiter (the releaser leaves
// the locked bit clear and the waiter sets it), newcomers neither take the
// lock nor spin but park at the end of the queue, and the mode ends when
// the waiter that gets the lock is the last one or waited under the
// threshold.
func (s *tasState) lockSlow(policy int) {
	if mayNotSleep() {
		s.lockPinned()
		return
	}
	var waitStart time.Time
	starving, awoke, spun := false, false, false
	for {
		old := hal.LoadAcquireUint32(&s.state)
		if !spun && old&(tasLocked|tasStarving) == tasLocked {
			spun = true // one round per wake-up, however often a CAS below loses
			// Spin. Tell Unlock not to wake another waiter while this
			// one is awake, as sync.Mutex does.
			if !awoke && old&tasWoken == 0 && old>>tasWaiterShift != 0 &&
				hal.CompareAndSwapUint32(&s.state, old, old|tasWoken) {
				awoke = true
			}
			budget := spinBudget
			if waitStart.IsZero() {
				budget = newcomerBudget
				if policy == policyTAS {
					budget = tasNewcomerBudget
				}
			}
			if s.spin(policy, awoke, budget) {
				return
			}
			old = hal.LoadAcquireUint32(&s.state)
		}
		new := old
		if old&tasStarving == 0 {
			new |= tasLocked // a newcomer does not take a starving lock
		}
		if old&(tasLocked|tasStarving) != 0 {
			new += 1 << tasWaiterShift
		}
		if starving && old&tasLocked != 0 {
			new |= tasStarving
		}
		if awoke {
			if new&tasWoken == 0 {
				panic("spin: inconsistent " + policyNames[policy] + " state")
			}
			new &^= tasWoken
		}
		if !hal.CompareAndSwapUint32(&s.state, old, new) {
			continue
		}
		if old&(tasLocked|tasStarving) == 0 {
			return // took the free lock
		}
		lifo := !waitStart.IsZero()
		if !lifo {
			waitStart = time.Now()
		}
		s.sema.acquire(lifo)
		s.woke.ran()
		starving = starving || time.Since(waitStart) > starvationThreshold
		old = hal.LoadAcquireUint32(&s.state)
		if old&tasStarving != 0 {
			// Handed over: the lock is this goroutine's, but the state
			// still counts it as a waiter and has the locked bit clear.
			if old&(tasLocked|tasWoken) != 0 || old>>tasWaiterShift == 0 {
				panic("spin: inconsistent " + policyNames[policy] + " state")
			}
			delta := uint32(tasLocked)
			delta -= 1 << tasWaiterShift
			if !starving || old>>tasWaiterShift == 1 {
				// Leave starvation mode: this waiter did not wait long,
				// or nobody is left behind it. Handing over forever would
				// make two goroutines take turns at the scheduler's pace.
				delta -= tasStarving
			}
			hal.FetchAddUint32(&s.state, delta)
			return
		}
		awoke, spun = true, false
	}
}

// spin runs one spinning round of the policy, at most budget pauses
// (attempts, for TAS), and reports whether it took the lock. It stops
// early when the lock starves (it is being handed over; spinning cannot
// take it) or spinning cannot pay. A waiter that owns the woken bit
// (awoke) clears it in the compare-and-swap that takes the lock.
func (s *tasState) spin(policy int, awoke bool, budget int) bool {
	var woken uint32
	if awoke {
		woken = tasWoken
	}
	switch policy {
	case policyTAS:
		for i := 0; spinningUpTo(i, budget); i++ {
			old := hal.LoadAcquireUint32(&s.state)
			if old&tasStarving != 0 {
				return false
			}
			// Test-and-set: the compare-and-swap expects the lock free
			// whatever the word says, and takes the line each time.
			old &^= tasLocked
			if hal.CompareAndSwapUint32(&s.state, old, (old|tasLocked)&^woken) {
				return true
			}
		}
	case policyTTAS:
		for i := 0; spinningUpTo(i, budget); i++ {
			if s.tryFree(woken) {
				return true
			}
			if hal.LoadAcquireUint32(&s.state)&tasStarving != 0 {
				return false
			}
			pause()
		}
	case policyBackoff:
		delay := minBackoff
		for spent := 0; spent < budget && canSpin(0); spent += delay {
			for range delay {
				pause()
			}
			if delay < maxBackoff {
				delay <<= 1
			}
			if s.tryFree(woken) {
				return true
			}
			if hal.LoadAcquireUint32(&s.state)&tasStarving != 0 {
				return false
			}
		}
	case policyAsm:
		return s.spinAsm(woken, budget, canSpin)
	}
	return false
}

// tryFree takes the lock if the word reads free and not starving,
// clearing the bits of clear.
func (s *tasState) tryFree(clear uint32) bool {
	old := hal.LoadAcquireUint32(&s.state)
	return old&(tasLocked|tasStarving) == 0 &&
		hal.CompareAndSwapUint32(&s.state, old, (old|tasLocked)&^clear)
}

// lockPinned is lockSlow for a goroutine that holds a percpu.Pin: it must
// not park, so it spins (test-and-test-and-set, whatever the lock's
// policy) until it takes the lock, and panics after pinnedWaitLimit (see
// pinnedClock). It never counts itself in the state word, so the panic
// leaves the lock as it was; and it takes no part in starvation mode
// (where every holder holds the lock pinned, as the rule asks, nobody
// parks and the lock never starves).
func (s *tasState) lockPinned() {
	var c pinnedClock
	for !s.tryFree(0) {
		c.check()
		pause()
	}
}

// wake wakes the first parked waiter, marking the wake-up pending until
// the waiter runs (see unlockSlow). The mark comes first, so that the
// woken waiter, wherever it runs, clears it.
func (s *tasState) wake() {
	if yieldsAfterWake() {
		s.woke.p.Store(currentP())
		hal.StoreReleaseUint32(&s.woke.polls, 0)
		s.woke.at.Store(max(schedNow(), 1))
	}
	s.sema.release()
}

// handOver hands the lock to the first parked waiter (the lock starves)
// and yields the processor to it at once, as sync.Mutex does when it
// hands itself to a starving waiter: the waiter owns the lock, and
// nobody else can take it until the waiter runs.
func (s *tasState) handOver() {
	s.sema.release()
	if yieldsAfterWake() {
		schedYield()
	}
}

// ran is a woken waiter's first step: it clears its wake-up's mark.
func (m *wakeMark) ran() {
	if m.at.Load() != 0 {
		m.at.Store(0)
	}
}

// yieldIfStuck yields the processor when the calling Unlock runs on the
// P where a waiter woken over stuckWakeAfter ago is still queued (see the
// constant). It reads the clock on every stuckPollEvery-th such Unlock.
// The yield restarts the mark's clock rather than clearing the mark: a
// yield does not always run the woken waiter (every 61st time the
// scheduler takes from its global queue first, where the yielding
// goroutine went), and the waiter clears the mark when it runs.
func (m *wakeMark) yieldIfStuck() {
	t := m.at.Load()
	if t == 0 {
		return
	}
	if pin.Pinned && currentP() != m.p.Load() { // elsewhere currentP is a CPU, not the P
		return
	}
	n := hal.LoadAcquireUint32(&m.polls) + 1
	hal.StoreReleaseUint32(&m.polls, n)
	if n%stuckPollEvery != 0 {
		return
	}
	if now := schedNow(); now-t >= int64(stuckWakeAfter) && m.at.CompareAndSwap(t, now) {
		schedYield()
	}
}

// currentP returns the id of the calling goroutine's P (in the fallback
// build of internal/pin, its CPU's number).
func currentP() int32 {
	p := pin.ProcPin()
	pin.ProcUnpin()
	return int32(p)
}

// unlockSlow is Unlock after its atomic add left new, not 0, in the state
// word: it panics if the lock was not held, and otherwise wakes a waiter
// (or, starving, hands the lock to the first one).
//
// It does not yield after a wake-up: the woken waiter is queued on this
// P, which runs it as soon as this goroutine waits for the lock again and
// parks. Only when this goroutine keeps taking the lock back, so that the
// woken waiter is still pending stuckWakeAfter later, does an Unlock on
// this P yield to it (yieldIfStuck). A yield at every wake-up would cost
// a trip through the scheduler per wake-up, more than a contended
// acquisition; no yield at all would leave the woken waiter queued until
// the releaser is preempted (up to 10 ms).
func (s *tasState) unlockSlow(new uint32, policy int) {
	if (new+tasLocked)&tasLocked == 0 {
		hal.FetchAddUint32(&s.state, tasLocked) // undo the add: leave the word as it was
		panic("spin: unlock of unlocked " + policyNames[policy])
	}
	if new&tasStarving != 0 {
		// Hand over: the first parked waiter owns the lock now (the
		// starving bit keeps everyone else out until it sets locked).
		s.handOver()
		return
	}
	old := new
	for {
		// Nobody to wake, or a waiter is awake already, or someone took
		// the lock (its Unlock will wake), or it started starving (the
		// goroutine that set the bit is parked and the next Unlock
		// hands over to it).
		if old>>tasWaiterShift == 0 || old&(tasLocked|tasWoken|tasStarving) != 0 {
			s.woke.yieldIfStuck()
			return
		}
		if hal.CompareAndSwapUint32(&s.state, old, (old-1<<tasWaiterShift)|tasWoken) {
			s.wake()
			return
		}
		old = hal.LoadAcquireUint32(&s.state)
	}
}

// spinAsm is Asm's spinning round: at most budget pauses in chunks of
// asmChunk, asking may (canSpin) before each chunk. A chunk runs in
// hal.SpinLockUint32 when the word reads locked with nothing else in it
// and this waiter owns no woken bit to clear, else in Go, as TTAS.
//
// hal.SpinLockUint32 takes only a word that is 0. A waiter that counts
// itself in while this one is inside the assembly keeps the word non-zero
// even once the lock is free, so that call can no longer take it: the
// chunk bounds what such a call misses to asmChunk pauses, after which
// the word is read again here and the round goes on in Go.
func (s *tasState) spinAsm(woken uint32, budget int, may func(int) bool) bool {
	for spent := 0; spent < budget && may(0); spent += asmChunk {
		old := hal.LoadAcquireUint32(&s.state)
		if old&tasStarving != 0 {
			return false
		}
		if woken == 0 && old&^tasLocked == 0 {
			if hal.SpinLockUint32(&s.state, asmChunk) {
				return true
			}
			continue
		}
		for range asmChunk {
			if s.tryFree(woken) {
				return true
			}
			if hal.LoadAcquireUint32(&s.state)&tasStarving != 0 {
				return false
			}
			pause()
		}
	}
	return false
}
