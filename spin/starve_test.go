package spin

import (
	"runtime"
	"testing"
	"time"
)

// TestOldWaiterBeatsBarger checks the bounded-wait rule of the TAS
// family: once a waiter that has waited over starvationThreshold (1 ms)
// has been woken and found the lock taken again, the next Unlock hands
// the lock to it, so a releaser that re-locks at once (TryLock right after
// Unlock, nanoseconds later) no longer gets it. Before the rule the
// releaser's TryLock always won: the parked waiter could not run, let
// alone take the lock, in those nanoseconds (the test failed so).
func TestOldWaiterBeatsBarger(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
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
				t.Fatal("a releaser re-locked at once past a waiter that had waited over 1 ms")
			}
			l.Lock() // after the old waiter
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
