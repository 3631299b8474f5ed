package spec

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/gotypes"

	"github.com/gohal/gohal/dispatch"
)

var arches = []string{"amd64", "arm64", "riscv64"}

func TestValidate(t *testing.T) {
	for _, a := range arches {
		if err := Validate(a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	if err := Validate("mips"); err == nil {
		t.Error("Validate accepted an architecture without variants")
	}
}

// The frame layout every non-avo backend relies on must agree with the Go
// toolchain's, which avo's gotypes computes from go/types.
func TestFrameMatchesGoTypes(t *testing.T) {
	for i := range Ops {
		op := &Ops[i]
		sig, err := gotypes.ParseSignature(op.Signature())
		if err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		f := op.Frame()
		if f.Size != sig.Bytes() {
			t.Errorf("%s: frame size %d, go/types says %d", op.Name, f.Size, sig.Bytes())
		}
		for j, s := range f.Params {
			b, err := sig.Params().At(j).Resolve()
			if err != nil {
				t.Fatal(err)
			}
			if b.Addr.Disp != s.Offset || b.Addr.Symbol.Name != s.Name {
				t.Errorf("%s: param %s at %d, go/types says %s at %d", op.Name, s.Name, s.Offset, b.Addr.Symbol.Name, b.Addr.Disp)
			}
		}
		for j, s := range f.Results {
			b, err := sig.Results().At(j).Resolve()
			if err != nil {
				t.Fatal(err)
			}
			if b.Addr.Disp != s.Offset || b.Addr.Symbol.Name != s.Name {
				t.Errorf("%s: result %s at %d, go/types says %s at %d", op.Name, s.Name, s.Offset, b.Addr.Symbol.Name, b.Addr.Disp)
			}
		}
	}
}

func TestNames(t *testing.T) {
	op := Find("fetchadd64")
	if op == nil {
		t.Fatal("no fetchadd64")
	}
	if got := op.Symbol("lse"); got != "fetchadd64_lse" {
		t.Errorf("Symbol = %q", got)
	}
	if got := op.SelVar(); got != "selFetchadd64" {
		t.Errorf("SelVar = %q", got)
	}
	if got := op.Signature(); got != "func(addr *uint64, delta uint64) (old uint64)" {
		t.Errorf("Signature = %q", got)
	}
	if got := Find("cas32").Decl("X"); got != "func X(addr *uint32, old, new uint32) (swapped bool)" {
		t.Errorf("Decl = %q", got)
	}
	if got := Find("cycles").Signature(); got != "func() uint64" {
		t.Errorf("Signature = %q", got)
	}
}

// Every feature a variant may require is one dispatch detects.
func TestFeaturesKnownToDispatch(t *testing.T) {
	f := &dispatch.Features{Flags: map[string]bool{}}
	for _, name := range Features {
		f.Flags[name] = true
	}
	for _, name := range Features {
		if !f.Has(name) || strings.ToLower(name) != name {
			t.Errorf("feature %q", name)
		}
	}
}

func TestGoVariantRules(t *testing.T) {
	op := Find("cas128")
	saved := op.Arch["amd64"]
	defer func() { op.Arch["amd64"] = saved }()
	for _, c := range []struct {
		vs   []Variant
		want string // in the error; "" for none
	}{
		{[]Variant{{Name: "a"}, Portable("x")}, ""},
		{[]Variant{Portable("x")}, ""},
		{[]Variant{{Name: "a"}, {Name: "fallback", Go: true}}, "must be named"},
		{[]Variant{{Name: "portable", Go: true, Requires: []string{dispatch.FeatureCX16}}}, "require nothing"},
		{[]Variant{{Name: "a"}, {Name: "portable"}}, "reserved"},
	} {
		op.Arch["amd64"] = c.vs
		err := Validate("amd64")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.vs, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one containing %q", c.vs, err, c.want)
		}
	}
	op.Arch["amd64"] = []Variant{{Name: "a"}, Portable("x"), {Name: "b"}}
	if got := op.AsmVariants("amd64"); len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Errorf("AsmVariants = %+v", got)
	}
	if !op.HasGoVariant("amd64") || Find("fetchadd64").HasGoVariant("amd64") {
		t.Error("HasGoVariant")
	}
}
