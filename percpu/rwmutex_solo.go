package percpu

import "sync/atomic"

// The solo lane: a reader that finds the lock idle takes it with one
// compare-and-swap on the solo word, inlined in RLock and RUnlock; the
// first reader that finds another inside (or, where laneSpreads, the
// lane's rwLaneReads-th read since a write) closes it for good, and
// readers then use the state word and the per-P lines (rwmutex_spread.go).
// A writer's flag is in the solo word while the lane is open (raise).

// The solo word. While the lane is open a reader that finds no flag set
// takes the lock by setting soloIn, and a writer raises soloWriter there
// instead of rwWriter in the state. The first reader that finds another
// inside closes the lane for good and spreads; from then on readers use
// the state word and the per-P counts, and the word only says whether a
// reader that came through the lane before it closed is still inside.
//
// The lane's reader is soloIn while no other flag is set and soloHeld
// beside soloWriter or soloClosed (soloWith moves it), so that RLock's
// test is one comparison, v < soloFull (no flag, the count not full),
// and RUnlock's another, v >= soloIn (the lane's reader alone): each then
// fits the inliner's budget with its compare-and-swap and its call out.
//
// Readers are not told apart: any RUnlock that finds the lane's reader
// inside may clear it, whichever way its RLock came in, and its counts in
// stay for the reader that came through the lane to count out on. A
// writer adds that reader to the counts in (readersGone), so the sums hold
// either way.
//
// Below the flags the word counts the lane's RLocks since the last write,
// up to rwLaneReads (soloFull): a lane reader that finds the count full
// spreads where a spread read needs no locked instruction (laneSpreads),
// and elsewhere restarts the count.
const (
	soloIn     = 1 << 31 // a reader is inside through the lane, and no other flag is set
	soloWriter = 1 << 30 // a writer holds the lock or waits for readers, while the lane is open
	soloClosed = 1 << 29 // readers have overlapped: the lane is closed for good
	soloHeld   = 1 << 28 // a reader is inside through the lane, beside soloWriter or soloClosed
	soloRead   = 1       // one RLock through the lane, counted below the flags

	soloInside = soloIn | soloHeld // the lane's reader, either way
	soloFlags  = soloIn | soloWriter | soloClosed | soloHeld
	// soloFull is the count at which a lane reader leaves the fast path;
	// the count stops there, below the flags.
	soloFull = rwLaneReads * soloRead
)

// The count stays below the flags: this fails to compile otherwise.
const _ uint32 = soloHeld - soloFull - 1

// soloWith returns the solo word v with flag (soloWriter or soloClosed)
// set, its reader, if any, moved from soloIn to soloHeld.
func soloWith(v, flag uint32) uint32 {
	if v&soloIn != 0 {
		v = v&^soloIn | soloHeld
	}
	return v | flag
}

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

// runlockSolo clears the lane's reader (soloInside; see the solo word), or
// counts out as runlock does if another RUnlock clears it first.
func (rw *RWMutex) runlockSolo() {
	for v := atomic.LoadUint32(&rw.solo); v&soloInside != 0; v = atomic.LoadUint32(&rw.solo) {
		// [U-solo-cas]
		if atomic.CompareAndSwapUint32(&rw.solo, v, v&^soloInside) {
			// The compare-and-swap is a full fence, so either the
			// writer's sum sees the reader gone or this sees its flag.
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

// laneCounts says whether the lane counts its reads: only in builds with
// the pinless read path, the only ones where laneSpreads can be true.
// Elsewhere the lane keeps its constant form (the word is 0 or soloIn),
// whose RLock and RUnlock inline with the call out to rlock and runlock
// inlined too, and the word never holds a count.
const laneCounts = pinlessBuild

// laneTake returns the solo word after a lane reader takes the lane from
// v, which has no flags. That is soloIn, with the count one up where the
// lane counts (restarted if full, where laneSpreads is false).
func laneTake(v uint32) uint32 {
	switch {
	case !laneCounts:
		return soloIn
	case v >= soloFull:
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
		if atomic.CompareAndSwapUint32(&rw.solo, v, soloWith(v, soloClosed)) {
			break
		}
	}
	return true
}
