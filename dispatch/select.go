package dispatch

import (
	"fmt"
	"strings"
)

// Variant is one implementation of an operation.
type Variant struct {
	Name     string   // e.g. "lse", "llsc", "lock"
	Requires []string // features the CPU must have (Feature constants)
}

// Op is an operation with its variants in order of preference: the first
// variant whose requirements are met is chosen unless overridden.
type Op struct {
	Name     string // e.g. "fetchadd64"
	Variants []Variant
}

// Choice records the variant chosen for one operation and why.
type Choice struct {
	Op      string `json:"op"`
	Variant string `json:"variant"`
	Index   int    `json:"-"` // position of Variant in Op.Variants
	Reason  string `json:"reason"`
}

// Select chooses one variant per op. The result is in the order of ops.
// An override naming an unknown op or variant, or a variant whose required
// features f lacks, is an *OverrideError: Select never returns a choice the
// CPU cannot run. The ops of a [Group] run all their portable variants or
// none: one portable takes the others along (its reason says why), and an
// override naming a hardware variant for one of them while another is
// portable is an *OverrideError.
func Select(f *Features, ops []Op, override Override) ([]Choice, error) {
	if err := override.checkTwice(); err != nil {
		return nil, err
	}
	want := make(map[string]string, len(override))
	for _, p := range override {
		want[p.Op] = p.Variant
	}
	byName := map[string]*Op{}
	for i := range ops {
		byName[ops[i].Name] = &ops[i]
	}
	for _, p := range override {
		name, v := p.Op, p.Variant
		op, ok := byName[name]
		if !ok {
			return nil, &OverrideError{Op: name, Variant: v,
				Msg: fmt.Sprintf("unknown op %s (known on %s: %s)", quote(name), f.GOARCH, strings.Join(opNames(ops), ", "))}
		}
		idx := op.index(v)
		if idx < 0 {
			return nil, &OverrideError{Op: name, Variant: v,
				Msg: fmt.Sprintf("op %q has no variant %s on %s (variants: %s)", name, quote(v), f.GOARCH, strings.Join(op.variantNames(), ", "))}
		}
		if miss := missing(f, op.Variants[idx]); miss != "" {
			return nil, &OverrideError{Op: name, Variant: v, Missing: miss,
				Msg: fmt.Sprintf("op %q variant %q needs CPU feature %q, which this CPU lacks%s", name, v, miss, f.probe(miss))}
		}
	}
	out := make([]Choice, 0, len(ops))
	for _, op := range ops {
		if len(op.Variants) == 0 {
			return nil, fmt.Errorf("dispatch: op %q has no variants", op.Name)
		}
		if v, ok := want[op.Name]; ok {
			out = append(out, Choice{Op: op.Name, Variant: v, Index: op.index(v),
				Reason: fmt.Sprintf("override %s=%s=%s", EnvVar, op.Name, v)})
			continue
		}
		c, ok := best(f, op)
		if !ok {
			return nil, fmt.Errorf("dispatch: op %q: no variant runs on this CPU (%s)", op.Name, strings.Join(op.variantNames(), ", "))
		}
		out = append(out, c)
	}
	return unify128(ops, out, want)
}

func best(f *Features, op Op) (Choice, bool) {
	var passed []string
	for i, v := range op.Variants {
		miss := missing(f, v)
		if miss != "" {
			passed = append(passed, fmt.Sprintf("%s needs %s%s", v.Name, miss, f.probe(miss)))
			continue
		}
		var why string
		switch {
		case len(op.Variants) == 1:
			why = "only variant"
		case len(v.Requires) > 0 && len(passed) == 0:
			why = "preferred; " + has(f, v.Requires)
		case len(passed) == 0:
			why = "preferred"
		default:
			why = "fallback: " + strings.Join(passed, "; ")
		}
		return Choice{Op: op.Name, Variant: v.Name, Index: i, Reason: why}, true
	}
	return Choice{}, false
}

// has says that f has the features: "CPU has a, b" for those read from
// the CPU, and what the probe found for each found by one.
func has(f *Features, features []string) string {
	var cpu, parts []string
	for _, r := range features {
		if p := f.Probes[r]; p != "" {
			parts = append(parts, p)
		} else {
			cpu = append(cpu, r)
		}
	}
	if len(cpu) > 0 {
		parts = append([]string{"CPU has " + strings.Join(cpu, ", ")}, parts...)
	}
	return strings.Join(parts, "; ")
}

func missing(f *Features, v Variant) string {
	for _, r := range v.Requires {
		if !f.Has(r) {
			return r
		}
	}
	return ""
}

func (op *Op) index(variant string) int {
	for i, v := range op.Variants {
		if v.Name == variant {
			return i
		}
	}
	return -1
}

func (op *Op) variantNames() []string {
	var s []string
	for _, v := range op.Variants {
		s = append(s, v.Name)
	}
	return s
}

func opNames(ops []Op) []string {
	var s []string
	for _, op := range ops {
		s = append(s, op.Name)
	}
	return s
}
