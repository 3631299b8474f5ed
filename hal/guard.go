package hal

// guard is one op bound binding.Guarded (see bindingOf): its guard byte,
// which its exported function tests before running the inlined sync/atomic
// intrinsic, and the variant that intrinsic is, with the features it
// needs. The generated guards list holds one per such op.
type guard struct {
	op        string
	flag      *uint8
	intrinsic string
	requires  []string
	fallback  string // what the intrinsic runs without requires, if a variant
}

// setGuards sets the guard byte of c's op, if it has one: 0 when the
// inlined intrinsic runs exactly variant c.Variant on this CPU, else 1, so
// that the exported function calls the op's flag entry, which runs the
// variant c chose. The intrinsic runs g.intrinsic when it has the features
// g.requires, else g.fallback (arm64's LL/SC loop at GOARM64=v8.0 without
// LSE) if the spec names one. What the intrinsic runs is asked of the Go runtime and
// the compiled-in feature level (intrinsicHas), never of hal's own feature
// detection: if the two ever disagree, the guard is set and hal's choice
// runs.
func setGuards(c Choice) {
	for _, g := range guards {
		if g.op != c.Op {
			continue
		}
		*g.flag = 1
		runs := intrinsicRuns(g.requires)
		if c.Variant == g.intrinsic && runs || g.fallback != "" && c.Variant == g.fallback && !runs {
			*g.flag = 0
		}
	}
}

// intrinsicRuns reports whether the compiler's intrinsic runs the variant
// that needs the features requires.
func intrinsicRuns(requires []string) bool {
	for _, r := range requires {
		if !intrinsicHas(r) {
			return false
		}
	}
	return true
}

// guardSet reports whether op has a guard byte and it is set (the exported
// function then calls the flag entry); tests use it.
func guardSet(op string) (has, set bool) {
	for _, g := range guards {
		if g.op == op {
			return true, *g.flag != 0
		}
	}
	return false, false
}
