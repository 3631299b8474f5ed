package hal

import (
	"fmt"

	"github.com/gohal/gohal/dispatch"
)

// force is haltool.Force (whose doc says what it promises): it makes
// variant the live implementation of op, as GOHAL=op=variant would have at
// init, and returns a function that restores the previous choice. A
// 128-bit op takes the others of its group along ([dispatch.Group]), and
// the restore function brings all of them back. In a gohal_static build it
// accepts only the compiled-in variant, and changes nothing.
func force(op, variant string) (restore func(), err error) {
	override := dispatch.Override{{Op: op, Variant: variant}}
	if staticBuild {
		if _, err := selectStatic(dispatch.Host(), override, staticLevel, staticVariant); err != nil {
			return nil, err
		}
		return func() {}, nil
	}
	choices, err := selectFor(dispatch.Host(), override)
	if err != nil {
		return nil, err
	}
	// A 128-bit op takes the others of its group along (dispatch.Group):
	// they get the choices dispatch made with this override.
	ops := dispatch.Group(op)
	if ops == nil {
		ops = []string{op}
	}
	prev := append([]Choice(nil), selected...)
	found := false
	for i, c := range selected {
		for _, o := range ops {
			if c.Op != o {
				continue
			}
			found = found || o == op
			for _, n := range choices {
				if n.Op == o {
					if err := apply(n); err != nil {
						return nil, err
					}
					selected[i] = n
				}
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("hal: op %q not selected", op)
	}
	return func() {
		for i, c := range prev {
			if selected[i] != c {
				if err := apply(c); err != nil {
					panic(err)
				}
				selected[i] = c
			}
		}
	}, nil
}

// runnable is haltool.Runnable: whether this CPU can run the named variant
// of op, and if not, the first missing feature; false with an empty
// feature for an unknown op or variant.
func runnable(op, variant string) (ok bool, missing string) {
	vs, found := variantsOf(op)
	if !found {
		return false, ""
	}
	for _, v := range vs {
		if v.Name != variant {
			continue
		}
		for _, r := range v.Requires {
			if !dispatch.Host().Has(r) {
				return false, r
			}
		}
		return true, ""
	}
	return false, ""
}
