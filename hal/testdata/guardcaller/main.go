// Command guardcaller is the caller that hal's TestGuardedDisassembly
// builds for arm64 (and gen/s390x's TestIntrinsicBindings for s390x) and
// reads back: one small function per guarded op, each calling hal's
// exported function, which the compiler inlines. It prints the results and
// haltool.Inlined for each op, so the tests can also run it under qemu and see
// which code ran.
package main

import (
	"fmt"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

var word uint64 = 40

//go:noinline
func callFetchAdd(p *uint64) uint64 { return hal.FetchAddUint64(p, 2) }

//go:noinline
func callCAS(p *uint64) bool { return hal.CompareAndSwapUint64(p, 42, 7) }

//go:noinline
func callSwap(p *uint64) uint64 { return hal.SwapUint64(p, 9) }

func main() {
	a := callFetchAdd(&word)
	b := callCAS(&word)
	c := callSwap(&word)
	fmt.Println(a, b, c, word, haltool.Inlined("fetchadd64"), haltool.Inlined("cas64"), haltool.Inlined("swap64"))
}
