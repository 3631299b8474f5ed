package percpu

import (
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRWMutexSoloLane: one goroutine at a time reads through the solo
// lane and leaves the lock as it found it (no lines made, the word 0); a
// writer's flag goes in the word while the lane is open.
func TestRWMutexSoloLane(t *testing.T) {
	var rw RWMutex
	for range 1000 {
		rw.RLock()
		if v := atomic.LoadUint32(&rw.solo); v != soloIn {
			t.Fatalf("solo word %#x inside a lone RLock", v)
		}
		rw.RUnlock()
	}
	rw.Lock()
	if v := atomic.LoadUint32(&rw.solo); v != soloWriter || rw.state.Load() != 0 {
		t.Fatalf("solo word %#x, state %#x under Lock on an open lane", v, rw.state.Load())
	}
	rw.Unlock()
	if v := atomic.LoadUint32(&rw.solo); v != 0 || rw.cells.Load() != nil || rw.locks != 0 || rw.unlocks != 0 {
		t.Fatalf("after lone reads and a write: solo %#x, cells %v, counts %d/%d", v, rw.cells.Load() != nil, rw.locks, rw.unlocks)
	}
}

// TestRWMutexSoloOverlapCloses: a second reader that finds the lane's
// reader inside closes the lane and spreads, and a writer then waits for
// both, whichever of them leaves first (an RUnlock may clear soloIn for
// another reader: their counts move, the sum does not). The second
// RLock's count in is on a per-P line and the first RUnlock clears
// soloIn: the writer must count the reader left inside from the line.
func TestRWMutexSoloOverlapCloses(t *testing.T) {
	var rw RWMutex
	rw.RLock() // through the lane
	rw.RLock() // finds it taken: closes and spreads
	if v := atomic.LoadUint32(&rw.solo); v != soloIn|soloClosed || rw.cells.Load() == nil {
		t.Fatalf("solo word %#x, cells %v after two readers", v, rw.cells.Load() != nil)
	}
	rw.RUnlock() // clears soloIn, whichever RLock it undoes
	if rw.TryLock() {
		t.Fatal("TryLock succeeded with a reader inside")
	}
	locked := make(chan struct{})
	go func() {
		rw.Lock()
		close(locked)
	}()
	select {
	case <-locked:
		t.Fatal("Lock returned with a reader inside")
	case <-time.After(20 * time.Millisecond):
	}
	rw.RUnlock()
	<-locked
	rw.Unlock()
	rw.RLock() // the lane stays closed
	if v := atomic.LoadUint32(&rw.solo); v != soloClosed {
		t.Fatalf("solo word %#x: the lane reopened", v)
	}
	rw.RUnlock()
}

// TestRWMutexSoloWriterWaits: a writer on the open lane waits for the
// lane's reader, and a reader that comes while it waits waits for it.
func TestRWMutexSoloWriterWaits(t *testing.T) {
	var rw RWMutex
	rw.RLock()
	locked := make(chan struct{})
	go func() {
		rw.Lock()
		close(locked)
	}()
	for atomic.LoadUint32(&rw.solo)&soloWriter == 0 {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-locked:
		t.Fatal("Lock returned with the lane's reader inside")
	case <-time.After(20 * time.Millisecond):
	}
	if rw.TryRLock() {
		t.Fatal("TryRLock succeeded with a writer waiting on the lane")
	}
	late := make(chan struct{})
	go func() {
		rw.RLock()
		close(late)
		rw.RUnlock()
	}()
	rw.RUnlock()
	<-locked
	select {
	case <-late:
		t.Fatal("a reader got in while the writer held the lock")
	case <-time.After(20 * time.Millisecond):
	}
	rw.Unlock()
	<-late
}

// TestRWMutexReadPathsInline: RLock and RUnlock inline into the caller,
// as sync.RWMutex's do: each is a load and a compare-and-swap on the solo
// word, calling out only off the lane. One more node in either adds a call
// to every read of a lock read by one goroutine at a time.
func TestRWMutexReadPathsInline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "build", "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`: (can|cannot) inline \(\*RWMutex\)\.(RLock|RUnlock)\b(.*)`)
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			seen[m[2]] = true
			if m[1] != "can" {
				t.Errorf("(*RWMutex).%s no longer inlines%s", m[2], m[3])
			}
		}
	}
	for _, fn := range []string{"RLock", "RUnlock"} {
		if !seen[fn] {
			t.Errorf("(*RWMutex).%s: the compiler said nothing about inlining it (renamed?)", fn)
		}
	}
}

// TestRWMutexSoloReaderAfterClose: the lane closes while its reader is
// inside, with nothing counted on the lines; a writer, now on the state
// word, still waits for that reader (readersGone counts soloIn).
func TestRWMutexSoloReaderAfterClose(t *testing.T) {
	var rw RWMutex
	rw.RLock() // through the lane
	if rw.spread() == nil {
		t.Fatal("spread refused with no writer")
	}
	locked := make(chan struct{})
	go func() {
		rw.Lock()
		close(locked)
	}()
	for !rw.writerFlag() {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-locked:
		t.Fatal("Lock returned with the lane's reader inside")
	case <-time.After(20 * time.Millisecond):
	}
	rw.RUnlock()
	<-locked
	rw.Unlock()
}
