package waitpolicy

import (
	"testing"

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

// TestPinnedClock: the clock is first read after PinnedPollEvery pauses
// and the wait is over, with a limit already past, after as many again.
func TestPinnedClock(t *testing.T) {
	var c PinnedClock
	for i := 1; i < 2*PinnedPollEvery; i++ {
		if c.TimedOut(-1) {
			t.Fatalf("timed out after %d pauses, before the clock's second read", i)
		}
	}
	if !c.TimedOut(-1) {
		t.Fatalf("not timed out after %d pauses with the limit past", 2*PinnedPollEvery)
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
