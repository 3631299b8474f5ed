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
	check(t, "direct.CompareAndSwap128Llsc", func() { direct.CompareAndSwap128Llsc(mis, 0, 0, 1, 1) })
	check(t, "direct.Load128Llsc", func() { direct.Load128Llsc(mis) })
	check(t, "direct.Store128Llsc", func() { direct.Store128Llsc(mis, 1, 1) })
	if ok, _ := hal.Runnable("cas128", "lse"); ok {
		check(t, "direct.CompareAndSwap128Lse", func() { direct.CompareAndSwap128Lse(mis, 0, 0, 1, 1) })
		check(t, "direct.Load128Lse", func() { direct.Load128Lse(mis) })
		check(t, "direct.Store128Lse", func() { direct.Store128Lse(mis, 1, 1) })
	}
}
