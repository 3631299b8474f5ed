package dispatch

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// ops128 are amd64's 128-bit ops as hal's spec gives them, and one op
// outside the group.
func ops128() []Op {
	return []Op{
		{Name: "fetchadd64", Variants: []Variant{{Name: "lock"}}},
		{Name: "load128", Variants: []Variant{{Name: "vmovdqa", Requires: []string{FeatureAVXAtomic}}, {Name: "cmpxchg16b", Requires: []string{FeatureCX16}}, {Name: "portable"}}},
		{Name: "store128", Variants: []Variant{{Name: "vmovdqa", Requires: []string{FeatureAVXAtomic}}, {Name: "cmpxchg16b", Requires: []string{FeatureCX16}}, {Name: "portable"}}},
		{Name: "cas128", Variants: []Variant{{Name: "cmpxchg16b", Requires: []string{FeatureCX16}}, {Name: "portable"}}},
	}
}

func amd64(flags ...string) *Features {
	f := &Features{GOARCH: "amd64", Flags: map[string]bool{}}
	for _, fl := range flags {
		f.Flags[fl] = true
	}
	return f
}

// TestSelectGroup128 checks the 128-bit ops run all hardware variants or
// all the portable one, whatever the CPU or the override says, with the
// reason saying why, and that an override mixing them is refused naming
// the ops.
func TestSelectGroup128(t *testing.T) {
	all := amd64(FeatureCX16, FeatureAVXAtomic)
	cs, err := sel(all, ops128(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"load128=vmovdqa", "store128=vmovdqa", "cas128=cmpxchg16b"} {
		op, v, _ := strings.Cut(want, "=")
		if c := choice(t, cs, op); c.Variant != v {
			t.Errorf("all features: %s runs %q, want %q", op, c.Variant, v)
		}
	}
	for _, o := range group128 {
		cs, err := sel(all, ops128(), o+"=portable")
		if err != nil {
			t.Fatalf("GOHAL=%s=portable: %v", o, err)
		}
		for _, other := range group128 {
			c := choice(t, cs, other)
			if c.Variant != "portable" || ops128()[slices.IndexFunc(ops128(), func(op Op) bool { return op.Name == other })].Variants[c.Index].Name != "portable" {
				t.Errorf("GOHAL=%s=portable: %s runs %q (index %d), want portable", o, other, c.Variant, c.Index)
			}
			if other != o && !strings.Contains(c.Reason, o+" is portable (override GOHAL="+o+"=portable)") || other != o && !strings.Contains(c.Reason, "share their words") {
				t.Errorf("GOHAL=%s=portable: %s's reason %q does not say why", o, other, c.Reason)
			}
		}
		if c := choice(t, cs, "fetchadd64"); c.Variant != "lock" {
			t.Errorf("GOHAL=%s=portable: fetchadd64 runs %q", o, c.Variant)
		}
	}
	// AVX but no CMPXCHG16B: cas128 has only its portable variant, which
	// takes the loads and stores along.
	cs, err = sel(amd64(FeatureAVXAtomic), ops128(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range group128 {
		if c := choice(t, cs, o); c.Variant != "portable" {
			t.Errorf("no cx16: %s runs %q, want portable", o, c.Variant)
		}
	}
	if c := choice(t, cs, "load128"); !strings.Contains(c.Reason, "cas128 is portable (fallback: cmpxchg16b needs cx16)") {
		t.Errorf("no cx16: load128's reason %q", c.Reason)
	}
	// Mixed overrides, and a hardware variant the group cannot have, are
	// refused.
	for _, tc := range []struct {
		f        *Features
		override string
		want     []string
	}{
		{all, "cas128=portable,load128=vmovdqa", []string{"GOHAL: ", `op "load128" variant "vmovdqa" cannot be chosen`, "cas128 is portable", "share their words", "[cas128 load128 store128]"}},
		{all, "store128=cmpxchg16b,load128=portable", []string{`op "store128" variant "cmpxchg16b"`, "load128 is portable"}},
		{amd64(FeatureAVXAtomic), "load128=vmovdqa", []string{`op "load128" variant "vmovdqa"`, "cas128 is portable (fallback: cmpxchg16b needs cx16)", "all hardware variants or all the portable one"}},
	} {
		_, err := sel(tc.f, ops128(), tc.override)
		var oe *OverrideError
		if !errors.As(err, &oe) {
			t.Errorf("GOHAL=%s: error %v, want an *OverrideError", tc.override, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("GOHAL=%s: message %q lacks %q", tc.override, err, w)
			}
		}
	}
	// Ops outside the group are untouched by it.
	if g := Group("fetchadd64"); g != nil {
		t.Errorf("Group(fetchadd64) = %v", g)
	}
	for _, o := range group128 {
		if g := Group(o); !slices.Equal(g, group128) {
			t.Errorf("Group(%s) = %v", o, g)
		}
	}
	Group("load128")[0] = "changed"
	if group128[0] != "cas128" {
		t.Fatal("Group returned the package's own slice")
	}
}

// TestSelectPairs checks an Override written as pairs, with nothing to
// parse, gets the checks and messages of a parsed one.
func TestSelectPairs(t *testing.T) {
	cs, err := Select(arm64(), testOps(), Override{{Op: "pause", Variant: "yield"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := choice(t, cs, "pause"); c.Variant != "yield" || c.Reason != "override GOHAL=pause=yield" {
		t.Errorf("pause: %+v", c)
	}
	for _, tc := range []struct {
		o    Override
		want string
	}{
		{Override{{"pause", "isb"}, {"pause", "yield"}}, `GOHAL: op "pause" is given twice ("isb" and "yield")`},
		{Override{{"bogus", "x"}}, `GOHAL: unknown op "bogus"`},
		{Override{{"fetchadd64", "lse"}}, `GOHAL: op "fetchadd64" variant "lse" needs CPU feature "atomics"`},
	} {
		_, err := Select(arm64(), testOps(), tc.o)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q...", tc.o, err, tc.want)
		}
	}
	if o, err := ParseOverride(" pause = yield ,, fence=dmb,"); err != nil || o.String() != "pause=yield,fence=dmb" {
		t.Errorf("ParseOverride: %v, %v", o, err)
	}
	if o, err := ParseOverride(""); err != nil || o != nil || o.String() != "" {
		t.Errorf("ParseOverride(\"\") = %v, %v", o, err)
	}
}
