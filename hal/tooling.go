package hal

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/internal/tooling"
	"github.com/gohal/gohal/internal/binding"
)

// hal's tooling is exported by package hal/haltool, which calls these
// functions through tooling.Hal; none of them is on an op's call path.
func init() {
	tooling.Hal.Force = force
	tooling.Hal.Binding = bindingOf
	tooling.Hal.Inlined = inlined
	tooling.Hal.Ops = opNames
	tooling.Hal.Variants = variantsOf
	tooling.Hal.Runnable = runnable
}

// bindingOf is haltool.Binding: how op's exported function reaches its
// variant in this build (the generated bindings), "" for an unknown op.
func bindingOf(op string) binding.Kind { return bindings[op] }

// inlined is haltool.Inlined: whether op's exported function runs, now,
// the compiler's inlined sync/atomic intrinsic (or plain access) with no
// call: always for an op bound inline or plain, and for one bound guarded
// while its guard is clear.
func inlined(op string) bool {
	switch bindingOf(op) {
	case binding.Inline, binding.Plain:
		return true
	case binding.Guarded:
		_, set := guardSet(op)
		return !set
	}
	return false
}

// opNames is haltool.Ops: the names of the ops in this build, in spec
// order.
func opNames() []string {
	s := make([]string, len(archOps))
	for i, op := range archOps {
		s[i] = op.name
	}
	return s
}

// variantsOf is haltool.Variants: op's variants compiled into this build,
// in order of preference, and false for an unknown op.
func variantsOf(op string) ([]dispatch.Variant, bool) {
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
