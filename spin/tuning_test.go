package spin

import (
	"testing"
	"time"
)

// TestBudgetsAreTimes checks that the spin budgets derive from durations
// through the pause cost measured at init, within pausesIn's bounds.
func TestBudgetsAreTimes(t *testing.T) {
	if pauseCost <= 0 {
		t.Fatalf("pauseCost %v, want > 0", pauseCost)
	}
	if got, want := spinBudget, pausesIn(spinWait); got != want {
		t.Errorf("spinBudget %d, want pausesIn(spinWait) = %d", got, want)
	}
	if lo, hi := pausesIn(0), pausesIn(time.Hour); lo != 1 || hi != 1<<14 {
		t.Errorf("pausesIn bounds %d and %d, want 1 and %d", lo, hi, 1<<14)
	}
	if newcomerBudget < 1 || tasNewcomerBudget < 1 || minBackoff < 1 || maxBackoff < minBackoff {
		t.Errorf("budgets newcomer %d, TAS newcomer %d, backoff %d..%d: each must be at least 1, in order",
			newcomerBudget, tasNewcomerBudget, minBackoff, maxBackoff)
	}
	t.Logf("pause %v: spinBudget %d pauses for %v, Backoff %d..%d", pauseCost, spinBudget, spinWait, minBackoff, maxBackoff)
}
