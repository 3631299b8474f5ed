package cyclebench

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Spin busy-waits for about ns nanoseconds without touching shared memory
// or calling into the runtime: a stand-in for a critical section of known
// length. It runs a chain of dependent multiply-adds whose length was
// calibrated against the monotonic clock on first use (see [Calibrate]);
// the result feeds a branch the compiler cannot remove, so the loop is not
// optimised away. Spin(0) and negative values return at once.
func Spin(ns int) {
	if ns <= 0 {
		return
	}
	SpinIters(int(float64(ns) * ItersPerNs()))
}

// SpinIters runs n steps of Spin's busy loop.
func SpinIters(n int) {
	x := uint64(n) | 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	// x is practically never 0, but the compiler cannot prove it, so the
	// loop must run.
	if x == 0 {
		spinSink.Add(1)
	}
}

var (
	spinSink    atomic.Uint64
	calibOnce   sync.Once
	itersPerNs  float64
	calibWindow = 2 * time.Millisecond
)

// ItersPerNs returns how many steps of [SpinIters] take one nanosecond,
// calibrating on first use.
func ItersPerNs() float64 {
	calibOnce.Do(func() { itersPerNs = calibrate(7, calibWindow) })
	return itersPerNs
}

// Calibrate measures the speed of Spin's busy loop now, over several short
// windows, and keeps the median. Spin calibrates itself on first use; call
// Calibrate first to pay the cost (about 15 ms) outside a measurement.
func Calibrate() {
	ItersPerNs()
}

// calibrate times rounds runs of the busy loop, each sized to last about
// window, and returns the median speed, which shrugs off a round in which
// the goroutine was descheduled.
func calibrate(rounds int, window time.Duration) float64 {
	// Find an iteration count that takes about window.
	n := 1000
	for {
		t0 := time.Now()
		SpinIters(n)
		d := time.Since(t0)
		if d >= window/4 || n > 1<<40 {
			n = int(float64(n) * float64(window) / float64(max(d, 1)))
			break
		}
		n *= 4
	}
	rates := make([]float64, rounds)
	for i := range rates {
		t0 := time.Now()
		SpinIters(n)
		rates[i] = float64(n) / float64(max(time.Since(t0), 1))
	}
	sort.Float64s(rates)
	return rates[len(rates)/2]
}
