package percpu

import "sync/atomic"

// The solo lane: a reader that finds the lock idle takes it with one
// compare-and-swap on the solo word, inlined in RLock and RUnlock; the
// first reader that finds another inside (or, where laneSpreads, the
// lane's rwLaneReads-th read since a write) closes it for good, and
// readers then use the state word and the per-P lines (rwmutex_spread.go).
// A writer's flag is in the solo word while the lane is open (raise).

// The solo word. While the lane is open a reader that finds the word 0
// takes the lock by setting soloIn, and a writer raises soloWriter there
// instead of rwWriter in the state. The first reader that finds another
// inside closes the lane for good and spreads; from then on readers use
// the state word and the per-P counts, and the word only says whether a
// reader that came through the lane before it closed is still inside.
//
// Readers are not told apart: any RUnlock that finds soloIn set may clear
// it, whichever way its RLock came in, and its counts in stay for the
// reader that came through the lane to count out on. A writer adds soloIn
// to the counts in (readersGone), so the sums hold either way.
//
// Above the flags the word counts the lane's RLocks since the last write,
// up to rwLaneReads (soloFull): a lane reader that finds the count full
// spreads where a spread read needs no locked instruction (laneSpreads),
// and elsewhere restarts the count.
const (
	soloIn     = 1 << 0 // a reader is inside through the lane
	soloWriter = 1 << 1 // a writer holds the lock or waits for readers, while the lane is open
	soloClosed = 1 << 2 // readers have overlapped: the lane is closed for good
	soloRead   = 1 << 3 // one RLock through the lane, counted above the flags

	soloFlags = soloIn | soloWriter | soloClosed
	// soloFull is the count at which a lane reader leaves the fast path:
	// one bit, above the count's (rwLaneReads is a power of two, and the
	// count stops there), so that RLock tests it with the flags at once.
	soloFull = rwLaneReads * soloRead
)

// rlockOpen is rlock while the solo lane is open: it takes the lane if the
// lock is idle, fails (rlockFailed) if a writer holds it, and closes the
// lane and spreads if another reader is inside.
func (rw *RWMutex) rlockOpen(try bool) bool {
	for {
		// [R-open]
		v := atomic.LoadUint32(&rw.solo)
		switch {
		case v&soloClosed != 0:
			return rw.rlock(try)
		case v&soloFlags == 0 && v >= soloFull && laneSpreads():
			// Read rwLaneReads times with no write between: spread,
			// where reads on the lines cost no locked instruction.
			if rw.spread() != nil {
				return rw.rlock(try)
			}
		case v&soloFlags == 0:
			if atomic.CompareAndSwapUint32(&rw.solo, v, laneTake(v)) {
				return true
			}
		case v&soloWriter != 0:
			return rw.rlockFailed(try)
		default: // soloIn: another reader is inside, so readers overlap
			if !slotsPay {
				// Two system calls a read would cost far more than
				// the shared line spreading avoids: count in on the
				// lock's own counters, as sync.RWMutex's readers do.
				rw.closeLane()
				continue
			}
			if rw.spread() != nil {
				return rw.rlock(try)
			}
		}
	}
}

// runlockSolo clears soloIn (see the solo word), or counts out as runlock
// does if another RUnlock clears it first.
func (rw *RWMutex) runlockSolo() {
	for v := atomic.LoadUint32(&rw.solo); v&soloIn != 0; v = atomic.LoadUint32(&rw.solo) {
		// [U-solo-cas]
		if atomic.CompareAndSwapUint32(&rw.solo, v, v&^soloIn) {
			// The compare-and-swap is a full fence, so either the
			// writer's sum sees soloIn clear or this sees its flag.
			if v&soloWriter != 0 || rw.state.Load()&rwWriter != 0 {
				rw.signalWriter()
			}
			return
		}
	}
	rw.runlock()
}

// laneSpreads reports whether a lane that has counted rwLaneReads reads
// with no write between spreads. Only where readers on the lines pay no
// locked instruction: the pinless read path with the asymmetric fence
// pair, where a biased read costs a few loads and plain adds, against the
// lane's two locked instructions per read (what sync.RWMutex's adds
// cost). Where a read on a line pins (two calls) or, unbiased, pays a
// locked add, the lane is as cheap or cheaper, and allocates nothing;
// so also once hal has degraded the pair (heavyReaches).
func laneSpreads() bool { return pinless && asymmetric && heavyReaches() }

// laneCounts says whether the lane counts its reads. It does only in
// builds with the pinless read path, the only ones where laneSpreads can
// be true.
// Counting makes RLock and RUnlock too large to inline (a load and a
// compare-and-swap of constants fit the inliner's budget, a masked value
// does not): there, a spread read is a call too. Elsewhere the lane keeps
// its constant, inlined form, and its word never holds a count.
const laneCounts = pinlessBuild

// laneTake returns the solo word after a lane reader takes the lane from
// v, which has no flags. That is soloIn, with the count one up where the
// lane counts (restarted if full, where laneSpreads is false).
func laneTake(v uint32) uint32 {
	switch {
	case !laneCounts:
		return soloIn
	case v&soloFull != 0:
		return soloIn + soloRead
	}
	return v + soloIn + soloRead
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
