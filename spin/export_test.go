package spin

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
)

// LockKindNames returns the names of the locks the tests iterate over
// (lockKinds), for the external test that checks the benchmark suite
// measures each of them.
func LockKindNames() []string {
	var names []string
	for _, k := range lockKinds {
		names = append(names, k.name)
	}
	return names
}

// useSeams sets the test seams (seams.go) for the rest of t, restoring
// those in force before when t ends.
func useSeams(t testing.TB, s seams) {
	old := testSeams.Swap(&s)
	t.Cleanup(func() { testSeams.Store(old) })
}

// The tests count the events of testCounts (seams.go).
func init() { testCounts.Store(new(counts)) }

// schedYields returns how many yields the scheduling points have made.
func schedYields() uint64 { return testCounts.Load().yields.Load() }

// semaParks returns how many goroutines have parked on a sema.
func semaParks() uint64 { return testCounts.Load().parks.Load() }

// mcsSleepers returns how many waiters of l have published that they
// sleep (or are about to) and have not been woken yet.
func mcsSleepers(l *MCS) uint32 {
	if n, ok := testCounts.Load().sleepers.Load(l); ok {
		return uint32(n.(*atomic.Int32).Load())
	}
	return 0
}

// waiters returns how many goroutines are counted as parked or parking.
func (s *tasState) waiters() uint32 { return hal.LoadAcquireUint32(&s.state) >> tasWaiterShift }

// sleeping returns how many waiters of l have published that they sleep
// (or are about to).
func (l *Ticket) sleeping() uint32 {
	n := uint32(0)
	for i := range l.slots {
		if k := l.slots[i].mark.Load() & 3; k == slotLeft || k == slotStay {
			n++
		}
	}
	return n
}

// queued returns how many goroutines are parked on s.
func (s *sema) queued() int {
	s.lock()
	n := 0
	for w := s.head; w != nil; w = w.next {
		n++
	}
	s.unlock()
	return n
}
