//go:build gohal_nolinkname || purego

package pin

import (
	"runtime"
	"sync/atomic"

	"github.com/gohal/gohal/hal"
)

// Pinned reports whether ProcPin and Pin exclude other goroutines from the
// returned id: false in this fallback build (tags gohal_nolinkname,
// purego), which does not link to the runtime; true in the default build.
const Pinned = false

// ncpu is the number of CPUs the process could use when it started (its
// affinity mask), the range ProcPin reduces hal.CPU to.
var ncpu = runtime.NumCPU()

// ProcPin returns the number of the CPU the calling goroutine ran on a
// moment ago (hal.CPU), reduced into [0, runtime.NumCPU()): the kernel
// numbers CPUs in [0, its count of CPU ids), which under an affinity mask
// (taskset) exceeds NumCPU, and hal.CPU's amd64 variants wrap at 4096. It
// excludes nothing: data indexed by it needs atomic operations or a lock.
func ProcPin() int { return reduce(hal.CPU(), ncpu) }

// IDs is the size of ProcPin's range: the CPU count at init, whatever
// GOMAXPROCS is (the CPU number, not the P, is the index here, and a
// thread runs on any CPU of its mask however few Ps there are). Sizing
// the tables by it, rather than folding the CPU number into GOMAXPROCS,
// keeps the range fixed for the life of the process, so a table grown to
// IDs() holds every id ProcPin returns; folding would have to read
// GOMAXPROCS on every ProcPin (the scheduler's lock) or use a copy that
// goes stale when the runtime changes it. Distinct CPUs keep distinct
// slots, at one slot per CPU rather than per P.
func IDs() int { return ncpu }

// reduce maps a CPU number into [0, n) (n >= 1), leaving the numbers
// already in range as they are.
func reduce(cpu, n int) int {
	if uint(cpu) < uint(n) {
		return cpu
	}
	return int(uint(cpu) % uint(n))
}

// ProcUnpin ends what ProcPin began: nothing, in this build.
func ProcUnpin() {}

// Pin is ProcPin in this build: it disables nothing.
func Pin() int { return ProcPin() }

// Unpin does nothing in this build; an Unpin without a Pin cannot be
// detected.
func Unpin() {}

// Held reports whether the calling goroutine holds a Pin: never, in this
// build, which pins nothing.
func Held() bool { return false }

// Release drops the calling goroutine's Pins and returns how many there
// were: none, in this build, which pins nothing.
func Release() int { return 0 }

// CanSpin reports whether a waiter should spin rather than park: in this
// fallback build, which cannot see the scheduler, whether GOMAXPROCS was
// above one at init (read then, since reading it takes the scheduler's
// lock), so that a spin is bounded only by its own time limit.
func CanSpin() bool { return multiP }

var multiP = runtime.GOMAXPROCS(0) > 1

// DoSpin is one spin step that never yields the processor. Nothing is
// pinned in this build, so the waiting policy never asks for it; it
// loads a word 30 times, as the runtime's spin step pauses 30 times.
func DoSpin() {
	for range 30 {
		spinSink.Load()
	}
}

// spinSink keeps DoSpin's loop from being optimized away.
var spinSink atomic.Uint32
