package percpu

import (
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/pin"
)

// The spread path: once the solo lane is closed, readers count themselves
// in and out on counters that only grow, each P's pair on a cache line of
// its own (rwCell), or on the lock's own counters before the lines are
// made; and, where hal's heavy fence is asymmetric, the bias toward readers
// (BRAVO) and its inhibition. The same per-P path in assembly is
// rwread.go's.

// rwCell is one P's reader counts for one RWMutex, on a cache line of its
// own: the counts written only by goroutines pinned to that P, the turn
// meter by its readers that wait for writers (rwturn.go).
type rwCell struct {
	rwCellWords
	_ [cacheline.Size - unsafe.Sizeof(rwCellWords{})%cacheline.Size]byte
}

// rwCellWords are what an rwCell holds: the P's reader counts (first: the
// assembly's offsets), and its turn meter.
type rwCellWords struct {
	rwCounts
	turn turnMeter
}

// rwCounts are the counts a reader adds to on its P: RLocks and RUnlocks,
// each only growing (wrapping), so that their difference is the readers
// inside whichever P they left from.
type rwCounts struct {
	locks, unlocks uintptr
}

// rlock counts the caller in unless a writer holds or wants the lock, and
// reports whether it did; a reader that sees the state change after
// counting in counts out again. Where it does not count in, it returns
// false if try is set and else waits (rlockSlow). RLock calls it off the
// solo lane. The per-P path is written out here, and every other case is
// a call away (rlockNoLine): this is the one call a spread reader pays
// besides the pin's, and it reads nothing it does not need.
func (rw *RWMutex) rlock(try bool) bool {
	// The lines are loaded before the pin, so that a lock with none pays
	// no pin (a system call in some fallback builds). Lines, once made,
	// stay: a table loaded earlier holds the same ones, or fewer.
	// [R-cells]
	cs := rw.cells.Load()
	if cs == nil {
		return rw.rlockNoLine(try)
	}
	id := pin.ProcPin()
	if uint(id) < uint(len(cs)) {
		// The lines exist, so the lane is closed: spread closes it
		// before it makes them.
		// [R-state]
		s := rw.state.Load()
		if s&rwWriter != 0 {
			pin.ProcUnpin()
			return rw.rlockFailed(try)
		}
		c := cs[id]
		light := pin.Pinned && s&rwBiased != 0
		if light {
			// The revoking writer's heavy fence pairs with hal.FenceLight.
			// [R-in] and [R-fence], light
			hal.StoreReleaseUintptr(&c.locks, hal.LoadAcquireUintptr(&c.locks)+1)
			hal.FenceLight()
		} else {
			// A full fence. Without it each writer would have to
			// learn that this P's count came before its flag or
			// after the P saw the flag: a heavy fence per write (what
			// the bias's inhibition avoids), or a round trip with
			// every reader's P per write, which the writer and the
			// readers it stalls wait out on every write, and which
			// a reader's P busy elsewhere never answers.
			// [R-in], a locked add: its own [R-fence]
			atomic.AddUintptr(&c.locks, 1)
		}
		// [R-recheck]
		if rw.state.Load() == s {
			// [R-rebias] tryBias asks whether the fence pair allows a bias.
			rebias := s&rwBiased == 0 && hal.LoadAcquireUintptr(&c.locks)%rwRebiasEvery == 0
			pin.ProcUnpin()
			if rebias {
				rw.tryBias()
			}
			return true
		}
		// [R-backout], then [R-wake]. Always a locked add, a full fence,
		// on this slow path: the count out is visible before the wake-up
		// whatever the writers do, so it does not depend on the next
		// writer's heavy fence before parking ([W-heavy]).
		atomic.AddUintptr(&c.unlocks, 1)
		pin.ProcUnpin()
		rw.wakeWriter()
		return rw.rlockFailed(try)
	}
	pin.ProcUnpin()
	return rw.rlockNoLine(try)
}

// rlockNoLine is rlock where the caller's P has no line: the lane is open
// (rlockOpen), or closed with the lines not made yet (rlockOwn), or
// GOMAXPROCS grew since they were made.
func (rw *RWMutex) rlockNoLine(try bool) bool {
	// [R-noline]
	if atomic.LoadUint32(&rw.solo)&soloClosed == 0 {
		return rw.rlockOpen(try)
	}
	if rw.cells.Load() != nil {
		// Grow the lines for the next readers (to pin.IDs(); never
		// blocks), and count this one on the lock's own counters, which
		// a writer sums with the lines': a retry on the lines could find
		// the id out of range again if GOMAXPROCS keeps changing.
		rw.cells.Grow(0)
	}
	return rw.rlockOwn(try)
}

// rlockOwn is rlock on the lock's own counters: the lane is closed and the
// lines are not made yet (the moment between the two in spread). The add
// is a full fence, so the flag loaded after it is the only check needed.
func (rw *RWMutex) rlockOwn(try bool) bool {
	// [R-own-in]
	n := atomic.AddUintptr(&rw.locks, 1)
	// [R-own-flag]
	if rw.state.Load()&rwWriter == 0 {
		if n-atomic.LoadUintptr(&rw.unlocks) > 1 && slotsPay {
			// Another reader is inside: readers overlap on this
			// word, so spread the next ones over per-P lines.
			rw.spread()
		}
		return true
	}
	// [R-own-out], then [R-wake]
	atomic.AddUintptr(&rw.unlocks, 1)
	rw.wakeWriter()
	return rw.rlockFailed(try)
}

// runlock is RUnlock on a closed lane (see the solo word): counts out on the current P's line or, before
// the lines are made, on the lock's own counters (runlockNoLine). The
// per-P path is written out here, as in rlock, so that it costs one call.
//
// On a P's line the count out is a release store and FenceLight, biased
// or not: a writer that waits for this reader sees it, or heavy-fences
// before it parks (waitReaders), after which this reader's load of the
// flag sees the flag.
func (rw *RWMutex) runlock() {
	// [U-cells]
	cs := rw.cells.Load() // before the pin, as in rlock
	if cs == nil {
		rw.runlockNoLine()
		return
	}
	id := pin.ProcPin()
	if uint(id) < uint(len(cs)) {
		c := cs[id]
		if pin.Pinned {
			// [U-out] and [U-fence], light while FenceLight needs no
			// fence, biased or not: a writer heavy-fences before it
			// parks for a reader ([W-heavy] in waitReaders). FenceLight
			// tests hal's byte after the store, so a pair that degrades
			// meanwhile fences it fully.
			hal.StoreReleaseUintptr(&c.unlocks, hal.LoadAcquireUintptr(&c.unlocks)+1)
			hal.FenceLight()
		} else {
			// [U-out], a locked add: its own [U-fence]
			atomic.AddUintptr(&c.unlocks, 1)
		}
		pin.ProcUnpin()
		// As in wakeWriter; the lines exist, so the lane is closed and
		// a writer's flag can only be in the state word (raise).
		// [U-flag]
		if rw.state.Load()&rwWriter != 0 {
			rw.signalWriter()
		}
		return
	}
	pin.ProcUnpin()
	rw.runlockNoLine()
}

// runlockNoLine is runlock where the caller's P has no line: the lines
// are not made yet (runlockOwn), or GOMAXPROCS grew since they were.
func (rw *RWMutex) runlockNoLine() {
	if rw.cells.Load() == nil {
		rw.runlockOwn()
		return
	}
	// As in rlockNoLine: grow the lines, and count out on the lock's own
	// counters (a full fence), not retrying on the lines. Its RLock may
	// have counted in on a line, so the own counters alone prove no
	// misuse here; the next writer's sums do (readersGone).
	rw.cells.Grow(0)
	atomic.AddUintptr(&rw.unlocks, 1)
	rw.wakeWriter()
}

// runlockOwn is RUnlock on the lock's own counters, before the lines are
// made. Every count so far is on the lock itself (cells, once made,
// stay): this RUnlock's RLock counted in here, or on the solo word before
// the lane closed, so more counts out here than in on both (ownIns) is an
// RUnlock without RLock.
func (rw *RWMutex) runlockOwn() {
	// [U-own]
	if u := atomic.AddUintptr(&rw.unlocks, 1); int(u-rw.ownIns()) > 0 || rw.writerFlag() {
		rw.runlockCheck(u)
	}
}

// ownIns is the counts in on the lock itself: its own counter's and the
// solo word's.
func (rw *RWMutex) ownIns() uintptr {
	return atomic.LoadUintptr(&rw.locks) + uintptr(atomic.LoadUint32(&rw.solo)&soloCount)/soloReader
}

// runlockCheck ends an RUnlock on the lock's own counters that found more
// outs than ins (u of them), an RUnlock without RLock, or a writer's flag.
func (rw *RWMutex) runlockCheck(u uintptr) {
	if int(u-rw.ownIns()) > 0 {
		atomic.AddUintptr(&rw.unlocks, ^uintptr(0))
		rwPanic("percpu: RUnlock of unlocked RWMutex")
	}
	rw.wakeWriter()
}

// spread closes the solo lane, makes the per-P cells and, where the heavy
// fence is asymmetric and no revocation is recent, biases the lock toward
// readers. It returns nil, and changes nothing, if a writer holds the lock
// through the open lane (its readers must keep failing on the solo word).
// Readers call it only where slotsPay.
func (rw *RWMutex) spread() []*rwCell {
	if !rw.closeLane() {
		return nil
	}
	return rw.spreadClosed()
}

// spreadClosed is spread once the lane is closed: it makes the per-P
// cells and tries the bias.
func (rw *RWMutex) spreadClosed() []*rwCell {
	cs := rw.cells.Grow(0) // [S-grow]
	// The tally was the lane's score: now it is the generation readers
	// last saw, this one (writes on the lane made none).
	hal.StoreReleaseUint32(&rw.tally, uint32(rw.state.Load()/rwGen))
	rw.tryBias()
	return cs
}

// tryBias turns the bias on unless a writer is there or writes are
// recent: it waits for a stretch with no write that lasts inhibition(),
// first from the revocation itself (raise) and then from the first look
// after each write (each makes a new generation, release), so that a
// lock written often stays unbiased and its writes revoke nothing.
// Turning the bias on needs no fence: a reader that still sees the old
// state fences fully, and the next writer revokes with a heavy fence.
//
// Only where hal's heavy fence is asymmetric, and still is (heavyReaches:
// not after hal degraded the pair): with both sides full fences a biased
// reader would pay a fence on top of its count (see fence.go).
func (rw *RWMutex) tryBias() {
	if !asymmetric || !heavyReaches() {
		return
	}
	now := monotonic()
	if inhibited(rw.until.Load(), ticks(now)) {
		return
	}
	// [B-load]
	s := rw.state.Load()
	if g := uint32(s / rwGen); g != hal.LoadAcquireUint32(&rw.tally) {
		hal.StoreReleaseUint32(&rw.tally, g)
		rw.until.Store(ticks(now + inhibition()))
		return
	}
	if s&(rwWriter|rwBiased) == 0 {
		// [B-cas]
		rw.state.CompareAndSwap(s, s|rwBiased)
	}
}

// revocation is how long (ns) the last revocation's heavy fence took, in
// any lock: its cost is the machine's and the program's (the CPUs it runs
// on), not one lock's.
var revocation atomic.Int64

// inhibition is how long (ns) readers keep the bias off after a
// revocation or a write: rwInhibitFactor revocations, at most
// rwInhibitMax.
func inhibition() int64 {
	return min(revocation.Load()*rwInhibitFactor, rwInhibitMax)
}

// ticks is monotonic time t (ns) in units of 1<<rwTickShift ns, wrapping
// in an int32 (every 36 minutes), as RWMutex's until holds it.
func ticks(t int64) int32 { return int32(t >> rwTickShift) }

// inhibited reports whether now is before until, both ticks: until is
// ahead of now by no more than the longest inhibition (an until ahead by
// more was set over a wrap ago and has passed).
func inhibited(until, now int32) bool {
	d := until - now // wraps
	return d > 0 && int64(d) <= rwInhibitMax>>rwTickShift+1
}
