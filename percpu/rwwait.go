package percpu

import (
	"fmt"
	"time"

	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/waitpolicy"
)

// RWMutex's tuning constants, each with its rule. Re-measure them with
// `go run ./cmd/halbench -filter '^RWLock/'` (every write share and thread
// count, beside sync.RWMutex and sync.Mutex) and `go run ./cmd/halbench
// peers` (beside xsync's RBMutex).
const (
	// rwInhibitFactor: after a revocation, and after every write while the
	// bias is off, readers keep the bias off until this many times the
	// last revocation's duration has passed without a write (tryBias), so
	// that revocations cost writers at most about 1/(1+rwInhibitFactor)
	// of their time. BRAVO's N is 9, and BRAVO counts from the revocation
	// only; but a revocation also interrupts every CPU that runs the
	// program, and readers that find its writer wait, so a lock written
	// every few revocations' time (0.1-1% writes) must not be biased at
	// all: counting from the last write keeps it off there (the rwlock
	// peers at w1 and w10), and costs a read-mostly lock only its readers'
	// locked adds for 30 revocations' time after its last write.
	rwInhibitFactor = 30

	// rwInhibitMax: the longest inhibition (ns), whatever a revocation
	// cost (a machine that stalls one for milliseconds): the bias comes
	// back at the latest this long after the last write.
	rwInhibitMax = int64(10 * time.Millisecond)

	// rwTickShift: RWMutex keeps the inhibition's end in an int32, in
	// ticks of 1<<rwTickShift ns (1.024 µs), which wrap every 36 minutes;
	// inhibitions are microseconds to rwInhibitMax, far shorter.
	rwTickShift = 10

	// rwRebiasEvery: a reader on a per-P line in the unbiased state looks
	// at the clock once per this many of its P's RLocks, to turn the bias
	// back on. A power of two, so the test is a mask; large enough that
	// the clock read (tens of nanoseconds) is lost in the RLocks.
	rwRebiasEvery = 1024

	// rwLaneReads: a lock read this many times through the solo lane
	// with no write between spreads where a spread read needs no locked
	// instruction (laneSpreads). A lane read pays two locked instructions
	// (what sync.RWMutex's reader pays), a biased read on the lines none;
	// spreading costs a line per P, and the next write a revocation
	// (FenceHeavy), after which the inhibition keeps a lock written that
	// often unbiased. A few hundred lane reads cost about one revocation;
	// like rwRebiasEvery, a power of two in the solo word's count.
	rwLaneReads = 1024

	// rwShortWait: how long (ns) a reader that finds a writer spins for it
	// to leave before it queues on the writers' mutex (and may park), and
	// a writer that took that mutex at once spins for readers before it
	// yields its P. About a goroutine switch: a writer's critical section,
	// or a reader's, that is shorter is cheaper to wait out than to park
	// or yield for, which also leaves Ps idle (with goroutines parked, a
	// P may find nothing to run). A writer that had to queue, or that sees
	// readers came in through the writers' mutex since the last writer
	// looked, yields at once: the readers it waits for may be waiting for
	// its P (sync.Mutex's handoff in starvation mode gives the P away).
	rwShortWait = 1000

	// rwWriterSpin: how long (ns) a writer waits for readers to leave
	// before it parks. About one wake-up's cost: a reader's critical
	// section shorter than that is cheaper to wait out than to park for
	// (and a parking writer pays a heavy fence first, see waitReaders).
	// Past rwShortWait it spins only while sync.Mutex would
	// (pin.CanSpin); with goroutines queued on its P, the readers it waits
	// for may be among them and cannot run while it spins, so it yields
	// the P instead.
	rwWriterSpin = 2000

	// rwPinnedWaitLimit: how long (ns) a goroutine that holds a Pin spins
	// for the lock before it panics (see the type's "Pinned callers").
	rwPinnedWaitLimit = time.Second
)

// monotonic returns nanoseconds on the waits' one clock
// (waitpolicy.Nanotime).
func monotonic() int64 { return waitpolicy.Nanotime() }

// spinPause is one step of a spin-wait: the kit's (waitpolicy.Pause),
// which never yields while the goroutine holds a Pin.
func spinPause() { waitpolicy.Pause() }

// pinnedClock times a pinned goroutine's wait: it cannot park, so it
// spins, and only a holder that keeps running ends the wait.
type pinnedClock struct{ waitpolicy.PinnedClock }

// pause spins one step and reports whether the wait has lasted
// rwPinnedWaitLimit.
func (c *pinnedClock) pause() bool {
	spinPause()
	return c.TimedOut(rwPinnedWaitLimit)
}

var pinnedWaitMessage = fmt.Sprintf("percpu: a goroutine that holds a Pin waited over %v for an RWMutex: "+
	"a pinned goroutine cannot park, so it spins, and the lock's holder is not running. "+
	"A lock that pinned goroutines take must be held only pinned (Pin, Lock, …, Unlock, Unpin)", time.Duration(rwPinnedWaitLimit))

// rwPanic panics with msg. A panic while pinned is a fatal error of the
// runtime, so it first releases the caller's Pins and says how many.
func rwPanic(msg string) {
	if pin.Held() {
		n := pin.Release()
		msg += fmt.Sprintf(" (the goroutine's %d Pin(s) were released so that it could panic: each matching Unpin now panics)", n)
	}
	panic(msg)
}
