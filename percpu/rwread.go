package percpu

import (
	"github.com/gohal/gohal/internal/fencelight"
	"github.com/gohal/gohal/internal/pin"
)

// The pinless read path. Where the build has it (pinlessBuild: generated
// from gen/rwread, linux/amd64 with the Go releases whose runtime layout
// it knows), RLock and RUnlock past the solo lane call rwRLock and
// rwRUnlock, assembly that counts a spread reader in and out on its P's
// line as rlock and runlock do, but finds the P in the runtime's
// structures instead of pinning: the runtime never preempts assembly
// asynchronously, and the body makes no call, so the goroutine keeps its
// P for as long as the body runs. Every other case jumps to the Go
// functions below, whose arguments are the assembly's own. Elsewhere
// rwRLock and rwRUnlock are rlock and runlock.

// pinless turns the assembly on; the assembly reads it on every call.
// It is set at init only if the P id the assembly reads agrees with the
// runtime's procPin, so that a runtime built with a layout the generator
// did not see (an experiment that adds a field) takes the Go path.
var pinless = pinlessBuild && pinlessAgrees()

// halFenceLight points to the byte hal.FenceLight tests
// (internal/fencelight), which the assembly tests too: it counts a reader
// without a fence (in on a biased lock, out on any) only while FenceLight
// would not fence.
var halFenceLight = fencelight.Reaches

// pinlessAgreeChecks is how many times pinlessAgrees compares the two
// ids: each check costs a few nanoseconds at init.
const pinlessAgreeChecks = 64

// pinlessAgrees reports whether procID returns the P id that procPin
// returns, each time it is asked.
func pinlessAgrees() bool {
	for range pinlessAgreeChecks {
		id := pin.ProcPin()
		got := procID()
		pin.ProcUnpin()
		if got != id {
			return false
		}
	}
	return true
}

// rwRLockLane is where rwRLock jumps when RLock counted in on the open
// solo lane and left its fast path: rlockLane.
func rwRLockLane(rw *RWMutex) { rw.rlockLane(false) }

// rwRUnlockLane is where rwRUnlock jumps when RUnlock counted out on the
// open solo lane and left its fast path: runlockLane.
func rwRUnlockLane(rw *RWMutex) { rw.runlockLane() }

// rwRLockSlow is where rwRLock jumps when it cannot count on a P's line.
func rwRLockSlow(rw *RWMutex) { rw.rlock(false) }

// rwRLockFailed is where rwRLock jumps after counting in and out again
// because the state changed: as rlock then, it wakes the writer that may
// have summed the count in, and waits for it.
func rwRLockFailed(rw *RWMutex) {
	rw.wakeWriter()
	rw.rlockSlow()
}

// rwTryBias is where rwRLock jumps, with the caller counted in, when a
// reader should try to turn the bias back on (rlock's rebias).
func rwTryBias(rw *RWMutex) { rw.tryBias() }

// rwRUnlockSlow is where rwRUnlock jumps when it cannot count out on a
// P's line (the lane's reader may be inside, or no line).
func rwRUnlockSlow(rw *RWMutex) { rw.runlock() }

// rwSignalWriter is where rwRUnlock jumps after counting out when it
// sees a writer's flag.
func rwSignalWriter(rw *RWMutex) { rw.signalWriter() }
