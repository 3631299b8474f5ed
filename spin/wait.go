package spin

import (
	"runtime"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// lineSize is the cache-line size padding is built from (x/sys/cpu's
// CacheLinePad: 64 bytes on amd64, 128 on arm64, where some cores fetch
// lines in pairs).
const lineSize = cacheline.Size

// Waiting policy. A waiter spins spinBudget pauses, then yields its
// processor to other goroutines with runtime.Gosched and starts a new
// budget; every osYieldEvery-th yield it also asks the kernel to run
// another thread (sched_yield on Linux). runtime.Gosched hands the
// processor to another goroutine but keeps the OS thread running, which
// does not help when the goroutine everyone waits for sits on an OS thread
// the kernel has descheduled because other processes want the CPUs. A
// waiter never sleeps: a FIFO lock whose next-in-line waiter is asleep
// stalls for the whole sleep, and the Go runtime rounds short sleeps of
// an idle program up to a millisecond.
//
// The Go runtime's own mutex spins four rounds of 30 PAUSEs before it
// sleeps; 128 pauses is a few microseconds on current x86 and arm64
// cores, long enough to cover a short critical section of a running holder
// and short enough that a descheduled holder or successor gets a processor
// back quickly.
const (
	spinBudget   = 128
	osYieldEvery = 8
)

// waiter counts the pauses and yields of one waiting goroutine.
type waiter struct {
	spins  int
	yields int
}

// pause spins once, or yields when the budget is spent.
func (w *waiter) pause() {
	if w.spins < spinBudget {
		w.spins++
		hal.Pause()
		return
	}
	w.yield()
}

// pauseWeighted spins once, charging weight pauses against the budget, so
// a waiter that knows it is far from its turn yields sooner.
func (w *waiter) pauseWeighted(weight int) {
	if w.spins < spinBudget {
		w.spins += weight
		hal.Pause()
		return
	}
	w.yield()
}

// pauseN spins n times in a row (for backoff), yielding whenever the
// budget runs out on the way.
func (w *waiter) pauseN(n int) {
	for range n {
		w.pause()
	}
}

// spent counts one failed attempt that did not pause (TAS retries its
// compare-and-swap without pausing) against the budget.
func (w *waiter) spent() {
	if w.spins < spinBudget {
		w.spins++
		return
	}
	w.yield()
}

// yield gives up the processor and starts a new spin budget.
func (w *waiter) yield() {
	w.spins = 0
	w.yields++
	if w.yields%osYieldEvery == 0 {
		osYield()
	}
	runtime.Gosched()
}
