package cyclebench

import (
	"math"
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
	calibOnce.Do(func() { itersPerNs = calibrateStable(20 * time.Microsecond) })
	return itersPerNs
}

// Calibrate measures the speed of Spin's busy loop now and keeps it. Spin
// calibrates itself on first use; call Calibrate first to pay the cost
// (a few milliseconds) outside a measurement.
func Calibrate() {
	ItersPerNs()
}

// calibrateStable repeats calibrate until two passes in a row agree
// within 3% (at most 20 passes) and returns the fastest pass. A program
// that has just started may run the loop slowly for a while (an emulator
// such as qemu translating the runtime's code on other threads ran it at
// a third of its speed for the first few milliseconds).
func calibrateStable(window time.Duration) float64 {
	best := calibrate(50, window)
	prev := best
	for range 19 {
		r := calibrate(50, window)
		best = max(best, r)
		if math.Abs(r-prev) <= 0.03*max(r, prev) {
			break
		}
		prev = r
	}
	return best
}

// calibrate times rounds short runs of the busy loop, each sized to last
// between one and two windows, and returns the speed of the fastest tenth. On a shared
// machine many windows lose time to other threads, and a long window or
// the median would then underestimate the speed (making every Spin too
// short); a window of tens of microseconds usually runs undisturbed, and
// the 90th percentile discards the odd clock hiccup.
func calibrate(rounds int, window time.Duration) float64 {
	// Warm up (an emulator translates the loop on first use), then
	// double the iteration count until one run takes at least window, so
	// that the clock's resolution and the cost of reading it are small
	// next to every measured run.
	SpinIters(1000)
	n := 64
	for {
		t0 := time.Now()
		SpinIters(n)
		if time.Since(t0) >= window || n > math.MaxInt/4 {
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
