package dispatch_test

import (
	"fmt"

	"github.com/gohal/gohal/dispatch"
)

// Choosing variants for a CPU without LSE atomics, with one override.
func ExampleSelect() {
	ops := []dispatch.Op{
		{Name: "fetchadd64", Variants: []dispatch.Variant{
			{Name: "lse", Requires: []string{dispatch.FeatureAtomics}},
			{Name: "llsc"},
		}},
		{Name: "pause", Variants: []dispatch.Variant{{Name: "isb"}, {Name: "yield"}}},
	}
	cpu := &dispatch.Features{GOARCH: "arm64", Flags: map[string]bool{}}
	override, err := dispatch.ParseOverride("pause=yield") // as GOHAL=pause=yield
	if err != nil {
		fmt.Println(err)
		return
	}
	choices, err := dispatch.Select(cpu, ops, override)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range choices {
		fmt.Printf("%s → %s (%s)\n", c.Op, c.Variant, c.Reason)
	}
	_, err = dispatch.Select(cpu, ops, dispatch.Override{{Op: "fetchadd64", Variant: "lse"}})
	fmt.Println(err)
	// Output:
	// fetchadd64 → llsc (fallback: lse needs atomics)
	// pause → yield (override GOHAL=pause=yield)
	// GOHAL: op "fetchadd64" variant "lse" needs CPU feature "atomics", which this CPU lacks
}
