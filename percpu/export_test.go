package percpu

import (
	"testing"

	"github.com/gohal/gohal/internal/cacheline"
)

// lineSize is the cache-line padding unit (64 bytes on amd64, 128 on
// arm64), which the tests check the per-P slots against. Only tests use
// it, so it lives here rather than in the package.
const lineSize = cacheline.Size

// The package's settings that tests force. Each is computed once at init
// (asymmetric and slotsPay from what hal chose, pinless from the runtime's
// layout) and written by nothing else: only these seams change them, for
// one test, restoring the value when it ends. The hot paths read them as
// they read any setting made at init.
func setAsymmetric(t testing.TB, v bool) { setForTest(t, &asymmetric, v) }
func setSlotsPay(t testing.TB, v bool)   { setForTest(t, &slotsPay, v) }
func setPinless(t testing.TB, v bool)    { setForTest(t, &pinless, v) }

// setLaneCloseAt makes v the overlap score at which lanes close, as if
// laneCloseAt had timed this machine so, for one test.
func setLaneCloseAt(t testing.TB, v uint32) {
	prev := laneCloseScore.Swap(v)
	t.Cleanup(func() { laneCloseScore.Store(prev) })
}

func setForTest[T any](t testing.TB, p *T, v T) {
	prev := *p
	*p = v
	t.Cleanup(func() { *p = prev })
}
