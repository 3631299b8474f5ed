package hal

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/internal/tooling"
	"github.com/gohal/gohal/internal/binding"
)

// Choice is the variant chosen for one op and the reason.
type Choice = dispatch.Choice

// selected is the live choice of every op, in spec order.
var selected []Choice

func init() {
	// GOHAL is parsed here, once; everything after takes the pairs.
	override, err := dispatch.ParseOverride(os.Getenv(dispatch.EnvVar))
	var choices []Choice
	if err == nil {
		choices, err = choose(dispatch.Host(), override)
	}
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

// choose returns this build's choices for CPU f with override: the
// compiled-in ones of a static build (selectStatic), else dispatch's.
func choose(f *dispatch.Features, override dispatch.Override) ([]Choice, error) {
	if staticBuild {
		return selectStatic(f, override, staticLevel, staticVariant)
	}
	return selectFor(f, override)
}

// selectFor runs the dispatch selection over this build's ops (dispatch
// applies the 128-bit group rule, see [dispatch.Group]).
func selectFor(f *dispatch.Features, override dispatch.Override) ([]Choice, error) {
	ops := make([]dispatch.Op, len(archOps))
	for i, op := range archOps {
		ops[i].Name = op.name
		for _, v := range op.variants {
			ops[i].Variants = append(ops[i].Variants, dispatch.Variant{Name: v.name, Requires: v.requires})
		}
	}
	choices, err := dispatch.Select(f, ops, override)
	if err != nil {
		if e, ok := err.(*dispatch.OverrideError); ok && bindingOf(archOps[0].name) == binding.Portable {
			err = portableOverrideError(e, f.GOARCH)
		}
		return nil, err
	}
	return choices, nil
}

// portableOverrideError rewrites an override error about an unknown
// variant in the portable build, where every op has the one variant
// "portable": it names the build (race, purego, or a GOARCH without a
// backend), says what it supports, and where the variant named exists.
func portableOverrideError(e *dispatch.OverrideError, goarch string) *dispatch.OverrideError {
	if e.Op == "" || e.Variant == "" || e.Missing != "" || findOp(e.Op) == nil || e.Variant == "portable" {
		return e
	}
	var build, elsewhere string
	switch {
	case raceBuild:
		build, elsewhere = "this race build (-race), which runs hal's portable Go fallback for every op so that the race detector sees every access", "in builds without -race"
	case puregoBuild:
		build, elsewhere = "this purego build (-tags purego), which runs hal's portable Go fallback for every op", "in builds without -tags purego"
	default:
		build = "this build for GOARCH=" + goarch + ", which has no gohal assembly backend and runs hal's portable Go fallback for every op"
	}
	msg := fmt.Sprintf("op %q has no variant %q in %s: its only variant is \"portable\"", e.Op, e.Variant, build)
	if vs := specVariants(goarch, e.Op); elsewhere != "" && slices.Contains(vs, e.Variant) {
		msg += fmt.Sprintf("; %q is a variant of %s on %s %s (%s)", e.Variant, e.Op, goarch, elsewhere, strings.Join(vs, ", "))
	}
	return &dispatch.OverrideError{Op: e.Op, Variant: e.Variant, Msg: msg}
}

// staticTag is the build tag that fixes every op's variant at compile
// time (see the package documentation, "Static builds"); the generator
// writes the same name (gen/backend.StaticTag).
const staticTag = "gohal_static"

// selectStatic returns the choices compiled into a gohal_static build at
// the given level, variant(op) naming each op's variant. It fails, with the
// error init prints before exiting with status 2, when the override is
// malformed or names an unknown op or variant or one this CPU cannot run
// (as in a dynamic build), when it names any variant but the compiled-in
// one, and when the CPU lacks a feature a compiled-in variant needs: the
// program must not get as far as an illegal instruction.
func selectStatic(f *dispatch.Features, override dispatch.Override, level string, variant func(op string) string) ([]Choice, error) {
	// The same checks, and messages, as a dynamic build for what the
	// override names.
	if _, err := selectFor(f, override); err != nil {
		if _, ok := err.(*dispatch.OverrideError); ok {
			return nil, err
		}
	}
	build := fmt.Sprintf("static build (%s, %s)", staticTag, level)
	out := make([]Choice, 0, len(archOps))
	for _, op := range archOps {
		name := variant(op.name)
		idx := -1
		for i, v := range op.variants {
			if v.name == name {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("hal: %s: op %q has no variant %q compiled in", build, op.name, name)
		}
		if w, ok := override.Lookup(op.name); ok && w != name {
			return nil, &dispatch.OverrideError{Op: op.name, Variant: w,
				Msg: fmt.Sprintf("op %q variant %q cannot be chosen: this is a %s with variant %q compiled in; build without -tags %s to choose at run time",
					op.name, w, build, name, staticTag)}
		}
		for _, r := range op.variants[idx].requires {
			if !f.Has(r) {
				return nil, fmt.Errorf("%s: op %q has variant %q compiled in, which needs CPU feature %q, and this CPU lacks it; build without -tags %s (or for a GOAMD64/GOARM64 level this CPU has)",
					build, op.name, name, r, staticTag)
			}
		}
		out = append(out, Choice{Op: op.name, Variant: name, Index: idx, Reason: build})
	}
	return out, nil
}

// apply makes c the live choice: it sets the op's flag byte, its guard
// byte if it has one, and its row of the dispatch table (tooling.Table).
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
		setGuards(c)
		setFenceLight(c)
		v.set(&tooling.Table, c.Reason)
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
// spec order. The slice is a copy. Once the kernel has refused membarrier
// after init, op fenceheavy's entry is its portable variant, with a
// reason that names the errno (see FenceHeavy).
func Selected() []Choice {
	out := append([]Choice(nil), selected...)
	if r := degradedReason.Load(); r != nil {
		for i, c := range out {
			if c.Op != fenceHeavyOp || c.Variant == portableName {
				continue
			}
			for j, v := range findOp(c.Op).variants {
				if v.name == portableName {
					out[i] = Choice{Op: c.Op, Variant: portableName, Index: j, Reason: *r}
				}
			}
		}
	}
	return out
}

// portableName is the name of every op's portable Go variant.
const portableName = "portable"

// group128 is dispatch's group of the 128-bit ops (see [dispatch.Group]),
// which run all hardware variants or all the portable one.
var group128 = dispatch.Group("cas128")

func in128(op string) bool { return slices.Contains(group128, op) }
