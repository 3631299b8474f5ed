package spec_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/gotypes"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func TestValidate(t *testing.T) {
	for _, a := range spec.Arches() {
		if err := spec.Validate(a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	if err := spec.Validate("wasm"); err == nil { // one thread: no backend
		t.Error("Validate accepted an architecture without variants")
	}
}

// The frame layout every non-avo backend relies on must agree with the Go
// toolchain's, which avo's gotypes computes from go/types.
func TestFrameMatchesGoTypes(t *testing.T) {
	for i := range spec.Ops {
		op := &spec.Ops[i]
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
	op := spec.Find("fetchadd64")
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
	if got := spec.Find("cas32").Decl("X"); got != "func X(addr *uint32, old, new uint32) (swapped bool)" {
		t.Errorf("Decl = %q", got)
	}
	if got := spec.Find("cycles").Signature(); got != "func() uint64" {
		t.Errorf("Signature = %q", got)
	}
}

// Every feature a variant may require is one dispatch detects.
func TestFeaturesKnownToDispatch(t *testing.T) {
	f := &dispatch.Features{Flags: map[string]bool{}}
	for _, name := range spec.Features {
		f.Flags[name] = true
	}
	for _, name := range spec.Features {
		if !f.Has(name) || strings.ToLower(name) != name {
			t.Errorf("feature %q", name)
		}
	}
}

func TestGoVariantRules(t *testing.T) {
	op := spec.Find("cas128")
	saved := op.Arch["amd64"]
	defer func() { op.Arch["amd64"] = saved }()
	for _, c := range []struct {
		vs   []spec.Variant
		want string // in the error; "" for none
	}{
		{[]spec.Variant{{Name: "a"}, spec.Portable("x")}, ""},
		{[]spec.Variant{spec.Portable("x")}, ""},
		{[]spec.Variant{{Name: "a"}, {Name: "fallback", Go: true}}, "must be named"},
		{[]spec.Variant{{Name: "a"}, {Name: "fallback", Go: true, Requires: []string{dispatch.FeatureCX16}}}, "must be named"},
		// A Go variant that reaches the operating system (a system call).
		{[]spec.Variant{{Name: "sys", Go: true, Requires: []string{dispatch.FeatureMembarrier}}, spec.Portable("x")}, ""},
		{[]spec.Variant{{Name: "portable", Go: true, Requires: []string{dispatch.FeatureCX16}}}, "require nothing"},
		{[]spec.Variant{{Name: "a"}, {Name: "portable"}}, "reserved"},
	} {
		op.Arch["amd64"] = c.vs
		err := spec.Validate("amd64")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.vs, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one containing %q", c.vs, err, c.want)
		}
	}
	op.Arch["amd64"] = []spec.Variant{{Name: "a"}, spec.Portable("x"), {Name: "b"}}
	if got := op.AsmVariants("amd64"); len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Errorf("AsmVariants = %+v", got)
	}
	if !op.HasGoVariant("amd64") || spec.Find("fetchadd64").HasGoVariant("amd64") {
		t.Error("HasGoVariant")
	}
}

func TestDirectNames(t *testing.T) {
	for _, c := range []struct{ op, variant, want string }{
		{"fetchadd64", "lse", "FetchAddUint64Lse"},
		{"cycles", "lfence_rdtsc", "CyclesLfenceRdtsc"},
		{"cas128", "cmpxchg16b", "CompareAndSwap128Cmpxchg16b"},
	} {
		if got := spec.Find(c.op).DirectName(c.variant); got != c.want {
			t.Errorf("DirectName(%s, %s) = %q, want %q", c.op, c.variant, got, c.want)
		}
	}
	if got := spec.Find("cas128").StaticName(); got != "StaticCompareAndSwap128" {
		t.Errorf("StaticName = %q", got)
	}
	if got := spec.Find("pause").FlaggedName(); got != "PauseFlagged" {
		t.Errorf("FlaggedName = %q", got)
	}
	// Exported names are unique across ops, variants, probes and statics.
	for _, a := range spec.Arches() {
		seen := map[string]bool{}
		for i := range spec.Ops {
			op := &spec.Ops[i]
			names := []string{op.StaticName(), op.FlaggedName()}
			for _, v := range op.Variants(a) {
				names = append(names, op.DirectName(v.Name))
			}
			for _, n := range names {
				if seen[n] {
					t.Errorf("%s: name %s used twice", a, n)
				}
				seen[n] = true
			}
		}
	}
}

func TestStaticVariant(t *testing.T) {
	lv := func(arch, tag string) spec.Level {
		for _, l := range spec.LevelsOf(arch) {
			if l.Tag == tag {
				return l
			}
		}
		t.Fatalf("no level %s", tag)
		return spec.Level{}
	}
	for _, c := range []struct {
		arch, tag, op, want string
		inline              bool
	}{
		{"arm64", "arm64.v8.0", "fetchadd64", "llsc", false},
		{"arm64", "arm64.v8.1", "fetchadd64", "lse", true},
		{"arm64", "arm64.v8.1", "cas128", "lse", false},
		{"arm64", "arm64.v8.1", "loadacquire64", "ldar", true},
		{"arm64", "arm64.v8.3", "loadacquire64", "ldapr", false},
		{"arm64", "arm64.v8.0", "pause", "isb", false},
		{"amd64", "amd64.v1", "cycles", "lfence_rdtsc", false}, // RDTSCP is in no level
		{"amd64", "amd64.v1", "fence", "lockor", false},
		{"amd64", "amd64.v1", "cas128", "cmpxchg16b", false}, // the last hardware variant, checked at init: not the Go fallback
		{"riscv64", "riscv64", "cas128", "portable", false},  // no hardware variant at all
		{"riscv64", "riscv64", "fetchadd64", "amo", false},
		{"amd64", "amd64.v2", "cas128", "cmpxchg16b", false},
		{"amd64", "amd64.v1", "fetchadd64", "lock", true},
		{"amd64", "amd64.v1", "storerelease64", "mov", false},
		// Every hardware variant of cpu needs Linux (an OS feature): a
		// static build binds the Go variant, not one that exits elsewhere.
		{"amd64", "amd64.v2", "cpu", "portable", false},
		{"arm64", "arm64.v8.3", "cpu", "portable", false},
		{"riscv64", "riscv64", "cpu", "portable", false},
		// Only Go variants, the first needing a system call a kernel
		// or sandbox may refuse: the one that needs nothing.
		{"amd64", "amd64.v2", "fenceheavy", "portable", false},
		{"arm64", "arm64.v8.3", "fenceheavy", "portable", false},
	} {
		op := spec.Find(c.op)
		l := lv(c.arch, c.tag)
		if got := op.StaticVariant(c.arch, l).Name; got != c.want {
			t.Errorf("%s %s: static variant %q, want %q", c.tag, c.op, got, c.want)
		}
		if got := op.StaticInline(c.arch, l); got != c.inline {
			t.Errorf("%s %s: static inline %v, want %v", c.tag, c.op, got, c.inline)
		}
	}
	// The dynamic inline binding: amd64's single intrinsic variants only.
	for _, c := range []struct {
		arch, op string
		want     bool
	}{
		{"amd64", "fetchadd64", true}, {"amd64", "cas64", true}, {"amd64", "loadacquire64", true},
		{"amd64", "storerelease64", false}, {"amd64", "cycles", false}, {"amd64", "cas128", false},
		{"arm64", "fetchadd64", false}, {"arm64", "storerelease64", true}, {"arm64", "fence", false},
	} {
		if got := spec.Find(c.op).InlineBinding(c.arch); got != c.want {
			t.Errorf("%s %s: InlineBinding %v, want %v", c.arch, c.op, got, c.want)
		}
	}
}

func TestValidateLevels(t *testing.T) {
	saved := spec.Levels["amd64"]
	defer func() { spec.Levels["amd64"] = saved }()
	for _, bad := range [][]spec.Level{
		{{Tag: "arm64.v8.0"}},
		{{Tag: "amd64.v1", Implies: []string{dispatch.FeatureCX16}}},
		{{Tag: "amd64.v1"}, {Tag: "amd64.v2", Implies: []string{"nosuch"}}},
		{{Tag: "amd64.v1"}, {Tag: "amd64.v2", Implies: []string{dispatch.FeatureCX16}}, {Tag: "amd64.v3"}},
	} {
		spec.Levels["amd64"] = bad
		if err := spec.Validate("amd64"); err == nil {
			t.Errorf("Validate accepted levels %+v", bad)
		}
	}
}

// The guarded rule is general: any op with an Inline expression, several
// hardware variants and one intrinsic among them, on any architecture.
func TestGuardedBinding(t *testing.T) {
	intr := spec.Variant{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Intrinsic: true}
	other := spec.Variant{Name: "llsc"}
	mk := func(inline string, vs ...spec.Variant) *spec.Op {
		return &spec.Op{Name: "fetchor64", GoName: "FetchOrUint64", Inline: inline, Arch: map[string][]spec.Variant{"arm64": vs}}
	}
	for _, c := range []struct {
		op   *spec.Op
		want bool
	}{
		{mk("atomic.OrUint64(addr, mask)", intr, other), true},
		{mk("atomic.OrUint64(addr, mask)", other, spec.Variant{Name: "ldar", Intrinsic: true}), true},
		{mk("", intr, other), false},                                               // no intrinsic expression
		{mk("atomic.OrUint64(addr, mask)", intr), false},                           // one variant: inline or single
		{mk("atomic.OrUint64(addr, mask)", other, spec.Variant{Name: "x"}), false}, // no intrinsic variant
		{mk("atomic.OrUint64(addr, mask)", intr, spec.Portable("go")), false},      // a Go variant: Go entry
	} {
		if got := c.op.GuardedBinding("arm64"); got != c.want {
			t.Errorf("GuardedBinding(%+v) = %v, want %v", c.op.Arch["arm64"], got, c.want)
		}
	}
	for _, name := range []string{"fetchadd64", "cas64", "swap64", "loadacquire64"} {
		if op := spec.Find(name); !op.GuardedBinding("arm64") || op.GuardedBinding("amd64") || op.GuardedBinding("riscv64") {
			t.Errorf("%s: guarded on arm64 only, got arm64=%v amd64=%v riscv64=%v", name,
				op.GuardedBinding("arm64"), op.GuardedBinding("amd64"), op.GuardedBinding("riscv64"))
		}
	}
	if op := spec.Find("fetchadd64"); op.GuardVar() != "guardFetchadd64" || op.FlagEntry() != "fetchadd64Flag" {
		t.Errorf("names: %s, %s", op.GuardVar(), op.FlagEntry())
	}
}

func TestValidateOneIntrinsic(t *testing.T) {
	op := spec.Find("fetchadd64")
	saved := op.Arch
	defer func() { op.Arch = saved }()
	op.Arch = map[string][]spec.Variant{"arm64": {
		{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Intrinsic: true},
		{Name: "llsc", Intrinsic: true},
	}}
	if err := spec.Validate("arm64"); err == nil || !strings.Contains(err.Error(), "more than one variant is marked Intrinsic") {
		t.Errorf("two intrinsic variants: %v", err)
	}
}

func TestValidateIntrinsicFallback(t *testing.T) {
	op := spec.Find("fetchadd64")
	saved := op.Arch
	defer func() { op.Arch = saved }()
	// A fallback needs an intrinsic variant that requires a feature.
	op.Arch = map[string][]spec.Variant{"arm64": {{Name: "ldar", Intrinsic: true}, {Name: "llsc", IntrinsicFallback: true}}}
	if err := spec.Validate("arm64"); err == nil || !strings.Contains(err.Error(), "IntrinsicFallback") {
		t.Errorf("fallback of a featureless intrinsic: %v", err)
	}
	op.Arch = saved
	if err := spec.Validate("arm64"); err != nil {
		t.Errorf("the real spec: %v", err)
	}
	if v, ok := op.IntrinsicFallbackVariant("arm64"); !ok || v.Name != "llsc" {
		t.Errorf("arm64 fetchadd64's fallback: %v %v", v.Name, ok)
	}
}

func TestPlainBinding(t *testing.T) {
	for _, name := range []string{"storerelease32", "storerelease64", "storereleaseuintptr"} {
		op := spec.Find(name)
		for _, a := range spec.Arches() {
			want := a == "amd64" || a == "s390x"
			if got := op.PlainBinding(a); got != want {
				t.Errorf("%s on %s: PlainBinding = %v, want %v", name, a, got, want)
			}
			if op.PlainBinding(a) && (op.InlineBinding(a) || op.GuardedBinding(a)) {
				t.Errorf("%s on %s: plain and inline or guarded", name, a)
			}
		}
	}
	op := spec.Find("fetchadd64")
	saved := op.Arch
	defer func() { op.Arch = saved }()
	// fetchadd64 has no Plain statement: a Plain variant is refused.
	op.Arch = map[string][]spec.Variant{"amd64": {{Name: "lock", Plain: true}}}
	if err := spec.Validate("amd64"); err == nil || !strings.Contains(err.Error(), "marked Plain") {
		t.Errorf("plain variant of an op without a Plain statement: %v", err)
	}
	if op.PlainBinding("amd64") {
		t.Error("fetchadd64 bound plain without a Plain statement")
	}
	sr := spec.Find("storerelease64")
	savedSR := sr.Arch
	defer func() { sr.Arch = savedSR }()
	sr.Arch = map[string][]spec.Variant{"amd64": {{Name: "mov", Plain: true, Requires: []string{dispatch.FeatureCX16}}}}
	if err := spec.Validate("amd64"); err == nil || !strings.Contains(err.Error(), "marked Plain") {
		t.Errorf("plain variant that requires a feature: %v", err)
	}
}

// On a 32-bit architecture the frame follows go/types' gc sizes for it:
// 4-byte pointers, uint64 aligned to 4, results after the arguments at
// the next multiple of 4.
func TestFrameFor32BitMatchesGoTypes(t *testing.T) {
	sizes := types.SizesFor("gc", "arm")
	if got := spec.PtrSize("arm"); got != 4 {
		t.Fatalf("PtrSize(arm) = %d, want 4", got)
	}
	if got := spec.PtrSize("amd64"); got != 8 {
		t.Fatalf("PtrSize(amd64) = %d, want 8", got)
	}
	typ := map[string]types.Type{
		"bool": types.Typ[types.Bool], "uint8": types.Typ[types.Uint8], "uint32": types.Typ[types.Uint32],
		"uint64": types.Typ[types.Uint64], "uintptr": types.Typ[types.Uintptr], "int": types.Typ[types.Int],
		"*uint32": types.NewPointer(types.Typ[types.Uint32]), "*uint64": types.NewPointer(types.Typ[types.Uint64]),
		"*uintptr":   types.NewPointer(types.Typ[types.Uintptr]),
		"*[2]uint64": types.NewPointer(types.NewArray(types.Typ[types.Uint64], 2)),
	}
	layout := func(ts []types.Type, start int64) []int64 {
		var vars []*types.Var
		for _, ty := range ts {
			vars = append(vars, types.NewVar(0, nil, "", ty))
		}
		offs := sizes.Offsetsof(vars)
		for i := range offs {
			// Offsetsof lays a struct from 0; a struct's alignment is at
			// most 4 on arm, so shifting by a multiple of 4 keeps it.
			offs[i] += start
		}
		return offs
	}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		f := op.FrameFor(4)
		var pts, rts []types.Type
		for _, p := range op.Params {
			pts = append(pts, typ[p.Type])
		}
		for _, p := range op.Results {
			rts = append(rts, typ[p.Type])
		}
		end := int64(0)
		for j, off := range layout(pts, 0) {
			if int64(f.Params[j].Offset) != off || int64(f.Params[j].Size) != sizes.Sizeof(pts[j]) {
				t.Errorf("%s: param %s at %d size %d, go/types says %d size %d", op.Name, f.Params[j].Name, f.Params[j].Offset, f.Params[j].Size, off, sizes.Sizeof(pts[j]))
			}
			end = off + sizes.Sizeof(pts[j])
		}
		if len(rts) > 0 {
			end = (end + 3) / 4 * 4
			for j, off := range layout(rts, end) {
				if int64(f.Results[j].Offset) != off {
					t.Errorf("%s: result %s at %d, go/types says %d", op.Name, f.Results[j].Name, f.Results[j].Offset, off)
				}
				end = off + sizes.Sizeof(rts[j])
			}
		}
		if int64(f.Size) != end {
			t.Errorf("%s: frame size %d, go/types says %d", op.Name, f.Size, end)
		}
	}
}
