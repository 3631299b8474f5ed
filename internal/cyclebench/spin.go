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
	spinSink   atomic.Uint64
	calibOnce  sync.Once
	itersPerNs float64
)

// ItersPerNs returns how many steps of [SpinIters] take one nanosecond,
// calibrating on first use.
func ItersPerNs() float64 {
	calibOnce.Do(func() { itersPerNs = calibrate(200, 20*time.Microsecond) })
	return itersPerNs
}

// Calibrate measures the speed of Spin's busy loop now and keeps it. Spin
// calibrates itself on first use; call Calibrate first to pay the cost
// (a few milliseconds) outside a measurement.
func Calibrate() {
	ItersPerNs()
}

// calibrate times rounds short runs of the busy loop, each sized to last
// about window, and returns the speed of the fastest tenth. On a shared
// machine many windows lose time to other threads, and a long window or
// the median would then underestimate the speed (making every Spin too
// short); a window of tens of microseconds usually runs undisturbed, and
// the 90th percentile discards the odd clock hiccup.
func calibrate(rounds int, window time.Duration) float64 {
	// Find an iteration count that takes about window.
	n := 64
	for {
		t0 := time.Now()
		SpinIters(n)
		d := time.Since(t0)
		if d >= window/4 || n > 1<<40 {
			n = max(1, int(float64(n)*float64(window)/float64(max(d, 1))))
			break
		}
		n *= 2
	}
	rates := make([]float64, rounds)
	for i := range rates {
		t0 := time.Now()
		SpinIters(n)
		rates[i] = float64(n) / float64(max(time.Since(t0), 1))
	}
	sort.Float64s(rates)
	return rates[len(rates)*9/10]
}
