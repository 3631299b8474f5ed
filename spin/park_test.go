package spin

import (
	"sync/atomic"
	"testing"
)

// BenchmarkParkWake measures the wait primitive: one op is a round trip
// in which goroutine A wakes B and parks, then B wakes A and parks, so
// two park/wake-ups (each a channel receive that blocks and a send that
// readies the goroutine) and two parking-lot mutex sections. Whose turn it
// is lives in an atomic word that each goroutine checks under its lot's
// mutex after registering, so no wake-up is lost and no timeout fires.
func BenchmarkParkWake(b *testing.B) {
	var a, bl parkingLot
	var turn atomic.Int32 // 0: A's turn, 1: B's
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			for turn.Load() != 1 {
				bl.park(func() bool { return turn.Load() != 1 }, parkTimeout)
				select {
				case <-stop:
					return
				default:
				}
			}
			turn.Store(0)
			a.wakeIfParked()
		}
	}()
	for b.Loop() {
		turn.Store(1)
		bl.wakeIfParked()
		for turn.Load() != 0 {
			a.park(func() bool { return turn.Load() != 0 }, parkTimeout)
		}
	}
	close(stop)
	turn.Store(1)
	bl.wakeIfParked()
	<-done
}
