package percpu

import (
	"sync/atomic"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
)

// The solo lane: while it is open, readers count themselves in and out
// on the solo word with one atomic add each way, inlined in RLock and
// RUnlock, as sync.RWMutex's readers do on its word. Readers that find
// others inside add to the lane's overlap score (the lock's tally), which
// each write halves; at laneCloseAt's score they close the lane for good,
// and readers then use the state word and the per-P lines
// (rwmutex_spread.go). A writer's flag is in the solo word while the lane
// is open (raise).

// The solo word, from the top bit down: the lane closed for good
// (soloClosed), the writer's flag while the lane is open (soloWriter), and
// the count of readers counted in on the word (soloReader each).
// So RLock's tests are two comparisons, v >= soloClosed before its add
// (the lane is closed) and r >= 2*soloReader after it (a writer's flag,
// the lane closed meanwhile, or another reader inside), and RUnlock's
// likewise, r >= soloWriter after its add also catching a count out of an
// empty word; each then fits the inliner's budget with its one call out.
//
// While the lane is open every reader inside is counted in on the word:
// lane readers, and readers counted in on their behalf (admitReaders, and
// countInUnderW for TryRLock and pinned readers). So an RUnlock that finds
// the lane open counts out there, an add, without knowing how its RLock
// came in: the lane closes for good, so it was open at that RLock too.
// Once the lane is closed, every RUnlock counts out on a line or the
// lock's own counters, and the word's count stops moving, but for readers
// that add to it and take their add back (RLock's race with the close):
// the counts in of the readers that were inside at the close stay there,
// and their counts out go on the lines. A writer adds the word's count to
// the counts in (readersGone), so the sums hold either way.
const (
	soloClosed = 1 << 31 // readers have overlapped: the lane is closed for good
	soloWriter = 1 << 30 // a writer holds the lock or waits for readers, while the lane is open
	soloReader = 1 << 0  // a reader counted in on the word (30 bits)

	soloCount    = soloWriter - soloReader // the readers' bits
	soloCountTop = soloWriter >> 1         // set only by a count out of an empty word (see soloAdmitMax)
	// soloLeave is what a reader adds to count out on the word: minus
	// soloReader.
	soloLeave = ^uint32(soloReader - 1)
	// soloAdmitMax bounds the word's count far below soloCountTop: a
	// writer admits parked readers into the word only while the count
	// stays under this, a reader that finds this many there closes the
	// lane (rlockLane), and TryRLock counts in on the word only below it
	// (countInUnderW); the rest go on the lock's own counters, with the
	// lane closed. So the count stays under twice this, but for adds
	// about to be taken back.
	soloAdmitMax = 1 << 16
)

// The fields fit: these fail to compile otherwise.
const (
	_ uint32 = rwLaneOverlaps - rwLaneOverlapsCheap
	_ uint32 = soloCountTop - 2*soloAdmitMax*soloReader // admissions stay below the top of the count
)

// rlockLane ends an RLock whose add on the open lane's word left the fast
// path (RLock's r >= 2*soloReader), and reports whether the caller is
// inside: false only if try is set and a writer holds the lock. It reads
// the word again. Past a writer's flag, or a lane closed meanwhile, it
// counts out again (the add is a full fence: a writer that summed the
// count in is woken) and goes on as rlock does; otherwise the caller is
// inside, and another reader there is an overlap, which may close the
// lane. Reading the word again rather than taking RLock's r is safe: a
// writer's flag found now, and not in r, is a writer that came later and
// may wait for this reader, which it wakes as it leaves; a flag in r and
// gone now was raised and lowered by a writer that did not wait for it.
func (rw *RWMutex) rlockLane(try bool) bool {
	// [R-lane-slow]
	v := atomic.LoadUint32(&rw.solo)
	// A count that reaches soloAdmitMax closes the lane, in every build,
	// so that no number of readers carries it into the flags.
	if v&soloCount >= soloAdmitMax*soloReader && rw.closeLane() {
		v |= soloClosed
	}
	if v&(soloWriter|soloClosed) != 0 {
		// [R-lane-back]
		atomic.AddUint32(&rw.solo, soloLeave)
		rw.wakeWriter()
		if v&soloClosed == 0 {
			return rw.rlockFailed(try)
		}
		return rw.rlock(try)
	}
	if v&soloCount > soloReader && slotsPay {
		// [R-overlap] Others are inside: count the overlap, or close
		// the lane.
		rw.laneOverlap()
	}
	return true
}

// laneOverlap notes that a lane reader found others inside, and closes
// the lane and spreads once the overlap score reaches laneCloseAt:
// readers on many Ps at once are what the per-P lines pay for, while a
// reader that takes the lock again inside its own RLock, on a lock written
// as often, overlaps once per write. The caller checks slotsPay: where it
// is false the lane's add is the cheapest count a reader can make, and the
// lane stays open.
//
// The score is the tally, a plain load and store (release): no locked
// instruction beside the lane's add. Readers racing lose counts, which
// only delays a close that the next overlaps make.
func (rw *RWMutex) laneOverlap() {
	if n := hal.LoadAcquireUint32(&rw.tally) + 1; n < laneCloseAt() {
		hal.StoreReleaseUint32(&rw.tally, n)
		return
	}
	rw.spread() // [S-close], refused under a writer's flag
}

// laneCloseScore is the overlap score at which lanes close, 0 until
// laneCloseAt has timed this machine's reads.
var laneCloseScore atomic.Uint32

// laneCloseAt returns the overlap score at which lanes close:
// rwLaneOverlapsCheap where a read on the per-P lines costs less than one
// on the lane (spreadReadsCheap), else rwLaneOverlaps. The first caller
// times both, tens of microseconds once per process; a caller that holds
// a Pin, which should not allocate the lines that takes, gets
// rwLaneOverlaps until another has. Once timed it inlines to a load.
func laneCloseAt() uint32 {
	if s := laneCloseScore.Load(); s != 0 {
		return s
	}
	return timeLaneClose()
}

// timeLaneClose is laneCloseAt's first call: it times the reads and
// stores the threshold.
func timeLaneClose() uint32 {
	if pin.Held() {
		return rwLaneOverlaps
	}
	s := uint32(rwLaneOverlaps)
	if spreadReadsCheap() {
		s = rwLaneOverlapsCheap
	}
	laneCloseScore.CompareAndSwap(0, s)
	return laneCloseScore.Load()
}

// spreadReadsCheap reports whether an RLock and RUnlock on the per-P
// lines cost less than on the lane, each timed on a lock of its own that
// no one else uses: the least of rwTimingRounds rounds of rwTimingReads,
// after a warm-up. The spread lock is fresh, so biased where the fence
// pair is asymmetric: the lines' cheapest read.
func spreadReadsCheap() bool {
	var lane, spread RWMutex
	spread.spread()
	least := func(rw *RWMutex) int64 {
		best := int64(1<<63 - 1)
		for range rwTimingRounds {
			start := monotonic()
			for range rwTimingReads {
				rw.RLock()
				rw.RUnlock()
			}
			best = min(best, monotonic()-start)
		}
		return best
	}
	least(&lane)
	least(&spread)
	return least(&spread) < least(&lane)
}

// rlockOpen is rlock while the solo lane is open: the lane's add, as
// RLock makes it.
func (rw *RWMutex) rlockOpen(try bool) bool {
	// [R-lane]
	if atomic.AddUint32(&rw.solo, soloReader) >= 2*soloReader {
		return rw.rlockLane(try)
	}
	return true
}

// runlockLane ends an RUnlock whose count out on the open lane's word left
// the fast path (RUnlock's r >= soloWriter): it wakes the writer whose
// flag it found, or, if the word had no reader to count out (an RUnlock
// without RLock), undoes its count out and panics.
func (rw *RWMutex) runlockLane() {
	// [U-lane-slow]
	if atomic.LoadUint32(&rw.solo)&soloCountTop != 0 {
		atomic.AddUint32(&rw.solo, soloReader)
		rwPanic("percpu: RUnlock of unlocked RWMutex")
	}
	// The add is a full fence, so either the writer's sum saw the count
	// out or this sees its flag.
	rw.wakeWriter()
}

// countInUnderW counts n readers in for a caller that holds w, so that no
// writer's flag is up (TryRLock and a pinned reader, one each; the
// releasing writer, the readers it admits): on the solo word while the lane
// is open and the word's count stays under soloAdmitMax, where their
// RUnlocks will count out (see the solo word); else on the lock's own
// counters, with the lane closed so that their RUnlocks count out on the
// lines.
func (rw *RWMutex) countInUnderW(n uint32) {
	if v := atomic.LoadUint32(&rw.solo); v < soloClosed && n < soloAdmitMax && v&soloCount < soloAdmitMax*soloReader {
		atomic.AddUint32(&rw.solo, n*soloReader)
	} else {
		rw.closeLane() // no writer's flag while we hold w
		atomic.AddUintptr(&rw.locks, uintptr(n))
	}
}

// closeLane closes the solo lane for good, and reports whether it is
// closed: false if a writer holds the lock through the open lane.
func (rw *RWMutex) closeLane() bool {
	// [S-close]
	for v := atomic.LoadUint32(&rw.solo); v&soloClosed == 0; v = atomic.LoadUint32(&rw.solo) {
		if v&soloWriter != 0 {
			return false
		}
		if atomic.CompareAndSwapUint32(&rw.solo, v, v|soloClosed) {
			break
		}
	}
	return true
}
