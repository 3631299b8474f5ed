package hal

import (
	"os"
	"runtime"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/binding"
)

// wantGuard is the rule setGuards implements, spelled out again: the guard
// is clear only when the chosen variant is the intrinsic and the intrinsic
// runs it in this process.
func wantGuard(g guard, variant string) (set bool) {
	runs := intrinsicRuns(g.requires)
	return !(variant == g.intrinsic && runs || g.fallback != "" && variant == g.fallback && !runs)
}

func chosen(op string) string {
	for _, c := range selected {
		if c.Op == op {
			return c.Variant
		}
	}
	return ""
}

// TestGuardFollowsChoice checks every guarded op's guard byte, Binding and
// Inlined against the variant chosen at init, and, on arm64, that the
// feature hal dispatches on agrees with the flag the compiler's intrinsic
// tests (runtime.arm64HasATOMICS): if they disagreed, the default choice
// would still run (the guard is set), and this test says so.
func TestGuardFollowsChoice(t *testing.T) {
	for _, g := range guards {
		if bindingOf(g.op) != binding.Guarded {
			t.Errorf("%s is in guards but bound %q", g.op, bindingOf(g.op))
		}
		v := chosen(g.op)
		has, set := guardSet(g.op)
		if !has || set != wantGuard(g, v) {
			t.Errorf("%s: variant %q, intrinsic %q (runs: %v): guard set=%v", g.op, v, g.intrinsic, intrinsicRuns(g.requires), set)
		}
		if inlined(g.op) == set {
			t.Errorf("%s: Inlined=%v with guard set=%v", g.op, inlined(g.op), set)
		}
	}
	for op, b := range bindings {
		if has, _ := guardSet(op); has != (b == binding.Guarded) {
			t.Errorf("%s: bound %q, in guards: %v", op, b, has)
		}
	}
	if runtime.GOARCH == "arm64" && len(guards) > 0 {
		rt := intrinsicHas(dispatch.FeatureAtomics)
		hal := dispatch.Host().Has(dispatch.FeatureAtomics)
		if hal != rt {
			t.Errorf("hal's feature detection says atomics=%v, the compiler's intrinsics run LSE=%v: the guards cover it, but the two should agree", hal, rt)
		}
		// With no override, LSE or not, the default RMW path is the
		// intrinsic (its LSE instruction, or its LL/SC loop, which is
		// hal's llsc).
		if os.Getenv(dispatch.EnvVar) == "" && hal == rt {
			for _, op := range []string{"fetchadd64", "cas64", "swap64", "fetchadd32", "cas32", "swap32", "casuintptr"} {
				if !inlined(op) {
					t.Errorf("%s: LSE CPU, no override, yet not inlined (variant %q)", op, chosen(op))
				}
			}
		}
	}
	t.Logf("%d guarded ops", len(guards))
}

// TestForceFlipsGuard forces every runnable variant of every guarded op
// and checks that the guard follows (set for any variant the intrinsic
// does not run), that the exported function still does the op, and that
// restore clears it again.
func TestForceFlipsGuard(t *testing.T) {
	if len(guards) == 0 {
		t.Skip("no guarded op in this build")
	}
	flipped, wantFlipped := 0, 0
	for _, g := range guards {
		before := *g.flag
		for _, v := range findOp(g.op).variants {
			if ok, _ := runnable(g.op, v.name); !ok {
				continue
			}
			restore, err := force(g.op, v.name)
			if err != nil {
				t.Fatalf("force(%s, %s): %v", g.op, v.name, err)
			}
			if has, set := guardSet(g.op); !has || set != wantGuard(g, v.name) {
				t.Errorf("force(%s, %s): guard set=%v", g.op, v.name, set)
			}
			if *g.flag != 0 {
				flipped++
			}
			if wantGuard(g, v.name) {
				wantFlipped++
			}
			if err := exercise(g.op); err != "" {
				t.Errorf("force(%s, %s): %s", g.op, v.name, err)
			}
			restore()
			if *g.flag != before {
				t.Errorf("%s: restore left the guard at %d, was %d", g.op, *g.flag, before)
			}
		}
	}
	if flipped != wantFlipped {
		t.Errorf("%d Forces set a guard, want %d", flipped, wantFlipped)
	}
	t.Logf("%d Forces set a guard", flipped)
}

// exercise runs op once through its exported function and checks the
// result; "" when right.
func exercise(op string) string {
	var w64 uint64 = 5
	var w32 uint32 = 5
	var wp uintptr = 5
	switch op {
	case "fetchadd64":
		if o := FetchAddUint64(&w64, 3); o != 5 || w64 != 8 {
			return "fetch-add 64 wrong"
		}
	case "fetchadd32":
		if o := FetchAddUint32(&w32, 3); o != 5 || w32 != 8 {
			return "fetch-add 32 wrong"
		}
	case "cas64":
		if !CompareAndSwapUint64(&w64, 5, 6) || CompareAndSwapUint64(&w64, 5, 7) || w64 != 6 {
			return "cas 64 wrong"
		}
	case "cas32":
		if !CompareAndSwapUint32(&w32, 5, 6) || CompareAndSwapUint32(&w32, 5, 7) || w32 != 6 {
			return "cas 32 wrong"
		}
	case "casuintptr":
		if !CompareAndSwapUintptr(&wp, 5, 6) || CompareAndSwapUintptr(&wp, 5, 7) || wp != 6 {
			return "cas uintptr wrong"
		}
	case "swap64":
		if o := SwapUint64(&w64, 9); o != 5 || w64 != 9 {
			return "swap 64 wrong"
		}
	case "swap32":
		if o := SwapUint32(&w32, 9); o != 5 || w32 != 9 {
			return "swap 32 wrong"
		}
	case "loadacquire64":
		if LoadAcquireUint64(&w64) != 5 {
			return "load-acquire 64 wrong"
		}
	case "loadacquire32":
		if LoadAcquireUint32(&w32) != 5 {
			return "load-acquire 32 wrong"
		}
	case "fetchor32":
		if o := FetchOrUint32(&w32, 0xa); o != 5 || w32 != 0xf {
			return "fetch-or 32 wrong"
		}
	case "fetchor64":
		if o := FetchOrUint64(&w64, 0xa); o != 5 || w64 != 0xf {
			return "fetch-or 64 wrong"
		}
	case "fetchand32":
		if o := FetchAndUint32(&w32, 6); o != 5 || w32 != 4 {
			return "fetch-and 32 wrong"
		}
	case "fetchand64":
		if o := FetchAndUint64(&w64, 6); o != 5 || w64 != 4 {
			return "fetch-and 64 wrong"
		}
	case "fetchadduintptr":
		if o := FetchAddUintptr(&wp, 3); o != 5 || wp != 8 {
			return "fetch-add uintptr wrong"
		}
	case "swapuintptr":
		if o := SwapUintptr(&wp, 9); o != 5 || wp != 9 {
			return "swap uintptr wrong"
		}
	case "loadacquireuintptr":
		if LoadAcquireUintptr(&wp) != 5 {
			return "load-acquire uintptr wrong"
		}
	default:
		return "no exercise for guarded op " + op + ": add one"
	}
	return ""
}
