package dispatch

import (
	"fmt"
	"slices"
)

// portable is the name of every gohal op's portable Go variant.
const portable = "portable"

// group128 lists the ops that share the words of a 128-bit value (package
// hal's Uint128). Their variants must be all hardware ones or all the
// portable one: the portable variants take a striped lock and read and
// write the two halves as two plain words, so a hardware load (VMOVDQA)
// could see half of a portable store, and a portable load half of nothing
// the lock protects. Hardware variants mix freely: each is one
// single-copy-atomic 16-byte access (CMPXCHG16B and VMOVDQA; CASPAL and
// LDAXP/STLXP).
var group128 = []string{"cas128", "load128", "store128"}

// Group returns the ops that share memory with op and so run either all
// their portable variants or none (op among them, in [Select]'s order), or
// nil when op shares with none. Only the 128-bit ops do: cas128, load128
// and store128 share the words of a Uint128, and a striped lock protects
// them only if every access takes it. An op forced to another variant
// takes the others of its group along.
func Group(op string) []string {
	if slices.Contains(group128, op) {
		return slices.Clone(group128)
	}
	return nil
}

// unify128 makes choices consistent for group128: when one of those ops
// runs its portable variant, all do, and the reason says why. An override
// that names a hardware variant for one of them and the portable variant
// for another is an error, as is one naming a hardware variant while the
// CPU leaves another op of the group only its portable variant.
func unify128(ops []Op, choices []Choice, want map[string]string) ([]Choice, error) {
	var why string
	for _, c := range choices {
		if slices.Contains(group128, c.Op) && c.Variant == portable {
			why = fmt.Sprintf("%s is portable (%s)", c.Op, c.Reason)
			break
		}
	}
	if why == "" {
		return choices, nil
	}
	for i, c := range choices {
		if !slices.Contains(group128, c.Op) || c.Variant == portable {
			continue
		}
		if w, ok := want[c.Op]; ok {
			return nil, &OverrideError{Op: c.Op, Variant: w,
				Msg: fmt.Sprintf("op %q variant %q cannot be chosen: %s, and the 128-bit ops (%v) share their words, so they run all hardware variants or all the portable one",
					c.Op, w, why, group128)}
		}
		if j := ops[i].index(portable); j >= 0 {
			choices[i] = Choice{Op: c.Op, Variant: portable, Index: j,
				Reason: why + "; the 128-bit ops share their words, so they all take the striped locks"}
		}
	}
	return choices, nil
}
