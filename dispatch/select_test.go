package dispatch

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func testOps() []Op {
	return []Op{
		{Name: "fetchadd64", Variants: []Variant{{Name: "lse", Requires: []string{FeatureAtomics}}, {Name: "llsc"}}},
		{Name: "loadacquire64", Variants: []Variant{{Name: "ldapr", Requires: []string{FeatureLRCPC}}, {Name: "ldar"}}},
		{Name: "pause", Variants: []Variant{{Name: "isb"}, {Name: "yield"}}},
		{Name: "fence", Variants: []Variant{{Name: "dmb"}}},
	}
}

func arm64(flags ...string) *Features {
	f := &Features{GOARCH: "arm64", Flags: map[string]bool{}}
	for _, fl := range flags {
		f.Flags[fl] = true
	}
	return f
}

// sel parses override and selects with it, as hal's init does with GOHAL.
func sel(f *Features, ops []Op, override string) ([]Choice, error) {
	o, err := ParseOverride(override)
	if err != nil {
		return nil, err
	}
	return Select(f, ops, o)
}

func choice(t *testing.T, cs []Choice, op string) Choice {
	t.Helper()
	for _, c := range cs {
		if c.Op == op {
			return c
		}
	}
	t.Fatalf("no choice for %s in %v", op, cs)
	return Choice{}
}

func TestSelectPrefersFirstRunnable(t *testing.T) {
	cs, err := sel(arm64(FeatureAtomics), testOps(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 4 {
		t.Fatalf("got %d choices, want 4", len(cs))
	}
	if c := choice(t, cs, "fetchadd64"); c.Variant != "lse" || c.Index != 0 || !strings.Contains(c.Reason, "atomics") {
		t.Errorf("fetchadd64: %+v", c)
	}
	if c := choice(t, cs, "loadacquire64"); c.Variant != "ldar" || c.Index != 1 || !strings.Contains(c.Reason, "ldapr needs lrcpc") {
		t.Errorf("loadacquire64: %+v", c)
	}
	if c := choice(t, cs, "fence"); c.Variant != "dmb" || c.Reason != "only variant" {
		t.Errorf("fence: %+v", c)
	}
	if c := choice(t, cs, "pause"); c.Variant != "isb" || c.Reason != "preferred" {
		t.Errorf("pause: %+v", c)
	}
}

func TestSelectWithoutFeaturesFallsBack(t *testing.T) {
	cs, err := sel(arm64(), testOps(), "")
	if err != nil {
		t.Fatal(err)
	}
	if c := choice(t, cs, "fetchadd64"); c.Variant != "llsc" || !strings.Contains(c.Reason, "lse needs atomics") {
		t.Errorf("fetchadd64: %+v", c)
	}
}

func TestSelectOverride(t *testing.T) {
	cs, err := sel(arm64(FeatureAtomics, FeatureLRCPC), testOps(), " fetchadd64 = llsc ,pause=yield,")
	if err != nil {
		t.Fatal(err)
	}
	if c := choice(t, cs, "fetchadd64"); c.Variant != "llsc" || c.Index != 1 || c.Reason != "override GOHAL=fetchadd64=llsc" {
		t.Errorf("fetchadd64: %+v", c)
	}
	if c := choice(t, cs, "pause"); c.Variant != "yield" {
		t.Errorf("pause: %+v", c)
	}
	if c := choice(t, cs, "loadacquire64"); c.Variant != "ldapr" {
		t.Errorf("loadacquire64 not overridden but got %+v", c)
	}
}

func TestSelectOverrideErrors(t *testing.T) {
	for _, tc := range []struct {
		override string
		want     []string // substrings of the message
		missing  string
	}{
		{"bogus=x", []string{"GOHAL:", `unknown op "bogus"`, "fetchadd64"}, ""},
		{"fetchadd64=nope", []string{"GOHAL:", `op "fetchadd64"`, `no variant "nope"`, "lse, llsc"}, ""},
		{"fetchadd64=lse", []string{"GOHAL:", `op "fetchadd64"`, `variant "lse"`, `feature "atomics"`}, FeatureAtomics},
		{"loadacquire64=ldapr", []string{`variant "ldapr"`, `"lrcpc"`}, FeatureLRCPC},
		{"fetchadd64", []string{"GOHAL:", "malformed", "op=variant"}, ""},
		{"fetchadd64=", []string{"malformed"}, ""},
		{"=llsc", []string{"malformed"}, ""},
		{"fetchadd64=llsc=lse", []string{"malformed"}, ""},
		{"pause=isb,pause=yield", []string{`op "pause" is given twice`}, ""},
	} {
		_, err := sel(arm64(), testOps(), tc.override)
		if err == nil {
			t.Errorf("GOHAL=%q: no error", tc.override)
			continue
		}
		var oe *OverrideError
		if !errors.As(err, &oe) {
			t.Errorf("GOHAL=%q: error %T, want *OverrideError", tc.override, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("GOHAL=%q: message spans lines: %q", tc.override, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("GOHAL=%q: message %q lacks %q", tc.override, msg, w)
			}
		}
		if oe.Missing != tc.missing {
			t.Errorf("GOHAL=%q: Missing = %q, want %q", tc.override, oe.Missing, tc.missing)
		}
	}
}

func TestSelectNoRunnableVariant(t *testing.T) {
	ops := []Op{{Name: "cas128", Variants: []Variant{{Name: "cmpxchg16b", Requires: []string{FeatureCX16}}}}}
	if _, err := sel(&Features{GOARCH: "amd64"}, ops, ""); err == nil || !strings.Contains(err.Error(), "no variant runs") {
		t.Fatalf("err = %v", err)
	}
}

func TestHostDetects(t *testing.T) {
	f := Host()
	if f.GOARCH == "" || f.CacheLine <= 0 || f.Flags == nil {
		t.Fatalf("Host() = %+v", f)
	}
	if Host() != f {
		t.Fatal("Host() detected twice")
	}
	for _, n := range f.Names() {
		if !f.Has(n) {
			t.Errorf("Names lists %q but Has is false", n)
		}
	}
}

func FuzzParseOverride(f *testing.F) {
	for _, s := range []string{"", "a=b", "fetchadd64=llsc,pause=yield", "a", "a==b", ",,", "a=b,a=c", " x = y "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOverride(s)
		if err != nil {
			var oe *OverrideError
			if !errors.As(err, &oe) || !strings.HasPrefix(err.Error(), "GOHAL: ") {
				t.Fatalf("error %v is not a GOHAL OverrideError", err)
			}
			if o != nil {
				t.Fatalf("error %v with override %v", err, o)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range o {
			if p.Op == "" || p.Variant == "" || strings.ContainsAny(p.Op+p.Variant, "=,") || seen[p.Op] {
				t.Fatalf("bad pair %q=%q from %q", p.Op, p.Variant, s)
			}
			seen[p.Op] = true
			if v, ok := o.Lookup(p.Op); !ok || v != p.Variant {
				t.Fatalf("Lookup(%q) = %q, %v in %v", p.Op, v, ok, o)
			}
		}
		// The pairs print back as a value that parses to the same pairs.
		if back, err := ParseOverride(o.String()); err != nil || !slices.Equal(back, o) {
			t.Fatalf("%q parses to %v, whose String %q parses to %v, %v", s, o, o.String(), back, err)
		}
		// Selecting with the parsed override must not panic either.
		_, _ = Select(arm64(), testOps(), o)
	})
}

// TestErrorsQuoteBoundedInput checks that an error quotes at most about
// 80 bytes of the override's text, says it was cut and how long it was
// (issue 10 item 15: a 100 KB GOHAL value made a 100 KB line), and that
// short names are quoted whole.
func TestErrorsQuoteBoundedInput(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for _, tc := range []struct{ name, override string }{
		{"malformed", "fetchadd64=llsc," + long},
		{"unknown op", long + "=llsc"},
		{"unknown variant", "fetchadd64=" + long},
		{"given twice", long + "=a," + long + "=b"},
		{"twice, long variants", "pause=" + long + ",pause=" + long},
		{"multibyte", "x" + strings.Repeat("é", 49_999) + "x=llsc"},
	} {
		_, err := sel(arm64(FeatureAtomics), testOps(), tc.override)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.Contains(msg, "... (100000 bytes)") || !strings.HasPrefix(msg, "GOHAL: ") {
			t.Errorf("%s: %d-byte message, want <= 400 with the cut marked: %.500s", tc.name, len(msg), msg)
		}
		if !utf8.ValidString(msg) {
			t.Errorf("%s: message cut inside a character: %.500q", tc.name, msg)
		}
	}
	// Exactly 80 bytes are quoted whole; 81 are cut.
	_, err := sel(arm64(), testOps(), strings.Repeat("o", 80)+"=v")
	if err == nil || !strings.Contains(err.Error(), `"`+strings.Repeat("o", 80)+`" (known`) {
		t.Errorf("80-byte op name: %v", err)
	}
	_, err = sel(arm64(), testOps(), strings.Repeat("o", 81)+"=v")
	if err == nil || !strings.Contains(err.Error(), `"`+strings.Repeat("o", 80)+`"... (81 bytes) (known`) {
		t.Errorf("81-byte op name: %v", err)
	}
}
