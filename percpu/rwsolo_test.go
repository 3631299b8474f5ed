package percpu

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/internal/inlinecheck"
)

// TestRWMutexSoloLane: one goroutine at a time reads through the solo
// lane and leaves the lock as it found it (no lines made, the word 0); a
// writer's flag goes in the word while the lane is open.
func TestRWMutexSoloLane(t *testing.T) {
	var rw RWMutex
	for range 1000 {
		rw.RLock()
		if v := atomic.LoadUint32(&rw.solo); v&soloFlags != soloIn {
			t.Fatalf("solo word %#x inside a lone RLock", v)
		}
		rw.RUnlock()
	}
	rw.Lock()
	if v := atomic.LoadUint32(&rw.solo); v&soloFlags != soloWriter || rw.state.Load() != 0 {
		t.Fatalf("solo word %#x, state %#x under Lock on an open lane", v, rw.state.Load())
	}
	rw.Unlock()
	if v := atomic.LoadUint32(&rw.solo); v != 0 || rw.cells.Load() != nil || rw.locks != 0 || rw.unlocks != 0 {
		t.Fatalf("after lone reads and a write: solo %#x, cells %v, counts %d/%d", v, rw.cells.Load() != nil, rw.locks, rw.unlocks)
	}
}

// TestRWMutexLaneCountsReads: the lane counts its reads since the last
// write; a reader that finds rwLaneReads of them spreads where
// laneSpreads says (reads on the lines then pay no locked instruction),
// and elsewhere restarts the count and stays on the lane. A write
// restarts the count too.
func TestRWMutexLaneCountsReads(t *testing.T) {
	var rw RWMutex
	for range rwLaneReads - 1 {
		rw.RLock()
		rw.RUnlock()
	}
	rw.Lock()
	rw.Unlock()
	if v := atomic.LoadUint32(&rw.solo); v != 0 {
		t.Fatalf("solo word %#x after a write: the count did not restart", v)
	}
	for range rwLaneReads + 1 {
		rw.RLock()
		rw.RUnlock()
	}
	v := atomic.LoadUint32(&rw.solo)
	if laneSpreads() {
		if v&soloClosed == 0 || rw.cells.Load() == nil {
			t.Fatalf("solo word %#x, cells %v after %d lone reads: want spread", v, rw.cells.Load() != nil, rwLaneReads+1)
		}
		return
	}
	want := uint32(0) // the lane does not count here
	if laneCounts {
		want = soloRead // restarted by the 1025th read
	}
	if v != want || rw.cells.Load() != nil {
		t.Fatalf("solo word %#x, cells %v after %d lone reads: want the lane, its count restarted", v, rw.cells.Load() != nil, rwLaneReads+1)
	}
}

// TestRWMutexSoloOverlapCloses: a second reader that finds the lane's
// reader inside closes the lane and spreads, and a writer then waits for
// both, whichever of them leaves first (an RUnlock may clear the lane's
// reader for another reader: their counts move, the sum does not). The
// second RLock's count in is on a per-P line and the first RUnlock clears
// soloHeld: the writer must count the reader left inside from the line.
func TestRWMutexSoloOverlapCloses(t *testing.T) {
	setSlotsPay(t, true)
	var rw RWMutex
	rw.RLock() // through the lane
	rw.RLock() // finds it taken: closes and spreads
	if v := atomic.LoadUint32(&rw.solo); v&soloFlags != soloHeld|soloClosed || rw.cells.Load() == nil {
		t.Fatalf("solo word %#x, cells %v after two readers", v, rw.cells.Load() != nil)
	}
	rw.RUnlock() // clears soloHeld, whichever RLock it undoes
	if rw.TryLock() {
		t.Fatal("TryLock succeeded with a reader inside")
	}
	locked := lockAsync(&rw)
	notYet(t, locked, "Lock returned with a reader inside")
	rw.RUnlock()
	<-locked
	rw.Unlock()
	rw.RLock() // the lane stays closed
	if v := atomic.LoadUint32(&rw.solo); v&soloFlags != soloClosed {
		t.Fatalf("solo word %#x: the lane reopened", v)
	}
	rw.RUnlock()
}

// TestRWMutexReadPathsInline: RLock and RUnlock inline into the caller,
// as sync.RWMutex's do: each is a load, one comparison and a
// compare-and-swap on the solo word, calling out only off the lane. The
// counting form (laneCounts: the pinless build) is at the budget: one more
// node in either adds a call to every read of a lock read by one goroutine
// at a time. The host's default build, and the purego build, which never
// counts, are checked.
func TestRWMutexReadPathsInline(t *testing.T) {
	inlinecheck.Inlinable(t, "(*RWMutex).RLock", "(*RWMutex).RUnlock")
	inlinecheck.InlinableWith(t, []string{"-tags=purego"}, "(*RWMutex).RLock", "(*RWMutex).RUnlock")
}

// TestRWMutexSoloReaderAfterClose: the lane closes while its reader is
// inside, with nothing counted on the lines; a writer, now on the state
// word, still waits for that reader (readersGone counts soloHeld).
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
