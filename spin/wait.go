package spin

import (
	_ "unsafe" // for go:linkname

	"github.com/gohal/gohal/internal/waitpolicy"
)

// canSpin is sync.Mutex's spin check, sync.runtime_canSpin in the runtime: more
// than one CPU, another processor running Go code (where the holder may be) and
// nothing queued on this processor, which it should run instead. It is called
// with 0, so that its count of rounds does not apply; a waiter asks it every
// canSpinEvery pauses (tuning.go). The runtime keeps this linkname for outside
// users (go.dev/issue/67401).
//
//go:linkname canSpin sync.runtime_canSpin
func canSpin(i int) bool

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
// thread every osYieldEvery yields (tuning.go).

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

// pause is the wait loops' spin hint: the kit's one spin step
// (waitpolicy.Pause: hal.Pause, except that where hal.Pause yields and the
// goroutine holds a percpu.Pin it is the runtime's procyield loop,
// sync.Mutex's spin step, which never yields).
func pause() { waitpolicy.Pause() }
