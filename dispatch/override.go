package dispatch

import (
	"fmt"
	"strings"
)

// EnvVar is the environment variable that overrides the selection, in the
// form "op=variant,op=variant" (like GODEBUG).
const EnvVar = "GOHAL"

// Pair names one op and the variant an override chooses for it.
type Pair struct {
	Op      string
	Variant string
}

// Override is a parsed GOHAL value: the variants it chooses, in the order
// it names them. [ParseOverride] makes one from the variable's text; a tool
// choosing a variant for itself (haltool.Force) writes the pairs directly, and
// nothing is parsed. The zero value overrides nothing.
type Override []Pair

// Lookup returns the variant o chooses for op, if it names op.
func (o Override) Lookup(op string) (variant string, ok bool) {
	for _, p := range o {
		if p.Op == op {
			return p.Variant, true
		}
	}
	return "", false
}

// String returns o in GOHAL's syntax, "op=variant,op=variant".
func (o Override) String() string {
	s := make([]string, len(o))
	for i, p := range o {
		s[i] = p.Op + "=" + p.Variant
	}
	return strings.Join(s, ",")
}

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

// ParseOverride parses a GOHAL value. Empty items (as in "a=b,,c=d" or a
// trailing comma) are ignored; white space around names is allowed. It
// checks syntax only: [Select] checks the names. A malformed item or an op
// named twice is an *OverrideError, with a nil Override.
func ParseOverride(s string) (Override, error) {
	var o Override
	seen := map[string]string{}
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		op, variant, ok := strings.Cut(item, "=")
		op, variant = strings.TrimSpace(op), strings.TrimSpace(variant)
		if !ok || op == "" || variant == "" || strings.Contains(variant, "=") {
			return nil, &OverrideError{Op: op, Variant: variant,
				Msg: fmt.Sprintf("item %d %s is malformed: want op=variant (e.g. %s=fetchadd64=llsc,pause=yield)", i+1, quote(item), EnvVar)}
		}
		if prev, dup := seen[op]; dup {
			return nil, twice(op, prev, variant)
		}
		seen[op] = variant
		o = append(o, Pair{Op: op, Variant: variant})
	}
	return o, nil
}

// checkTwice reports the first op o names twice, as ParseOverride does:
// Select checks it too, for an Override written as pairs.
func (o Override) checkTwice() error {
	seen := make(map[string]string, len(o))
	for _, p := range o {
		if prev, dup := seen[p.Op]; dup {
			return twice(p.Op, prev, p.Variant)
		}
		seen[p.Op] = p.Variant
	}
	return nil
}

func twice(op, prev, variant string) error {
	return &OverrideError{Op: op, Variant: variant,
		Msg: fmt.Sprintf("op %s is given twice (%s and %s)", quote(op), quote(prev), quote(variant))}
}
