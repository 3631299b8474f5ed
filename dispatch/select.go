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

// EnvVar is the environment variable that overrides the selection, in the
// form "op=variant,op=variant" (like GODEBUG).
const EnvVar = "GOHAL"

// OverrideError reports an override that cannot be honoured. Its message
// names the environment variable, the op, the variant and, for a variant the
// CPU cannot run, the missing feature. Text taken from the override is
// quoted in the message up to 80 bytes, then cut ("..." and its length);
// the Op and Variant fields hold it whole.
type OverrideError struct {
	Op      string // the op named, if any
	Variant string // the variant named, if any
	Missing string // the missing feature, for an unsupported variant
	Msg     string // the complete message without the "GOHAL: " prefix
}

// Error returns the message prefixed with the variable's name, as in
// `GOHAL: op "fetchadd64" variant "lse" needs CPU feature "atomics", which
// this CPU lacks`. Package hal prints it, after "gohal: ", and exits with
// status 2 when the GOHAL it reads at init cannot be honoured.
func (e *OverrideError) Error() string { return EnvVar + ": " + e.Msg }

// ParseOverride parses a GOHAL value into op → variant. Empty items (as in
// "a=b,,c=d" or a trailing comma) are ignored; white space around names is
// allowed. It checks syntax only: [Select] checks the names.
//
// The second result lists the ops in the order the value names them (the
// map has no order), so that a caller checking the names reports the first
// bad one, as Select does. A malformed item or an op named twice is an
// *OverrideError, with nil results.
func ParseOverride(s string) (map[string]string, []string, error) {
	m := map[string]string{}
	var order []string
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		op, variant, ok := strings.Cut(item, "=")
		op, variant = strings.TrimSpace(op), strings.TrimSpace(variant)
		if !ok || op == "" || variant == "" || strings.Contains(variant, "=") {
			return nil, nil, &OverrideError{Op: op, Variant: variant,
				Msg: fmt.Sprintf("item %d %s is malformed: want op=variant (e.g. %s=fetchadd64=llsc,pause=yield)", i+1, quote(item), EnvVar)}
		}
		if prev, dup := m[op]; dup {
			return nil, nil, &OverrideError{Op: op, Variant: variant,
				Msg: fmt.Sprintf("op %s is given twice (%s and %s)", quote(op), quote(prev), quote(variant))}
		}
		m[op] = variant
		order = append(order, op)
	}
	return m, order, nil
}

// Select chooses one variant per op. override is a GOHAL value (may be
// empty). The result is in the order of ops. An override naming an unknown
// op or variant, or a variant whose required features f lacks, is an
// *OverrideError: Select never returns a choice the CPU cannot run.
func Select(f *Features, ops []Op, override string) ([]Choice, error) {
	want, order, err := ParseOverride(override)
	if err != nil {
		return nil, err
	}
	byName := map[string]*Op{}
	for i := range ops {
		byName[ops[i].Name] = &ops[i]
	}
	for _, name := range order {
		op, ok := byName[name]
		if !ok {
			return nil, &OverrideError{Op: name, Variant: want[name],
				Msg: fmt.Sprintf("unknown op %s (known on %s: %s)", quote(name), f.GOARCH, strings.Join(opNames(ops), ", "))}
		}
		v := want[name]
		idx := op.index(v)
		if idx < 0 {
			return nil, &OverrideError{Op: name, Variant: v,
				Msg: fmt.Sprintf("op %q has no variant %s on %s (variants: %s)", name, quote(v), f.GOARCH, strings.Join(op.variantNames(), ", "))}
		}
		if miss := missing(f, op.Variants[idx]); miss != "" {
			return nil, &OverrideError{Op: name, Variant: v, Missing: miss,
				Msg: fmt.Sprintf("op %q variant %q needs CPU feature %q, which this CPU lacks", name, v, miss)}
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
	return out, nil
}

func best(f *Features, op Op) (Choice, bool) {
	var passed []string
	for i, v := range op.Variants {
		miss := missing(f, v)
		if miss != "" {
			passed = append(passed, fmt.Sprintf("%s needs %s", v.Name, miss))
			continue
		}
		var why string
		switch {
		case len(op.Variants) == 1:
			why = "only variant"
		case len(v.Requires) > 0 && len(passed) == 0:
			why = "preferred; CPU has " + strings.Join(v.Requires, ", ")
		case len(passed) == 0:
			why = "preferred"
		default:
			why = "fallback: " + strings.Join(passed, "; ")
		}
		return Choice{Op: op.Name, Variant: v.Name, Index: i, Reason: why}, true
	}
	return Choice{}, false
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
