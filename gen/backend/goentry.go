package backend

import (
	"fmt"
	"strings"

	"github.com/gohal/gohal/gen/spec"
)

// goEntry returns the Go entry of an op that has a Go variant on arch: a
// function named op.GoName with the op's signature that calls the variant
// whose index hal stored in the op's flag byte, each a direct call (to the
// assembly variant's ABI0 symbol in hal/direct, or to hal's <op>_portable).
// With a single variant there is no flag and the body is that one call.
//
// The flag is read once, by a switch on its value; the first variant is the
// default, as in an assembly entry.
func goEntry(op *spec.Op, arch string) string {
	vs := op.Variants(arch)
	var args []string
	for _, p := range op.Params {
		args = append(args, p.Name)
	}
	// call is the call of variant v; last says it ends the function, where
	// an op without results needs no return.
	call := func(v spec.Variant, last bool) string {
		c := variantFunc(op, v) + "(" + strings.Join(args, ", ") + ")"
		switch {
		case len(op.Results) > 0:
			return "return " + c
		case last:
			return c
		}
		return c + "\n\treturn"
	}
	var b strings.Builder
	b.WriteString(op.Decl(op.GoName) + " {\n")
	if len(vs) > 1 {
		fmt.Fprintf(&b, "switch %s {\n", op.SelVar())
		for j, v := range vs[1:] {
			fmt.Fprintf(&b, "case %d: // %s\n%s\n", j+1, v.Name, call(v, false))
		}
		b.WriteString("}\n")
	}
	b.WriteString(call(vs[0], true) + "\n}")
	return b.String()
}

// variantFunc names, from package hal, the function of variant v: its
// assembly in hal/direct, or hal's own <op>_portable for a Go variant.
func variantFunc(op *spec.Op, v spec.Variant) string {
	if v.Go {
		return op.Symbol(v.Name)
	}
	return "direct." + op.DirectName(v.Name)
}
