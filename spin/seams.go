package spin

import (
	"sync"
	"sync/atomic"
	"time"
)

// seams are the switches tests use to force a path. Production code reads
// them only where it is about to park, yield or read the clock, never on
// a path that locks or unlocks without waiting nor inside a spin loop; the
// tests set them through useSeams (export_test.go).
type seams struct {
	// strictFIFO keeps Ticket and MCS waiters in line (spinning and
	// yielding) instead of leaving it, so that tests can check the queue
	// order among waiters that never leave.
	strictFIFO bool
	// noYieldAfterWake turns off the yields to a woken waiter (handOver's
	// and yieldIfStuck's), for a test that needs a releaser to re-lock
	// before the woken waiter runs.
	noYieldAfterWake bool
	// now, if not nil, is schedNow's clock.
	now func() int64
}

// testSeams is nil outside tests.
var testSeams atomic.Pointer[seams]

// strictFIFO reports whether a test keeps FIFO waiters in line.
func strictFIFO() bool {
	s := testSeams.Load()
	return s != nil && s.strictFIFO
}

// yieldsAfterWake reports whether a TAS-family releaser may yield to the
// waiter it woke (always, but in a test that turns it off).
func yieldsAfterWake() bool {
	s := testSeams.Load()
	return s == nil || !s.noYieldAfterWake
}

// schedNow is the clock of the scheduling points and of the TAS family's
// wake marks, in nanoseconds since clockBase (monotonic).
func schedNow() int64 {
	if s := testSeams.Load(); s != nil && s.now != nil {
		return s.now()
	}
	return int64(time.Since(clockBase))
}

var clockBase = time.Now()

// testCounts is set by the tests (export_test.go's init) and nil in a
// program: the counts of events that tests wait for or assert, which no
// lock type carries. Production code adds to them only where it is about
// to park or yield, never on a path that locks or unlocks without waiting.
var testCounts atomic.Pointer[counts]

// counts are the events testCounts counts.
type counts struct {
	// yields counts the yields at scheduling points (schedYield).
	yields atomic.Uint64
	// parks counts the goroutines that parked on a sema (sema.acquire).
	parks atomic.Uint64
	// sleepers counts, per *MCS, the waiters that swung their node to
	// mcsLeft or mcsSleeping and have not been woken yet (*atomic.Int32).
	sleepers sync.Map
}

// countYield counts a yield at a scheduling point, in a test.
func countYield() {
	if c := testCounts.Load(); c != nil {
		c.yields.Add(1)
	}
}

// countPark counts a goroutine about to park on a sema, in a test.
func countPark() {
	if c := testCounts.Load(); c != nil {
		c.parks.Add(1)
	}
}

// countSleeper adds d to l's sleepers, in a test.
func countSleeper(l *MCS, d int32) {
	if c := testCounts.Load(); c != nil {
		n, ok := c.sleepers.Load(l)
		if !ok { // allocates once per lock, so that a test of allocations sees none after
			n, _ = c.sleepers.LoadOrStore(l, new(atomic.Int32))
		}
		n.(*atomic.Int32).Add(d)
	}
}
