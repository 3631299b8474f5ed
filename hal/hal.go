package hal

import (
	"fmt"
	"os"

	"github.com/gohal/gohal/dispatch"
)

// opImpl is one op as compiled into this build: its spec name, the flag
// byte its entry point reads (nil when there is nothing to choose at run
// time) and its variants in order of preference. The entry is assembly,
// except for an op with a portable variant among assembly ones (or as its
// only variant), whose generated entry is Go that switches on the flag.
type opImpl struct {
	name     string
	sel      *uint8
	variants []variantImpl
}

// variantImpl is one implementation of an op. fn is a func value with the
// op's Go signature: an assembly function (calling it pays the ABI wrapper,
// see Table) or, for the variant named "portable", the Go function
// <op>_portable of portable.go.
type variantImpl struct {
	name     string
	requires []string
	fn       any
}

// Choice is the variant chosen for one op and the reason.
type Choice = dispatch.Choice

var (
	selected []Choice
	table    DispatchTable
)

func init() {
	choices, err := selectFor(dispatch.Host(), os.Getenv(dispatch.EnvVar))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohal:", err)
		os.Exit(2)
	}
	for _, c := range choices {
		if err := apply(c); err != nil {
			panic(err) // unreachable: selectFor only returns known variants
		}
	}
	selected = choices
}

// selectFor runs the dispatch selection over this build's ops.
func selectFor(f *dispatch.Features, override string) ([]Choice, error) {
	ops := make([]dispatch.Op, len(archOps))
	for i, op := range archOps {
		ops[i].Name = op.name
		for _, v := range op.variants {
			ops[i].Variants = append(ops[i].Variants, dispatch.Variant{Name: v.name, Requires: v.requires})
		}
	}
	return dispatch.Select(f, ops, override)
}

// apply makes c the live choice: it sets the op's flag byte and its Table
// entry.
func apply(c Choice) error {
	op := findOp(c.Op)
	if op == nil {
		return fmt.Errorf("hal: unknown op %q", c.Op)
	}
	for i, v := range op.variants {
		if v.name != c.Variant {
			continue
		}
		if op.sel != nil {
			*op.sel = uint8(i)
		}
		table.set(c.Op, c.Variant, c.Reason, v.fn)
		return nil
	}
	return fmt.Errorf("hal: op %q has no variant %q", c.Op, c.Variant)
}

func findOp(name string) *opImpl {
	for i := range archOps {
		if archOps[i].name == name {
			return &archOps[i]
		}
	}
	return nil
}

// Selected returns the variant chosen for every op, with the reason, in
// spec order. The slice is a copy.
func Selected() []Choice {
	return append([]Choice(nil), selected...)
}

// Ops returns the names of the ops in this build, in spec order.
func Ops() []string {
	s := make([]string, len(archOps))
	for i, op := range archOps {
		s[i] = op.name
	}
	return s
}

// Variants returns the variants of op compiled into this build, in order of
// preference, whether or not this CPU can run them, and false for an
// unknown op.
func Variants(op string) ([]dispatch.Variant, bool) {
	o := findOp(op)
	if o == nil {
		return nil, false
	}
	out := make([]dispatch.Variant, len(o.variants))
	for i, v := range o.variants {
		out[i] = dispatch.Variant{Name: v.name, Requires: v.requires}
	}
	return out, true
}
