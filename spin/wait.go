package spin

import (
	_ "unsafe" // for go:linkname

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// lineSize is the cache-line size padding is built from (x/sys/cpu's
// CacheLinePad: 64 bytes on amd64, 128 on arm64, where some cores fetch
// lines in pairs).
const lineSize = cacheline.Size

// Waiting policy: spin while spinning can pay, then park.
//
// A waiter spins (reads the lock, [hal.Pause]) for at most spinBudget
// pauses, and only while the runtime says spinning can pay: the check
// sync.Mutex makes before each of its spin rounds (runtime_canSpin: more
// than one CPU, at least one other processor running Go code, where the
// holder may be, and no goroutine waiting in this processor's run queue,
// which the processor should run instead). When the budget is spent or
// the check fails, the waiter parks (park.go) and the releaser wakes it.
// The package cannot tell cheaply whether the holder itself is running,
// so the budget stays short: 128 pauses are a few microseconds on current
// x86 and arm64 cores, about the 4 × 30 PAUSEs sync.Mutex spins, long
// enough to cover a short critical section of a running holder.
//
// canSpin is asked every canSpinEvery pauses (and before the first), not
// at every pause: it is a call that reads a few scheduler words.
const (
	spinBudget   = 128
	canSpinEvery = 16
)

// canSpin is sync.Mutex's spin check, sync.runtime_canSpin in the runtime,
// called with 0 so that only the conditions above apply, not its count
// of rounds. The runtime keeps this linkname for outside users
// (go.dev/issue/67401).
//
//go:linkname canSpin sync.runtime_canSpin
func canSpin(i int) bool

// strictFIFO, set only by tests before they start goroutines, keeps
// Ticket and MCS waiters in line (spinning and yielding) instead of
// leaving it, so that tests can check the queue order among waiters that
// never leave.
var strictFIFO bool

// spinning reports whether a waiter that has spun i pauses should spin
// on.
func spinning(i int) bool { return spinningUpTo(i, spinBudget) }

// spinningUpTo is spinning with a budget of its own.
func spinningUpTo(i, budget int) bool {
	return i < budget && (i%canSpinEvery != 0 || canSpin(0))
}

// Brief waits. A few waits are not lock waits but the other side of a
// two-step operation that is known to be in progress (an MCS successor
// between joining the queue and linking itself). They spin and yield
// with runtime.Gosched until it finishes, asking the kernel to run another
// thread (sched_yield on Linux) every osYieldEvery yields, for when the
// goroutine waited for sits on an OS thread the kernel has descheduled.
const osYieldEvery = 8

// waiter counts the pauses and yields of one brief wait.
type waiter struct {
	spins  int
	yields int
}

// pause spins once, or yields when the budget is spent.
func (w *waiter) pause() {
	if w.spins < spinBudget {
		w.spins++
		pause()
		return
	}
	w.spins = 0
	w.yields++
	if w.yields%osYieldEvery == 0 && !mayNotSleep() {
		osYield()
	}
	yield()
}

// pauseYields is true where hal.Pause runs its portable variant, which
// yields the processor (runtime.Gosched): the race and purego builds and
// the GOARCHes without assembly. A goroutine that holds a percpu.Pin must
// not yield, so there pause spins in the runtime's own spin loop instead.
var pauseYields = func() bool {
	for _, c := range hal.Selected() {
		if c.Op == "pause" {
			return c.Variant == "portable"
		}
	}
	return true
}()

// pause is the wait loops' spin hint: hal.Pause, except that where
// hal.Pause yields and the goroutine holds a percpu.Pin it is the
// runtime's procyield loop (sync.Mutex's spin step), which never yields.
func pause() {
	if pauseYields && mayNotSleep() {
		doSpin()
		return
	}
	hal.Pause()
}

// doSpin is sync.Mutex's spin step, sync.runtime_doSpin in the runtime
// (procyield: 30 PAUSE or YIELD instructions), kept for outside users
// like canSpin (go.dev/issue/67401).
//
//go:linkname doSpin sync.runtime_doSpin
func doSpin()
