package spin

import (
	"sync/atomic"
	"testing"
)

// BenchmarkParkWake measures the wait primitive: one op is a round trip
// in which goroutine A wakes B and parks, then B wakes A and parks, so
// two park/wake-ups, each a channel receive that blocks and a send that
// readies the goroutine. Whose turn it is lives in an atomic word, and
// each goroutine owns the one wake-up of the other's parker, as a FIFO
// lock's releaser owns its waiter's.
func BenchmarkParkWake(b *testing.B) {
	a, bp := parkers.Get().(*parker), parkers.Get().(*parker)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			<-bp.wake
			if stop.Load() {
				return
			}
			a.unpark()
		}
	}()
	for b.Loop() {
		bp.unpark()
		<-a.wake
	}
	stop.Store(true)
	bp.unpark()
	<-done
	parkers.Put(a)
	parkers.Put(bp)
}
