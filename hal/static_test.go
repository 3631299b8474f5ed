package hal

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/binding"
)

// fakeStatic is a compile-time choice for selectStatic: each op's last
// variant (the one needing fewest features in every spec so far) unless
// pick names another.
func fakeStatic(pick map[string]string) func(string) string {
	return func(op string) string {
		if v, ok := pick[op]; ok {
			return v
		}
		o := findOp(op)
		return o.variants[len(o.variants)-1].name
	}
}

// parsed parses a GOHAL value as init does, for selectFor and
// selectStatic; a malformed value fails the test.
func parsed(t *testing.T, s string) dispatch.Override {
	t.Helper()
	o, err := dispatch.ParseOverride(s)
	if err != nil {
		t.Fatalf("GOHAL=%s: %v", s, err)
	}
	return o
}

// allFeatures is a CPU with every feature any variant of this build needs.
func allFeatures() *dispatch.Features {
	f := &dispatch.Features{GOARCH: "test", Flags: map[string]bool{}}
	for _, op := range archOps {
		for _, v := range op.variants {
			for _, r := range v.requires {
				f.Flags[r] = true
			}
		}
	}
	return f
}

func TestSelectStatic(t *testing.T) {
	f := allFeatures()
	choices, err := selectStatic(f, nil, "test.v1", fakeStatic(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(choices) != len(archOps) {
		t.Fatalf("%d choices for %d ops", len(choices), len(archOps))
	}
	for i, c := range choices {
		op := archOps[i]
		if c.Op != op.name || c.Variant != op.variants[len(op.variants)-1].name || c.Index != len(op.variants)-1 {
			t.Errorf("choice %d = %+v, want op %s variant %s", i, c, op.name, op.variants[len(op.variants)-1].name)
		}
		if c.Reason != "static build (gohal_static, test.v1)" {
			t.Errorf("%s: reason %q", c.Op, c.Reason)
		}
	}
}

func TestSelectStaticOverride(t *testing.T) {
	f := allFeatures()
	// Naming the compiled-in variant is accepted.
	op := archOps[0]
	last := op.variants[len(op.variants)-1].name
	if _, err := selectStatic(f, dispatch.Override{{Op: op.name, Variant: last}}, "test.v1", fakeStatic(nil)); err != nil {
		t.Errorf("override naming the compiled-in variant: %v", err)
	}
	// Malformed (init parses GOHAL before it chooses), unknown op, unknown
	// variant: the dynamic build's errors.
	for _, bad := range []string{"nonsense", "bogus=x", op.name + "=nope"} {
		o, err := dispatch.ParseOverride(bad)
		if err == nil {
			_, err = selectStatic(f, o, "test.v1", fakeStatic(nil))
		}
		var oe *dispatch.OverrideError
		if !errors.As(err, &oe) {
			t.Errorf("GOHAL=%s: error %v, want an *OverrideError", bad, err)
		}
	}
	// Any other variant is refused, naming the static build.
	for _, o := range archOps {
		if len(o.variants) < 2 {
			continue
		}
		first := o.variants[0].name
		_, err := selectStatic(f, dispatch.Override{{Op: o.name, Variant: first}}, "test.v1", fakeStatic(nil))
		var oe *dispatch.OverrideError
		if !errors.As(err, &oe) || oe.Op != o.name || oe.Variant != first {
			t.Fatalf("GOHAL=%s=%s: error %v, want an *OverrideError naming it", o.name, first, err)
		}
		for _, w := range []string{"GOHAL", "static build (gohal_static, test.v1)", `"` + first + `"`, "-tags gohal_static"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("message %q lacks %q", err, w)
			}
		}
	}
}

// A static build whose compiled-in variant needs a feature the CPU lacks
// fails at init, naming the op, the variant and the feature, instead of
// running into an illegal instruction.
func TestSelectStaticMissingFeature(t *testing.T) {
	tested := false
	for _, o := range archOps {
		for _, v := range o.variants {
			for _, r := range v.requires {
				f := allFeatures()
				f.Flags[r] = false
				// Every other op compiles in a variant without r (386's
				// fence ends in mfence, which needs SSE2), so that the
				// error can only be about o.
				pick := map[string]string{o.name: v.name}
				for _, p := range archOps {
					last := p.variants[len(p.variants)-1]
					if p.name == o.name || !slices.Contains(last.requires, r) {
						continue
					}
					for i := len(p.variants) - 1; i >= 0; i-- {
						if !slices.Contains(p.variants[i].requires, r) {
							pick[p.name] = p.variants[i].name
							break
						}
					}
				}
				_, err := selectStatic(f, nil, "test.v2", fakeStatic(pick))
				if err == nil {
					t.Errorf("%s/%s compiled in, CPU without %s: no error", o.name, v.name, r)
					continue
				}
				for _, w := range []string{"static build (gohal_static, test.v2)", `"` + o.name + `"`, `"` + v.name + `"`, `"` + r + `"`} {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("message %q lacks %q", err, w)
					}
				}
				tested = true
			}
		}
	}
	if !tested {
		t.Skip("no variant in this build requires a feature")
	}
}

func TestBindingNamesEveryOp(t *testing.T) {
	for _, op := range opNames() {
		switch b := bindingOf(op); b {
		case binding.Inline, binding.Plain, binding.Guarded, binding.Flag, binding.Single, binding.Static, binding.Portable:
			if staticBuild != (b == binding.Static) {
				t.Errorf("%s: binding %q in a build with staticBuild=%v", op, b, staticBuild)
			}
		default:
			t.Errorf("%s: binding %q", op, b)
		}
	}
	if bindingOf("bogus") != "" {
		t.Error(`bindingOf("bogus") != ""`)
	}
}
