package spin

import (
	"runtime"
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
)

// TestOldWaiterBeatsBarger checks the bounded-wait rule of the TAS
// family: once a waiter that has waited over starvationThreshold (1 ms)
// has been woken and found the lock taken again, the next Unlock hands
// the lock to it, so a releaser that re-locks at once (TryLock right after
// Unlock, nanoseconds later) no longer gets it. Before the rule the
// releaser's TryLock always won: the parked waiter could not run, let
// alone take the lock, in those nanoseconds (the test failed so).
//
// The releaser here must not yield to the woken waiter, as an Unlock may
// (wakeMark), or the woken waiter takes the free lock before the re-lock
// and there is no barging to bound: the test turns the yields off.
func TestOldWaiterBeatsBarger(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
	useSeams(t, seams{noYieldAfterWake: true})
	for _, k := range lockKinds {
		if k.fifo {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			l := k.new()
			s := stateOf(l)
			l.Lock()
			done := make(chan struct{})
			go func() { l.Lock(); close(done); l.Unlock() }()
			waitFor(t, "the waiter to park", func() bool { return s.waiters() == 1 })
			time.Sleep(2 * starvationThreshold)
			// Release and re-lock at once: the woken waiter, which has
			// waited over the threshold, finds the lock taken, marks it
			// starving and parks again.
			l.Unlock()
			l.Lock()
			waitFor(t, "the old waiter to mark the lock starving", func() bool {
				select {
				case <-done: // it won the race outright: nothing to test this time
					return true
				default:
				}
				return s.waiters() == 1 && s.sema.queued() == 1 && s.state&tasStarving != 0
			})
			select {
			case <-done:
				t.Skip("the woken waiter took the lock before the re-lock")
			default:
			}
			l.Unlock()
			if l.TryLock() {
				// Only right if the old waiter, handed the lock, has
				// already run, locked and unlocked (on another CPU).
				select {
				case <-done:
				default:
					t.Fatal("a releaser re-locked at once past a waiter that had waited over 1 ms")
				}
			} else {
				l.Lock() // after the old waiter
			}
			select {
			case <-done:
			default:
				t.Fatal("the releaser's Lock returned before the old waiter had the lock")
			}
			if st := s.state; st != tasLocked {
				t.Fatalf("state %#x after the handoff, want locked only (starvation mode over)", st)
			}
			l.Unlock()
		})
	}
}

// stateOf returns the state of a TAS-family lock.
func stateOf(l Locker) *tasState {
	switch l := l.(type) {
	case *TAS:
		return &l.s
	case *TTAS:
		return &l.s
	case *Asm:
		return &l.s
	case *Backoff:
		return &l.s
	}
	panic("stateOf: not a TAS-family lock")
}

// waitFor polls cond until it holds, failing the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestFIFOOldWaiterKeepsItsPlace checks the bounded-wait rule of Ticket
// and MCS: a waiter that has slept in its Lock and waited over
// starvationThreshold (1 ms) sleeps keeping its place when it stops
// spinning again, and the next Unlock hands it the lock (and wakes it), so
// a releaser that tries to re-lock at once (TryLock right after Unlock)
// no longer gets it. Before the rule the releaser passed over the sleeping
// waiter and its TryLock won every time (the test failed so: the waiter
// never slept keeping its place).
func TestFIFOOldWaiterKeepsItsPlace(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
	for _, k := range lockKinds {
		if !k.fifo {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			l := k.new()
			l.Lock()
			done := make(chan struct{})
			go func() { l.Lock(); close(done); l.Unlock() }()
			waitFor(t, "the waiter to sleep", func() bool { return sleepingOn(l) == 1 })
			time.Sleep(2 * starvationThreshold)
			// Release and re-lock at once: the releaser passes over the
			// sleeping waiter and wakes it; it rejoins the line behind the
			// re-lock, stops spinning (the holder does not let go) and,
			// having waited over 1 ms, sleeps keeping its place.
			l.Unlock()
			if !l.TryLock() {
				l.Lock()
			}
			waitFor(t, "the old waiter to sleep keeping its place", func() bool {
				select {
				case <-done:
					return true
				default:
				}
				return keepingPlace(l)
			})
			select {
			case <-done:
				t.Skip("the woken waiter took the lock before the re-lock")
			default:
			}
			l.Unlock()
			if l.TryLock() {
				select {
				case <-done: // the old waiter had the lock (and let go) first
				default:
					t.Fatal("a releaser re-locked at once past a waiter that had waited over 1 ms")
				}
			} else {
				l.Lock() // after the old waiter
			}
			select {
			case <-done:
			default:
				t.Fatal("the releaser's Lock returned before the old waiter had the lock")
			}
			l.Unlock()
		})
	}
}

// keepingPlace reports whether a waiter of a FIFO lock sleeps keeping its
// place (slotStay, mcsSleeping).
func keepingPlace(l Locker) bool {
	switch l := l.(type) {
	case *Ticket:
		for i := range l.slots {
			if l.slots[i].mark.Load()&3 == slotStay {
				return true
			}
		}
		return false
	case *MCS:
		n := l.tail.Load() // the old waiter's node is the last one
		return n != nil && hal.LoadAcquireUint32(&n.locked) == mcsSleeping
	}
	panic("keepingPlace: not a FIFO lock")
}

// TestPassedOverWaitersAllWake checks that a releaser wakes every waiter
// it passes over, not one per Unlock: two waiters sleep, one Unlock passes
// over both, the first to get the lock keeps it, and the other must be
// awake and back in line (queued again behind the holder) while nobody
// unlocks. With the parking lot's wake-the-oldest, the second waiter slept
// on until its park timeout, or, without one, forever.
func TestPassedOverWaitersAllWake(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
	for _, k := range lockKinds {
		if !k.fifo {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			l := k.new()
			l.Lock()
			got := make(chan int, 2)
			release := make(chan struct{})
			for i := range 2 {
				go func() {
					l.Lock()
					got <- i
					<-release
					l.Unlock()
				}()
			}
			waitFor(t, "both waiters to sleep", func() bool { return sleepingOn(l) == 2 })
			l.Unlock()
			first := <-got
			waitFor(t, "the other passed-over waiter to queue again", func() bool { return inLine(l) == 1 })
			close(release)
			if second := <-got; second == first {
				t.Fatalf("waiter %d got the lock twice", first)
			}
			if n := passedOver(l); n < 2 {
				t.Fatalf("PassedOver = %d, want both waiters passed over", n)
			}
		})
	}
}

// inLine returns how many waiters of a FIFO lock hold a place behind the
// holder (sleeping there or not).
func inLine(l Locker) int {
	switch l := l.(type) {
	case *Ticket:
		return int(hal.LoadAcquireUint32(&l.next) - hal.LoadAcquireUint32(&l.serving) - 1)
	case *MCS:
		h := l.tail.Load()
		if h == nil || h == l.holderNode() {
			return 0
		}
		return 1 // the test has at most one waiter behind the holder
	}
	panic("inLine: not a FIFO lock")
}
