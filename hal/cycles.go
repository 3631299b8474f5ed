package hal

import (
	"sync"
	"time"
)

var (
	freqOnce sync.Once
	freqHz   float64
)

// CycleFrequency returns how many units of [Cycles] pass per second,
// calibrated once, on first use, against the monotonic clock (the
// calibration takes about 30 ms). It is the rate of the counter Cycles
// reads, which may differ from the core clock the CPU reports (the TSC's
// on amd64; a platform timer's, often 1 to 100 MHz, on some GOARCHes;
// under qemu-user often the host's): docs/variants.md names each
// GOARCH's counter, and halbench features prints the rate. In the
// portable build Cycles counts nanoseconds and the result is about 1e9.
func CycleFrequency() float64 {
	freqOnce.Do(func() { freqHz = calibrate(3, 10*time.Millisecond) })
	return freqHz
}

// calibrate measures the counter against the monotonic clock over rounds
// windows of the given length and returns the median rate, which shrugs off
// a window in which the thread was descheduled at an edge.
func calibrate(rounds int, window time.Duration) float64 {
	rates := make([]float64, 0, rounds)
	for range rounds {
		t0, c0 := time.Now(), Cycles()
		for time.Since(t0) < window {
		}
		c1, t1 := Cycles(), time.Now()
		rates = append(rates, float64(c1-c0)/t1.Sub(t0).Seconds())
	}
	for i := 1; i < len(rates); i++ {
		for j := i; j > 0 && rates[j] < rates[j-1]; j-- {
			rates[j], rates[j-1] = rates[j-1], rates[j]
		}
	}
	return rates[len(rates)/2]
}
