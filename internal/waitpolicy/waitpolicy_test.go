package waitpolicy

import (
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
)

func TestVariant(t *testing.T) {
	for _, c := range hal.Selected() {
		if got := Variant(c.Op); got != c.Variant {
			t.Errorf("Variant(%q) = %q, hal.Selected says %q", c.Op, got, c.Variant)
		}
	}
	if got := Variant("no such op"); got != "" {
		t.Errorf("Variant of an unknown op = %q, want \"\"", got)
	}
	if v := Variant("pause"); PauseYields != (v == "portable" || v == "") {
		t.Errorf("PauseYields = %v with pause's variant %q", PauseYields, Variant("pause"))
	}
}

// TestPinnedClock: the clock is first read after PinnedPollEvery pauses;
// with a limit already past, the wait is over at the clock's third read,
// not its second, so that the caller tries the lock PinnedPollEvery times
// after it first saw the limit pass (a waiter descheduled past the limit
// must not panic on a lock released meanwhile).
func TestPinnedClock(t *testing.T) {
	var c PinnedClock
	for i := 1; i < 3*PinnedPollEvery; i++ {
		if c.TimedOut(-1) {
			t.Fatalf("timed out after %d pauses, before the clock's third read", i)
		}
	}
	if !c.TimedOut(-1) {
		t.Fatalf("not timed out after %d pauses with the limit past", 3*PinnedPollEvery)
	}
	// A limit that has not passed never times out.
	var d PinnedClock
	for i := 1; i <= 4*PinnedPollEvery; i++ {
		if d.TimedOut(time.Hour) {
			t.Fatalf("timed out after %d pauses with an hour's limit", i)
		}
	}
}

// TestPauseWhilePinned: Pause returns while the goroutine holds a Pin in
// every build (where hal.Pause would yield, it is the runtime's spin step).
func TestPauseWhilePinned(t *testing.T) {
	pin.Pin()
	for range 100 {
		Pause()
	}
	pin.Unpin()
}
