//go:build race

package counter

import "sync/atomic"

// Add adds delta to the counter.
//
// This is Add of adder_norace.go with the tick count's plain load and
// store made sync/atomic operations, for the race detector.
func (a *Adder) Add(delta int64) {
	if t := a.loadTicks() + 1; t != 0 {
		a.storeTicks(t)
		atomic.AddInt64(&a.base, delta)
	} else {
		a.addSlow(delta)
	}
}

// tickCount is the type of the tick count under the race detector: a
// 32-bit word, as sync/atomic has no 8-bit operations, of which only the
// low byte is used.
type tickCount = uint32

// loadTicks and storeTicks read and write the tick count.
func (a *Adder) loadTicks() uint8 { return uint8(atomic.LoadUint32(&a.ticks)) }

func (a *Adder) storeTicks(t uint8) { atomic.StoreUint32(&a.ticks, uint32(t)) }
