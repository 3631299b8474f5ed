package spin

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/percpu"
)

// TestLockWhilePinned keeps the rule for locks that pinned goroutines
// take: every holder holds it pinned. The holder holds the lock for
// milliseconds, far beyond the spin budget, while two pinned goroutines
// wait for it. A waiter that parked there would stop the program with
// "fatal error: schedule: holding locks" (it did, for every lock, before
// park and yield asked pin.Held); each must spin until its turn, and
// mutual exclusion must hold (shared is a plain int).
//
// Every round is contended: the holder waits for both waiters to reach
// Lock, however long the scheduler takes to run them. A pinned goroutine
// holds up every stop-the-world, and a waiter not yet pinned can be
// stopped by one, so the test turns the garbage collector off (the only
// stop-the-world source while it runs); the waits are bounded only by
// hangLimit, far beyond any scheduling delay, to report a real hang.
// pinnedWaitLimit is raised to hangLimit too: a waiter's pinned wait lasts
// as long as the holder takes to run, which on a loaded machine can pass
// the one-second default (a panic that TestPinnedWaitPanics covers).
func TestLockWhilePinned(t *testing.T) {
	if !percpu.Pinned {
		t.Skip("the fallback build of percpu pins nothing")
	}
	if haltool.Binding(haltool.Ops()[0]) == haltool.Portable && !raceBuild {
		// On a GOARCH without a gen backend (hal's portable build; a
		// race build is skipped below): under .ci/run's qemu-user for
		// ppc64le/s390x the holder's bounded pinned wait never ended
		// (10 min, TestLockWhilePinned/asm); not diagnosed yet, so the
		// test runs only where hal has assembly, which CI runs under
		// qemu for every GOARCH it has.
		t.Skipf("not yet checked on %s without a gen backend: a pinned wait hung under qemu there", runtime.GOARCH)
	}
	if raceBuild {
		// Seen here (Go 1.26.8, amd64): a goroutine that stays pinned for
		// milliseconds while it spins on atomic loads sometimes never
		// returns from the race runtime (__tsan_go_atomic32_load, in
		// SlotUnlock) while every other thread idles; the holder's
		// bounded 50 ms wait then hangs. The package documents the limit.
		t.Skip("under the race detector a long pinned spin can stall in the race runtime; see the package documentation")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 3)))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const hangLimit = time.Minute
	defer func(d time.Duration) { pinnedWaitLimit = d }(pinnedWaitLimit)
	pinnedWaitLimit = hangLimit
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			l := k.new()
			shared, contended := 0, 0
			const rounds = 5
			for round := range rounds {
				var held, arrived atomic.Int32
				var wg sync.WaitGroup
				wg.Add(3)
				go func() { // the holder
					defer wg.Done()
					percpu.Pin()
					l.Lock()
					held.Store(1)
					// Wait until the waiters are at Lock, then hold on
					// for 3 ms.
					t0 := time.Now()
					for arrived.Load() < 2 && time.Since(t0) < hangLimit {
					}
					if arrived.Load() == 2 {
						contended++
					}
					for t1 := time.Now(); time.Since(t1) < 3*time.Millisecond; {
					}
					shared++
					l.Unlock()
					percpu.Unpin()
				}()
				for range 2 {
					go func() { // a pinned waiter
						defer wg.Done()
						for held.Load() == 0 {
							runtime.Gosched()
						}
						percpu.Pin()
						arrived.Add(1)
						l.Lock()
						shared++
						l.Unlock()
						percpu.Unpin()
					}()
				}
				wg.Wait()
				if want := 3 * (round + 1); shared != want {
					t.Fatalf("round %d: shared = %d, want %d", round, shared, want)
				}
			}
			if contended != rounds {
				t.Fatalf("in %d of %d rounds both waiters reached Lock while the holder held it (it waited up to %v), want all", contended, rounds, hangLimit)
			}
		})
	}
}

// TestPinnedWaitPanics breaks the rule TestLockWhilePinned keeps: the
// holder is not pinned, and blocks while it holds the lock. A pinned
// waiter cannot park, so it spins, and where the holder cannot run (a
// stop-the-world stopped it and waits for the spinning waiter) the
// program would hang; instead the waiter panics once it has waited
// pinnedWaitLimit, with a message that names the rule, and leaves the lock
// as it was: the holder's Unlock and later Locks work. A panic while
// pinned is itself a fatal error, so the waiter first releases its Pins,
// and the recovered goroutine holds none.
func TestPinnedWaitPanics(t *testing.T) {
	if !percpu.Pinned {
		t.Skip("the fallback build of percpu pins nothing")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
	defer func(d time.Duration) { pinnedWaitLimit = d }(pinnedWaitLimit)
	pinnedWaitLimit = 20 * time.Millisecond
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			l := k.new()
			l.Lock()
			got := make(chan any, 1)
			go func() {
				// Two Pins, and no deferred Unpin: the panic releases both.
				percpu.Pin()
				percpu.Pin()
				defer func() {
					r := recover()
					if pin.Held() {
						r = "the panic left the goroutine pinned"
					}
					got <- r
				}()
				l.Lock()
				l.Unlock() // reached only if the wait did not panic
				percpu.Unpin()
				percpu.Unpin()
			}()
			// The rule broken: holding l asleep, until the waiter gives
			// up (a fixed sleep could end before a slow waiter began to
			// wait); a minute only reports a waiter that never does.
			var r any
			select {
			case r = <-got:
			case <-time.After(time.Minute):
				l.Unlock()
				t.Fatalf("the pinned waiter neither took the lock nor panicked in a minute (pinnedWaitLimit %v)", pinnedWaitLimit)
			}
			if r == nil { // it took l, and released it
				t.Fatal("the pinned waiter took the lock while the holder held it asleep, without a panic")
			}
			l.Unlock()
			switch r := r.(type) {
			case string:
				if !strings.Contains(r, "percpu.Pin") || !strings.Contains(r, "Unpin before Lock") ||
					!strings.Contains(r, "2 Pin(s) were released") {
					t.Fatalf("panic %q does not name the rule", r)
				}
			default:
				t.Fatalf("panic value %v (%T), want the package's message", r, r)
			}
			for range 3 {
				if !lockWithin(l, time.Second) {
					t.Fatal("the lock is unusable after the pinned waiter's panic")
				}
			}
		})
	}
}

// lockWithin locks and unlocks l in another goroutine and reports
// whether that finished within d.
func lockWithin(l Locker, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		l.Lock()
		l.Unlock()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
