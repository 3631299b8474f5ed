//go:build !purego

package hal_test

import "github.com/gohal/gohal/hal/direct"

// direct128 lists hal/direct's 128-bit functions, by op and variant.
var direct128 = direct128Funcs{
	loads:  map[string]func(*[2]uint64) (uint64, uint64){"vmovdqa": direct.Load128Vmovdqa, "cmpxchg16b": direct.Load128Cmpxchg16b},
	stores: map[string]func(*[2]uint64, uint64, uint64){"vmovdqa": direct.Store128Vmovdqa, "cmpxchg16b": direct.Store128Cmpxchg16b},
	cases:  map[string]func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool){"cmpxchg16b": direct.CompareAndSwap128Cmpxchg16b},
}
