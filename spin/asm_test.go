package spin

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
)

// TestAsmTakesLockFreedWhileOthersWait: an Asm waiter spinning in
// hal.SpinLockUint32 must take a lock that is released after another
// waiter counted itself into the state word (the word is then not 0 when
// free, and the assembly loop takes only a word that is 0). Before the fix
// it spent its whole budget and returned without the lock.
func TestAsmTakesLockFreedWhileOthersWait(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two processors: the waiter spins while this goroutine releases")
	}
	for trial := range 10 {
		var s tasState
		s.state = tasLocked
		var started, result atomic.Int32
		// The waiter's budget must outlast the release however late
		// this goroutine runs (a loaded machine, qemu), so it is bounded
		// by a deadline far beyond any scheduling delay, not by a count
		// of pauses, which on a CPU without a spin hint (loong64) pass
		// in microseconds.
		deadline := time.Now().Add(10 * time.Second)
		untilDeadline := func(int) bool { return time.Now().Before(deadline) }
		go func() {
			started.Store(1)
			r := int32(1)
			if s.spinAsm(0, math.MaxInt32, untilDeadline) {
				r = 2
			}
			result.Store(r)
		}()
		for started.Load() == 0 {
			runtime.Gosched()
		}
		// Let the waiter reach the assembly loop (not needed for the
		// test to pass, only for it to fail without the fix), then
		// count a parked waiter in and release, in one atomic add.
		for t0 := time.Now(); time.Since(t0) < 50*time.Microsecond; {
		}
		hal.FetchAddUint32(&s.state, 1<<tasWaiterShift-tasLocked)
		for result.Load() == 0 {
			hal.Pause() // keep this processor busy: no scheduler trip
		}
		if result.Load() != 2 {
			t.Fatalf("trial %d: the waiter did not take the lock freed with a waiter counted in (state %#x)",
				trial, hal.LoadAcquireUint32(&s.state))
		}
		if got := hal.LoadAcquireUint32(&s.state); got != tasLocked|1<<tasWaiterShift {
			t.Fatalf("trial %d: state %#x, want locked with one waiter counted", trial, got)
		}
	}
}
