//go:build !race

package counter

import "sync/atomic"

// Add adds delta to the counter.
func (a *Adder) Add(delta int64) {
	// The tick count is read and written with a plain load and store, no
	// locked instruction. It is a hint: it picks which Adds probe for
	// contention and says whether the Adder has cells, and the count is
	// right whatever it holds, as every path adds to a word Load sums.
	// Two goroutines may lose each other's stores, which only moves a
	// probe. It is one byte, which every platform loads and stores in
	// one access: by the Go memory model's rule for word-sized (and
	// smaller) locations, a racing load observes a value some store
	// wrote. Under the race detector, which cannot tell a hint from
	// shared data, the accesses are sync/atomic ones (adder_race.go).
	//
	// This body costs 80 inlining units, the inliner's budget: written
	// with loadTicks and storeTicks, or with the early return, it is not
	// inlined.
	if t := a.ticks + 1; t != 0 {
		a.ticks = t
		atomic.AddInt64(&a.base, delta)
	} else {
		a.addSlow(delta)
	}
}

// tickCount is the type of the tick count: a byte, whose increment wraps
// every probeEvery Adds.
type tickCount = uint8

// loadTicks and storeTicks read and write the tick count (see Add).
func (a *Adder) loadTicks() uint8 { return a.ticks }

func (a *Adder) storeTicks(t uint8) { a.ticks = t }
