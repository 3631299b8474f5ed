package percpu

import "testing"

// TestTurnMeter: over a block of timed spins, the share of the P's time
// its readers spin for writers decides: over rwTurnShare they park at once
// for rwTurnStint calls, then spin to measure a block afresh; under it
// they spin on. A spin longer than rwShortWait counts as rwShortWait.
func TestTurnMeter(t *testing.T) {
	var m turnMeter
	now := int64(1e9)
	timed := 0
	// calls readers find a writer, one every gap ns; those that do not
	// park at once spin d ns. It returns how many parked at once.
	run := func(calls int, d, gap int64) (parked int) {
		for range calls {
			switch park, time := m.begin(); {
			case park:
				parked++
			case time:
				timed++
				m.record(now, now+d)
			default:
				m.spun()
			}
			now += gap
		}
		return parked
	}
	// A block: a timed spin that marks the time, then rwTurnBlock timed,
	// one spin in rwTurnSample timed.
	const block = (rwTurnBlock + 1) * rwTurnSample
	under := int64(rwTurnShare) * 10_000 / 1024 / 2

	// Half the threshold: spin every time, one in rwTurnSample timed.
	if p := run(10*block, under, 10_000); p != 0 || timed != 10*block/rwTurnSample {
		t.Fatalf("spins half the threshold's share: %d parked at once, %d timed; want 0, %d", p, timed, 10*block/rwTurnSample)
	}
	// 40 %: a stint starts within a block, and then each block starts
	// another.
	if p := run(block, 400, 1000); p == 0 {
		t.Fatalf("spins 40%% of the time: none parked at once in a block")
	}
	run(int(m.parks.Load()), 400, 1000)
	if p := run(rwTurnStint+block, 400, 1000); p != rwTurnStint || m.parks.Load() != 0 {
		t.Errorf("spins 40%% of the time: %d of %d parked at once, %d left; want a stint, %d, and the next not begun", p, rwTurnStint+block, m.parks.Load(), rwTurnStint)
	}
	// Back to half the threshold: the block after the stint decides, and
	// readers spin on.
	run(block, under, 10_000)
	if p := run(10*block, under, 10_000); p != 0 {
		t.Errorf("spins half the threshold's share again: %d parked at once, want none", p)
	}
	// A spin whose thread lost its CPU counts as rwShortWait.
	if p := run(10*block, 30*rwShortWait, 300*rwShortWait); p != 0 {
		t.Errorf("spins of 30×rwShortWait every 300×: %d parked at once, want none", p)
	}
	// A spin that ended before the last timed one changes nothing.
	spin, span := m.spin.Load(), m.span.Load()
	m.last.Store(now)
	m.record(now-10, now-5)
	m.record(now-5, m.last.Load())
	if m.spin.Load() != spin || m.span.Load() != span {
		t.Errorf("spins that ended before the last: sums %d/%d, want %d/%d unchanged", m.spin.Load(), m.span.Load(), spin, span)
	}
}

// TestRWMutexTakingTurns: a reader that finds a writer on a P whose meter
// is in a stint gives up at once, using one of the stint's parks; with
// every P in a stint for good, the lock still excludes and hands over
// (GOROOT's hammer) in each mode with per-P lines.
func TestRWMutexTakingTurns(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	forMode(t, func(t *testing.T, newLock func() *RWMutex) {
		rw := newLock()
		cs := rw.cells.Load()
		if cs == nil {
			t.Skip("no per-P lines in this mode: readers there always spin")
		}
		parks := func() (sum uint32) {
			for _, c := range rw.cells.Load() {
				sum += c.turn.parks.Load()
			}
			return sum
		}
		for _, c := range cs {
			c.turn.parks.Store(5)
		}
		rw.Lock()
		if rw.awaitWriter() {
			t.Fatal("awaitWriter saw the flag go down while the lock was held")
		}
		if got, want := parks(), uint32(5*len(cs)-1); got != want {
			t.Errorf("after a reader found the writer: %d parks left in the stints, want %d", got, want)
		}
		rw.Unlock()
		for _, c := range cs {
			c.turn.parks.Store(1 << 30)
		}
		hammerRW(t, rw, 4, 10, n)
	})
}
