package spin

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/percpu"
)

// TestSchedPoint checks the FIFO locks' scheduling points
// (schedpoint.go): two goroutines hand the lock to each other, every
// Unlock made with the other goroutine in line, 640 times. With a clock
// that advances by schedInterval at every read, every schedEvery-th
// contended handover yields (10 yields); with a clock that stands still,
// none does. Waiters stay in line (strictFIFO), so every handover the
// protocol makes is one the lock counts.
func TestSchedPoint(t *testing.T) {
	const handovers = 10 * schedEvery
	forEachLock(t, func(t *testing.T, k lockKind) {
		if !k.fifo {
			t.Skip("not a FIFO lock")
		}
		for _, tc := range []struct {
			name  string
			step  time.Duration
			yield uint64
		}{
			{"clock-advances", schedInterval, handovers / schedEvery},
			{"clock-stopped", 0, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var now atomic.Int64
				useSeams(t, seams{strictFIFO: true, now: func() int64 { return now.Add(int64(tc.step)) }})
				before := schedYields()
				pingPong(t, k.new(), handovers, false)
				if got := schedYields() - before; got != tc.yield {
					t.Errorf("%d handovers made %d yields at scheduling points, want %d", handovers, got, tc.yield)
				}
			})
		}
	})
}

// TestSchedPointPinned checks that a releaser holding a percpu.Pin never
// yields at a scheduling point, however late the clock says it is: the
// runtime would stop the program ("fatal error: schedule: holding locks").
func TestSchedPointPinned(t *testing.T) {
	if !percpu.Pinned {
		t.Skip("the fallback build of percpu pins nothing")
	}
	var now atomic.Int64
	useSeams(t, seams{strictFIFO: true, now: func() int64 { return now.Add(int64(schedInterval)) }})
	forEachLock(t, func(t *testing.T, k lockKind) {
		if !k.fifo {
			t.Skip("not a FIFO lock")
		}
		before := schedYields()
		pingPong(t, k.new(), 4*schedEvery, true)
		if got := schedYields() - before; got != 0 {
			t.Errorf("pinned releasers yielded %d times at scheduling points, want 0", got)
		}
	})
}

// pingPong has two goroutines hand l to each other n times, each Unlock
// made while the other goroutine waits in line, and while holding a
// percpu.Pin if pinned.
func pingPong(t *testing.T, l Locker, n int, pinned bool) {
	t.Helper()
	var (
		h    int // handovers made; guarded by l
		wg   sync.WaitGroup
		fail atomic.Bool
	)
	worker := func(holding bool) {
		defer wg.Done()
		for {
			if !holding {
				l.Lock()
			}
			holding = false
			if h >= n || fail.Load() {
				l.Unlock()
				return
			}
			h++
			if !queuedBehind(l, 10*time.Second) {
				fail.Store(true)
			}
			if pinned {
				percpu.Pin()
			}
			l.Unlock()
			if pinned {
				percpu.Unpin()
			}
		}
	}
	l.Lock()
	wg.Add(2)
	go worker(true)
	go worker(false)
	wg.Wait()
	if fail.Load() {
		t.Fatal("the other goroutine never queued behind the holder")
	}
}

// queuedBehind waits until a goroutine waits in line behind the holder of
// the FIFO lock l, yielding meanwhile, and reports whether one did before
// the deadline.
func queuedBehind(l Locker, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		switch l := l.(type) {
		case *Ticket:
			if atomic.LoadUint32(&l.next)-atomic.LoadUint32(&l.serving) >= 2 {
				return true
			}
		case *MCS:
			if l.holderNode().next.Load() != nil {
				return true
			}
		default:
			panic("queuedBehind: not a FIFO lock")
		}
		if time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
	}
}

// TestStuckWakeYields checks the TAS family's yield to a stuck woken
// waiter (wakeMark): an Unlock that wakes a parked waiter does not yield;
// while the woken waiter has not run and the releaser keeps re-locking,
// its Unlocks do not yield either until stuckWakeAfter has passed since
// the wake-up, and then one of the next stuckPollEvery does, once per
// stuckWakeAfter, until the waiter runs. A releaser that holds a
// percpu.Pin never yields (that would stop the program: "fatal error:
// schedule: holding locks"). GOMAXPROCS is 1, so that the woken waiter
// can run only when the releaser yields or blocks, and the clock is the
// test's.
func TestStuckWakeYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var now atomic.Int64
	now.Store(int64(time.Hour))
	useSeams(t, seams{now: now.Load})
	for _, k := range lockKinds {
		if k.fifo {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			for _, pinned := range []bool{false, true} {
				if pinned && !percpu.Pinned {
					continue // the fallback build of percpu pins nothing
				}
				l := k.new()
				s := stateOf(l)
				l.Lock()
				done := make(chan struct{})
				go func() { l.Lock(); l.Unlock(); close(done) }()
				waitFor(t, "the waiter to park", func() bool { return s.waiters() == 1 && s.sema.queued() == 1 })
				if pinned {
					percpu.Pin()
				}
				before := schedYields()
				l.Unlock() // wakes the waiter
				if got := schedYields() - before; got != 0 {
					t.Errorf("pinned=%v: the Unlock that woke a parked waiter yielded %d times, want 0", pinned, got)
				}
				// Re-lock and unlock n times while the woken waiter waits
				// to run; report the yields and whether it ran: it
				// finished, or it ran and parked again (it found the lock
				// held, and an Unlock woke it anew, restarting the mark).
				cycle := func(n int) (yields uint64, waiterRan, reparked bool) {
					before, parks := schedYields(), semaParks()
					for range n {
						l.Lock()
						l.Unlock()
						select {
						case <-done:
							return schedYields() - before, true, semaParks() != parks
						default:
						}
					}
					return schedYields() - before, false, semaParks() != parks
				}
				// A waiter that runs with no yield was run by the
				// scheduler: it preempted the releaser after 10 ms on
				// the processor, as when a loaded machine (or an
				// emulator) deschedules the thread. Only an unpinned
				// releaser can be preempted; there is nothing left to
				// check then.
				preempted := func(yields uint64, ran, reparked bool) bool {
					if (ran || reparked) && yields == 0 && !pinned {
						t.Logf("pinned=%v: the releaser was preempted and the waiter ran (finished: %v)", pinned, ran)
						return true
					}
					return false
				}
				yields, ran, reparked := cycle(4 * stuckPollEvery)
				switch {
				case preempted(yields, ran, reparked):
				case yields != 0 || ran:
					t.Errorf("pinned=%v: %d Unlocks with the clock at the wake-up yielded %d times, the waiter ran: %v; want 0, false",
						pinned, 4*stuckPollEvery, yields, ran)
				default:
					want := uint64(1)
					if pinned {
						want = 0
					}
					for round := 1; round <= 20 && !ran; round++ {
						now.Add(int64(stuckWakeAfter))
						yields, ran, reparked = cycle(stuckPollEvery)
						if yields != want {
							if !preempted(yields, ran, reparked) {
								t.Errorf("pinned=%v: %d Unlocks %v after the wake-up (or the last yield) yielded %d times, want %d",
									pinned, stuckPollEvery, stuckWakeAfter, yields, want)
							}
							break // not Fatal: the goroutine may be pinned
						}
						if pinned && round == 3 {
							break
						}
					}
					if ran == pinned && !t.Failed() {
						t.Errorf("pinned=%v: the woken waiter ran while the releaser re-locked: %v, want %v", pinned, ran, !pinned)
					}
				}
				if pinned {
					percpu.Unpin()
				}
				<-done
			}
		})
	}
}

// TestStuckWakeOtherP checks that only an Unlock on the P where the woken
// waiter is queued yields to it: on another P a yield cannot run it, so
// such an Unlock leaves the mark for the waker's P.
func TestStuckWakeOtherP(t *testing.T) {
	if !pin.Pinned {
		t.Skip("the fallback build of internal/pin cannot name the P")
	}
	useSeams(t, seams{now: func() int64 { return int64(time.Hour) }})
	var m wakeMark
	m.p.Store(-1) // no P has this id
	m.at.Store(1)
	before := schedYields()
	for range 4 * stuckPollEvery {
		m.yieldIfStuck()
	}
	if got := schedYields() - before; got != 0 || m.at.Load() != 1 {
		t.Errorf("Unlocks on another P yielded %d times and left the mark at %d, want 0 and 1", got, m.at.Load())
	}
}
