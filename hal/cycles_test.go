package hal_test

import (
	"math"
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
)

// CycleFrequency must predict how far Cycles moves over a wall-clock
// interval measured independently of its calibration. Three tries, any
// within 20%, so that one descheduling at an edge does not fail the test.
func TestCycleFrequency(t *testing.T) {
	f := hal.CycleFrequency()
	if !(f > 0) || math.IsInf(f, 0) {
		t.Fatalf("CycleFrequency() = %v", f)
	}
	var rates []float64
	for range 3 {
		t0, c0 := time.Now(), hal.Cycles()
		time.Sleep(50 * time.Millisecond)
		c1, t1 := hal.Cycles(), time.Now()
		rate := float64(c1-c0) / t1.Sub(t0).Seconds()
		if math.Abs(rate/f-1) < 0.2 {
			t.Logf("CycleFrequency %.4g Hz; measured %.4g Hz over %v", f, rate, t1.Sub(t0))
			return
		}
		rates = append(rates, rate)
	}
	t.Errorf("CycleFrequency() = %.4g Hz, but Cycles moved at %.4g Hz", f, rates)
}
