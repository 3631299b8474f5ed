package hal_test

import (
	"fmt"
	"sync"

	"github.com/gohal/gohal/hal"
)

func ExampleFetchAddUint64() {
	var next uint64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				hal.FetchAddUint64(&next, 1) // returns the ticket taken
			}
		}()
	}
	wg.Wait()
	fmt.Println(hal.FetchAddUint64(&next, 1), next)
	// Output: 4000 4001
}

func ExampleCompareAndSwapUint32() {
	state := uint32(1)
	fmt.Println(hal.CompareAndSwapUint32(&state, 0, 2), state)
	fmt.Println(hal.CompareAndSwapUint32(&state, 1, 2), state)
	// Output:
	// false 1
	// true 2
}

func ExampleUint128() {
	// A 128-bit word updated as a whole: here a value and a version
	// counter, so that a reader can tell a changed-and-changed-back value
	// (the ABA problem) from an unchanged one.
	var w hal.Uint128
	w.Store(10, 0)
	for {
		val, ver := w.Load()
		if w.CompareAndSwap(val, ver, val*2, ver+1) {
			break
		}
	}
	fmt.Println(w.Load())
	// Output: 20 1
}

func ExampleSelected() {
	// Which variant runs each op on this machine, and why. The output
	// depends on the CPU (and on GOHAL), so it is not checked here.
	for _, c := range hal.Selected() {
		fmt.Printf("%-15s %-12s %s\n", c.Op, c.Variant, c.Reason)
	}
}

func ExampleTable() {
	// The dispatch table offers the chosen variants as func values, for
	// callers that keep operations in data.
	add := hal.Table().FetchAddUint64.Func
	var n uint64
	add(&n, 5)
	fmt.Println(n)
	// Output: 5
}

func ExampleInlined() {
	// Whether hal.FetchAddUint64 runs the compiler's inlined intrinsic
	// right now, with no call: on amd64 always (binding "inline"); on
	// arm64 (binding "guarded") while the chosen variant is what the
	// intrinsic runs on this CPU, so not under GOHAL=fetchadd64=llsc. The
	// output depends on the CPU and GOHAL, so it is not checked here.
	fmt.Println(hal.Binding("fetchadd64"), hal.Inlined("fetchadd64"))
}
