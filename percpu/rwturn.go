package percpu

import (
	"sync/atomic"

	"github.com/gohal/gohal/internal/pin"
)

// Taking turns: whether a P's readers that find a writer spin for its flag
// to go down or park at once (awaitWriter).
//
// A reader that spins for a writer keeps its P reading beside the writers:
// that is what makes the lock's reads parallel. But each write it spins
// through moves the lock's cache lines between the CPUs several times (the
// flag's raise and release, the writer's sum over the reader's line, the
// reader's count in on a line the writer has just read, w passing between
// writers), and the spin lasts only part of that. Where those transfers
// are slow and writes frequent, the P loses more to them than reading in
// parallel gains; readers that park instead take turns with the writers on
// one P, as sync.RWMutex's readers and writers do, and move no lines. Each
// P's turn meter keeps the share of its time that its readers spend
// spinning for writers; over rwTurnShare, they park at once for a stint of
// rwTurnStint, then spin again to measure it afresh.

// turnMeter is one P's record of its readers' spins for writers, in the
// P's rwCell: over a block of rwTurnBlock timed spins, the time spent
// spinning and the time between them, whose ratio is the share. It is
// written with plain atomic loads and stores, no locked instruction, by
// readers without a pin: two that race lose a count, and one that moved to
// another P since it read its id writes that P's meter, which only blurs
// the sums.
type turnMeter struct {
	untimed atomic.Uint32 // spins since the last timed spin
	timed   atomic.Uint32 // timed spins in the block
	parks   atomic.Uint32 // readers left to park at once in the stint
	spin    atomic.Int64  // time spent spinning in the block (ns)
	span    atomic.Int64  // time the block's timed spins cover (ns)
	last    atomic.Int64  // when the last timed spin ended (monotonic), or 0
}

// turnMeter returns the caller's P's turn meter, or nil where the lock has
// no per-P lines (they are not made yet, or GOMAXPROCS grew since):
// readers there always spin. While the lane is open readers park at once
// and ask no meter (awaitWriter).
func (rw *RWMutex) turnMeter() *turnMeter {
	cs := rw.cells.Load()
	if cs == nil {
		return nil
	}
	id := pin.ProcPin()
	pin.ProcUnpin()
	if uint(id) >= uint(len(cs)) {
		return nil
	}
	return &cs[id].turn
}

// begin says what a reader that found a writer does: park at once (a
// stint is on), or spin, timed (every rwTurnSample-th spin) or not.
func (m *turnMeter) begin() (park, timed bool) {
	if p := m.parks.Load(); p > 0 {
		m.parks.Store(p - 1)
		return true, false
	}
	return false, (m.untimed.Load()+1)%rwTurnSample == 0
}

// spun records an untimed spin that saw the flag go down.
func (m *turnMeter) spun() { m.untimed.Store(m.untimed.Load() + 1) }

// record adds a timed spin that saw the flag go down, from start to end
// (monotonic ns); at the end of a block it starts a stint if the share is
// over rwTurnShare. The spin, and each untimed one since the last timed
// spin, is taken to cost as long, in the time since that one ended. Spins
// that gave up (the writer stayed, or spinning could not pay) do not
// count: they cost little, or waited for a writer whose stay says nothing
// of the lines.
func (m *turnMeter) record(start, end int64) {
	last := m.last.Load()
	if end <= last || end < start {
		return // another reader's spin ended later: its figure stands
	}
	m.last.Store(end)
	n := int64(m.untimed.Load()) + 1
	m.untimed.Store(0)
	if last == 0 {
		return // the first after a stint, or ever, only marks the time
	}
	gap := end - last
	// A spin is bounded by rwShortWait: one that lasted longer had its
	// thread or CPU taken away, which says nothing of the lock.
	spin, span := m.spin.Load()+min(n*min(end-start, rwShortWait), gap), m.span.Load()+gap
	if t := m.timed.Load() + 1; t < rwTurnBlock {
		m.timed.Store(t)
		m.spin.Store(spin)
		m.span.Store(span)
		return
	}
	m.timed.Store(0)
	m.spin.Store(0)
	m.span.Store(0)
	if spin*1024 > span*rwTurnShare {
		// The stint's parks are no time spent reading: the next
		// block starts at the first timed spin after it.
		m.last.Store(0)
		m.parks.Store(rwTurnStint)
	}
}
