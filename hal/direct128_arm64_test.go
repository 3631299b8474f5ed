//go:build !purego

package hal_test

import "github.com/gohal/gohal/hal/direct"

// direct128 lists hal/direct's 128-bit functions, by op and variant.
var direct128 = direct128Funcs{
	loads:  map[string]func(*[2]uint64) (uint64, uint64){"lse": direct.Load128Lse, "llsc": direct.Load128Llsc},
	stores: map[string]func(*[2]uint64, uint64, uint64){"lse": direct.Store128Lse, "llsc": direct.Store128Llsc},
	cases:  map[string]func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool){"lse": direct.CompareAndSwap128Lse, "llsc": direct.CompareAndSwap128Llsc},
}
