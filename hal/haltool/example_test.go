package haltool_test

import (
	"errors"
	"fmt"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// Force switches an op to another of its variants in a running program, as
// a benchmark comparing the variants does; restore puts the previous choice
// back. Values written under one variant are valid under the others.
func ExampleForce() {
	var n uint64
	variants, _ := haltool.Variants("fetchadd64")
	forced := 0
	for _, v := range variants {
		if ok, _ := haltool.Runnable("fetchadd64", v.Name); !ok {
			continue // needs a feature this CPU lacks
		}
		restore, err := haltool.Force("fetchadd64", v.Name)
		if err != nil {
			continue // a gohal_static build compiles in one variant only
		}
		hal.FetchAddUint64(&n, 1)
		restore()
		forced++
	}
	fmt.Println(n == uint64(forced), forced > 0)

	// A variant that does not exist is refused, and nothing changes.
	_, err := haltool.Force("fetchadd64", "abacus")
	var oe *dispatch.OverrideError
	if errors.As(err, &oe) {
		fmt.Printf("refused: op %s, variant %s\n", oe.Op, oe.Variant)
	}
	// Output:
	// true true
	// refused: op fetchadd64, variant abacus
}

func ExampleTable() {
	// The dispatch table offers the chosen variants as func values, for
	// callers that keep operations in data.
	add := haltool.Table().FetchAddUint64.Func
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
	fmt.Println(haltool.Binding("fetchadd64"), haltool.Inlined("fetchadd64"))
}
