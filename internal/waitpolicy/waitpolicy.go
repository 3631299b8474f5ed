// Package waitpolicy is the kit's one waiting policy, for package spin's
// locks and percpu's RWMutex.
//
// It has the spin step, the variant lookup and the clock of a waiter that
// holds a Pin, with their constants and rules.
package waitpolicy

import (
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
)

// Variant returns the variant hal chose for op (hal.Selected), or "" if
// hal lists no such op.
func Variant(op string) string {
	for _, c := range hal.Selected() {
		if c.Op == op {
			return c.Variant
		}
	}
	return ""
}

// PauseYields is true where hal.Pause runs its portable variant, which
// yields the processor. That variant (runtime.Gosched) is the race and
// purego builds' and that of the GOARCHes without assembly. It is also true if hal lists no pause,
// the safe side: a goroutine that holds a Pin must not yield.
var PauseYields = Variant("pause") == "portable" || Variant("pause") == ""

// Pause is one step of a spin-wait, which never yields while the
// goroutine holds a Pin. It is hal.Pause, except that where hal.Pause
// yields and the goroutine holds a Pin it is the runtime's own spin step
// (sync.Mutex's procyield, pin.DoSpin). The Pin is asked only in those builds.
func Pause() {
	if PauseYields && pin.Held() {
		pin.DoSpin()
		return
	}
	hal.Pause()
}

// PinnedPollEvery: a pinned waiter reads the clock every PinnedPollEvery
// pauses.
//
// Rule: a pinned wait's limit is about a second; reading the clock at
// every pause would slow the spin for nothing. A power of two, so the
// test is a mask.
const PinnedPollEvery = 1024

// PinnedClock times the wait of a goroutine that holds a Pin. Such a
// goroutine cannot park, so it spins, and only a holder that keeps
// running ends the wait.
// A holder that is not pinned can block, or be stopped by a
// stop-the-world that itself waits for the spinning waiter, and the
// program would hang: past a limit the waiter panics instead, naming the
// rule (each package says its message). The zero value starts a wait.
type PinnedClock struct {
	start int64 // Nanotime at the first clock read
	n     uint32
	late  bool // the last clock read found the limit passed
}

// TimedOut counts one pause of the wait, reads the clock every
// PinnedPollEvery, and reports whether the wait has lasted limit.
//
// It reports true only at the second clock read past the limit, so that
// the caller, which tries the lock between pauses, tries it
// PinnedPollEvery more times after it has seen the limit pass: a waiter
// that the OS descheduled past the limit (a stopped process, a paused
// VM) finds a lock released meanwhile instead of panicking.
func (c *PinnedClock) TimedOut(limit time.Duration) bool {
	c.n++
	if c.n%PinnedPollEvery != 0 {
		return false
	}
	if c.start == 0 {
		c.start = max(Nanotime(), 1)
		return false
	}
	if time.Duration(Nanotime()-c.start) <= limit {
		return false
	}
	if !c.late {
		c.late = true
		return false
	}
	return true
}

// epoch is the origin of Nanotime.
var epoch = time.Now()

// Nanotime returns nanoseconds on the monotonic clock since an origin set
// at init: the waits' one clock (time.Since reads the runtime's
// monotonic clock, one call).
func Nanotime() int64 { return int64(time.Since(epoch)) }
