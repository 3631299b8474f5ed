//go:build !purego

package hal_test

import (
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/direct"
)

// misalignedDirect calls hal/direct's 128-bit variants this CPU can run
// on a misaligned word.
func misalignedDirect(t *testing.T, mis *[2]uint64, check func(*testing.T, string, func())) {
	if ok, _ := hal.Runnable("cas128", "cmpxchg16b"); ok {
		check(t, "direct.CompareAndSwap128Cmpxchg16b", func() { direct.CompareAndSwap128Cmpxchg16b(mis, 0, 0, 1, 1) })
		check(t, "direct.Load128Cmpxchg16b", func() { direct.Load128Cmpxchg16b(mis) })
		check(t, "direct.Store128Cmpxchg16b", func() { direct.Store128Cmpxchg16b(mis, 1, 1) })
	}
	if ok, _ := hal.Runnable("load128", "vmovdqa"); ok {
		check(t, "direct.Load128Vmovdqa", func() { direct.Load128Vmovdqa(mis) })
		check(t, "direct.Store128Vmovdqa", func() { direct.Store128Vmovdqa(mis, 1, 1) })
	}
}
