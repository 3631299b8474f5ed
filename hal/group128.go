package hal

import (
	"fmt"

	"github.com/gohal/gohal/dispatch"
)

// group128 lists the ops that share the words of a Uint128. Their variants
// must be all hardware ones or all the portable one: the portable variants
// take a striped lock and read and write the two halves as two plain
// words, so a hardware load (VMOVDQA) could see half of a portable store,
// and a portable load half of nothing the lock protects. Hardware variants
// mix freely: each is one single-copy-atomic 16-byte access (CMPXCHG16B and
// VMOVDQA; CASPAL and LDAXP/STLXP).
var group128 = []string{"cas128", "load128", "store128"}

func in128(op string) bool {
	for _, o := range group128 {
		if o == op {
			return true
		}
	}
	return false
}

// unify128 makes choices consistent for group128: when one of those ops
// runs its portable variant, all do, and the reason says why. An override
// that names a hardware variant for one of them and the portable variant
// for another is an error, as is one naming a hardware variant while the
// CPU leaves another op of the group only its portable variant.
func unify128(choices []Choice, override string) ([]Choice, error) {
	want, _, _ := dispatch.ParseOverride(override)
	var why string
	for _, c := range choices {
		if in128(c.Op) && c.Variant == portableName {
			why = fmt.Sprintf("%s is portable (%s)", c.Op, c.Reason)
			break
		}
	}
	if why == "" {
		return choices, nil
	}
	out := append([]Choice(nil), choices...)
	for i, c := range out {
		if !in128(c.Op) || c.Variant == portableName {
			continue
		}
		if w, ok := want[c.Op]; ok {
			return nil, &dispatch.OverrideError{Op: c.Op, Variant: w,
				Msg: fmt.Sprintf("op %q variant %q cannot be chosen: %s, and the 128-bit ops (%v) share their words, so they run all hardware variants or all the portable one",
					c.Op, w, why, group128)}
		}
		op := findOp(c.Op)
		if op == nil {
			continue
		}
		for j, v := range op.variants {
			if v.name == portableName {
				out[i] = Choice{Op: c.Op, Variant: portableName, Index: j,
					Reason: why + "; the 128-bit ops share their words, so they all take the striped locks"}
			}
		}
	}
	return out, nil
}

// portableName is the name of every op's portable Go variant.
const portableName = "portable"
