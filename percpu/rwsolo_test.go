package percpu

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/internal/inlinecheck"
)

// TestRWMutexSoloLane: one goroutine at a time reads through the solo
// lane and leaves the lock as it found it (no lines made, the word 0); a
// writer's flag goes in the word while the lane is open; a reader inside
// another's RLock is counted on the word too, and notes an overlap, which
// the next write forgets.
func TestRWMutexSoloLane(t *testing.T) {
	var rw RWMutex
	for range 1000 {
		rw.RLock()
		if v := atomic.LoadUint32(&rw.solo); v != soloReader {
			t.Fatalf("solo word %#x inside a lone RLock", v)
		}
		rw.RUnlock()
	}
	var overlap uint32 // counted only where the lane may close (slotsPay)
	if slotsPay {
		overlap = 1
	}
	rw.RLock()
	rw.RLock()
	if v := atomic.LoadUint32(&rw.solo); v != 2*soloReader || rw.tally != overlap {
		t.Fatalf("solo word %#x, score %d inside two RLocks: want two readers and, where slotsPay, an overlap", v, rw.tally)
	}
	rw.RUnlock()
	rw.RUnlock()
	rw.Lock()
	if v := atomic.LoadUint32(&rw.solo); v != soloWriter || rw.state.Load() != 0 || rw.tally != overlap {
		t.Fatalf("solo word %#x, state %#x, score %d under Lock on an open lane", v, rw.state.Load(), rw.tally)
	}
	rw.Unlock()
	if rw.tally != 0 {
		t.Fatalf("score %d after a write: want it halved, to 0", rw.tally)
	}
	if v := atomic.LoadUint32(&rw.solo); v != 0 || rw.cells.Load() != nil || rw.locks != 0 || rw.unlocks != 0 {
		t.Fatalf("after reads and a write: solo %#x, cells %v, counts %d/%d", v, rw.cells.Load() != nil, rw.locks, rw.unlocks)
	}
}

// TestRWMutexLaneOverlapsClose: each reader that finds others inside adds
// one to the lane's overlap score and each write halves it (where
// slotsPay); the overlap that would bring the score to laneCloseAt's
// threshold closes the lane and spreads. The test follows the rule step by
// step, for both thresholds: a reader that takes the lock again inside its
// own RLock overlaps once, so half the threshold less one such overlaps per
// write never close the lane, and half plus one close it within a few
// writes. A writer then waits for the reader that came in through the lane
// and counts out on a line.
func TestRWMutexLaneOverlapsClose(t *testing.T) {
	setSlotsPay(t, true)
	for _, at := range []int{rwLaneOverlapsCheap, rwLaneOverlaps} {
		setLaneCloseAt(t, uint32(at))
		laneOverlapsRule(t, at)
	}
	closeAt := int(laneCloseAt())

	var rw RWMutex
	rw.RLock() // through the lane, and stays inside
	for range closeAt {
		rw.RLock()   // the last of these closes the lane, counted on the word
		rw.RUnlock() // on a closed lane: out on a line
	}
	// The word's count stops moving at the close: the two readers counted
	// in there count out on the lines.
	want := uint32(soloClosed | 2*soloReader)
	if v := atomic.LoadUint32(&rw.solo); v != want || rw.cells.Load() == nil {
		t.Fatalf("solo word %#x, cells %v after %d overlaps: want %#x and the lines made", v, rw.cells.Load() != nil, closeAt, want)
	}
	rw.RLock() // on a line now
	rw.RUnlock()
	if rw.TryLock() {
		t.Fatal("TryLock succeeded with a reader inside")
	}
	locked := lockAsync(&rw)
	notYet(t, locked, "Lock returned with the lane's reader inside")
	rw.RUnlock()
	<-locked
	rw.Unlock()
	if v := atomic.LoadUint32(&rw.solo); v != want {
		t.Fatalf("solo word %#x: want %#x, the lane closed for good", v, want)
	}
}

// TestRWMutexReadPathsInline: RLock and RUnlock inline into the caller,
// as sync.RWMutex's do: each is a load, a comparison, an atomic add and
// another comparison on the solo word, calling out only off the lane. Both
// are near the budget: one more node adds a call to every read of a lock
// read by one goroutine at a time. The host's default build and the purego
// build are checked.
func TestRWMutexReadPathsInline(t *testing.T) {
	inlinecheck.Inlinable(t, "(*RWMutex).RLock", "(*RWMutex).RUnlock")
	inlinecheck.InlinableWith(t, []string{"-tags=purego"}, "(*RWMutex).RLock", "(*RWMutex).RUnlock")
}

// TestRWMutexSoloReaderAfterClose: the lane closes while its reader is
// inside, with nothing counted on the lines; a writer, now on the state
// word, still waits for that reader (readersGone counts the word's).
func TestRWMutexSoloReaderAfterClose(t *testing.T) {
	var rw RWMutex
	rw.RLock() // through the lane
	if rw.spread() == nil {
		t.Fatal("spread refused with no writer")
	}
	locked := lockAsync(&rw)
	for !rw.writerFlag() {
		time.Sleep(time.Millisecond)
	}
	notYet(t, locked, "Lock returned with the lane's reader inside")
	rw.RUnlock()
	<-locked
	rw.Unlock()
}

// lockAsync calls rw.Lock on a goroutine of its own and returns a channel
// closed once it returns.
func lockAsync(rw *RWMutex) <-chan struct{} {
	locked := make(chan struct{})
	go func() {
		rw.Lock()
		close(locked)
	}()
	return locked
}

// notYet fails t with msg if ch is closed within 20 ms: what it waits for
// must not have happened yet. A loaded machine only makes it pass.
func notYet(t *testing.T, ch <-chan struct{}, msg string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatal(msg)
	case <-time.After(20 * time.Millisecond):
	}
}

// TestRWMutexLaneCountCapped: the reader that finds soloAdmitMax readers
// counted on the open lane closes it, even in builds where overlaps never
// do (slotsPay false), so that no number of readers carries the word's
// count into its flags. The readers past it count on the lock's other
// counters; every reader counts out, and a writer then gets in.
func TestRWMutexLaneCountCapped(t *testing.T) {
	setSlotsPay(t, false)
	rw := new(RWMutex)
	n := soloAdmitMax + 3
	for range n {
		rw.RLock()
	}
	// The reader that found soloAdmitMax took its add back.
	want := uint32(soloClosed | (soloAdmitMax-1)*soloReader)
	if v := atomic.LoadUint32(&rw.solo); v != want {
		t.Fatalf("after %d readers: solo word %#x, want %#x (closed, the count frozen)", n, v, want)
	}
	if rw.TryLock() {
		t.Fatal("TryLock succeeded with readers inside")
	}
	for range n {
		rw.RUnlock()
	}
	rw.Lock()
	rw.Unlock()
	rw.RLock()
	rw.RUnlock()
	if !rw.TryLock() {
		t.Fatal("TryLock failed after every reader counted out")
	}
	rw.Unlock()
}

// laneOverlapsRule is TestRWMutexLaneOverlapsClose's check of the score
// rule for the threshold at, which the caller has set.
func laneOverlapsRule(t *testing.T, at int) {
	t.Helper()
	for _, perWrite := range []int{at/2 - 1, at/2 + 1} {
		var rw RWMutex
		score, closed := 0, false
		for write := 0; write < 32 && !closed; write++ {
			for range perWrite {
				rw.RLock()
				rw.RLock() // an overlap
				rw.RUnlock()
				rw.RUnlock()
				if closed = score == at-1; closed {
					break
				}
				score++
			}
			if closed {
				break
			}
			rw.Lock()
			rw.Unlock()
			score /= 2
			if v := atomic.LoadUint32(&rw.solo); v != 0 || rw.tally != uint32(score) || rw.cells.Load() != nil {
				t.Fatalf("%d overlaps per write, after write %d: solo word %#x, score %d, cells %v; want the lane open with score %d",
					perWrite, write+1, v, rw.tally, rw.cells.Load() != nil, score)
			}
		}
		if v := atomic.LoadUint32(&rw.solo); (v&soloClosed != 0) != closed || (rw.cells.Load() != nil) != closed {
			t.Fatalf("%d overlaps per write: solo word %#x, cells %v; the rule says closed %v", perWrite, v, rw.cells.Load() != nil, closed)
		}
		if closed != (2*perWrite > at) {
			t.Fatalf("%d overlaps per write: closed %v, yet the score settles near %d against %d", perWrite, closed, 2*perWrite, at)
		}
		rw.Lock() // the lane's readers all counted out
		rw.Unlock()
	}
}

// TestRWMutexLaneCloseTimed: laneCloseAt times this machine's reads once
// and keeps one of the two thresholds, the low one exactly when a read on
// the lines was the cheaper; a caller that holds a Pin before anyone has
// timed them gets the high one and times nothing (where the build pins).
func TestRWMutexLaneCloseTimed(t *testing.T) {
	setLaneCloseAt(t, 0) // not timed yet
	// The fallback build pins nothing.
	if Pinned {
		Pin()
		at := laneCloseAt()
		Unpin()
		if at != rwLaneOverlaps || laneCloseScore.Load() != 0 {
			t.Fatalf("pinned and untimed: laneCloseAt %d, stored %d; want %d, nothing stored", at, laneCloseScore.Load(), rwLaneOverlaps)
		}
	}
	at := laneCloseAt()
	if at != rwLaneOverlaps && at != rwLaneOverlapsCheap || laneCloseScore.Load() != at {
		t.Fatalf("laneCloseAt %d, stored %d; want %d or %d, stored", at, laneCloseScore.Load(), rwLaneOverlapsCheap, rwLaneOverlaps)
	}
	if again := laneCloseAt(); again != at {
		t.Fatalf("laneCloseAt changed from %d to %d without a new timing", at, again)
	}
	t.Logf("this machine: the lane closes at score %d (%d: a read on the lines was the cheaper)", at, rwLaneOverlapsCheap)
}
