package backend

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

// The GOHAL that CI forces on each architecture is one dispatch accepts
// on a CPU with no feature at all (so on every CPU model), names each op
// at most once, never an op's first variant, and moves something.
func TestForcedGOHAL(t *testing.T) {
	for _, arch := range spec.Arches() {
		s := ForcedGOHAL(arch)
		if s == "" {
			continue // every op has one variant, or none that needs nothing
		}
		o, err := dispatch.ParseOverride(s)
		if err != nil {
			t.Fatalf("%s: %q: %v", arch, s, err)
		}
		var ops []dispatch.Op
		for i := range spec.Ops {
			op := &spec.Ops[i]
			d := dispatch.Op{Name: op.Name}
			for _, v := range op.Variants(arch) {
				d.Variants = append(d.Variants, dispatch.Variant{Name: v.Name, Requires: v.Requires})
			}
			ops = append(ops, d)
		}
		none := &dispatch.Features{GOARCH: arch, Flags: map[string]bool{}}
		chosen, err := dispatch.Select(none, ops, o)
		if err != nil {
			t.Errorf("%s: dispatch refuses %q on a CPU without features: %v", arch, s, err)
			continue
		}
		for _, pair := range strings.Split(s, ",") {
			op, v, _ := strings.Cut(pair, "=")
			if first := spec.Find(op).Variants(arch)[0].Name; v == first {
				t.Errorf("%s: %s forces the preferred variant", arch, pair)
			}
		}
		moved := false
		for i, c := range chosen {
			if c.Variant != spec.Ops[i].Variants(arch)[0].Name {
				moved = true
			}
		}
		if !moved {
			t.Errorf("%s: %q forces nothing a default run does not reach", arch, s)
		}
	}
	// The 128-bit group goes together: all portable where one op has no
	// second hardware variant (amd64: cas128's fallback is portable).
	if a, ok := spec.ArchOf("amd64"); ok {
		s := ForcedGOHAL(a.GOARCH)
		for _, want := range []string{"cas128=portable", "load128=portable", "store128=portable", "fence=mfence"} {
			if !strings.Contains(s, want) {
				t.Errorf("amd64: %q lacks %s", s, want)
			}
		}
	}
}

func TestOpsLabel(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"fetchor32", "fetchor64", "fetchand32", "fetchand64"}, "fetchor32/64, fetchand32/64"},
		{[]string{"loadacquireuintptr", "loadacquire32", "loadacquire64"}, "loadacquire32/64/uintptr"},
		{[]string{"pause"}, "pause"},
		{[]string{"cas128"}, "cas128"},
	} {
		if got := opsLabel(c.names); got != c.want {
			t.Errorf("opsLabel(%v) = %q, want %q", c.names, got, c.want)
		}
	}
}

// The variants table has a column per architecture, names every op in
// exactly one row, and shows each variant with its brief and needs.
func TestVariantsTable(t *testing.T) {
	arches := spec.Arches()
	tab := VariantsTable(arches)
	lines := strings.Split(strings.TrimSuffix(tab, "\n"), "\n")
	if want := "| op | " + strings.Join(arches, " | ") + " | other GOARCH, purego, -race |"; lines[0] != want {
		t.Errorf("header %q, want %q", lines[0], want)
	}
	seen := map[string]int{}
	for _, l := range lines[2:] {
		if n := strings.Count(l, " | "); n != len(arches)+1 {
			t.Errorf("row %q has %d cells", l, n+1)
		}
		label := strings.TrimPrefix(strings.SplitN(l, " | ", 2)[0], "| ")
		for _, group := range strings.Split(label, ", ") {
			base, rest, _ := strings.Cut(group, "/")
			seen[base]++
			stem := strings.TrimRight(base, "0123456789")
			for _, w := range strings.Split(rest, "/") {
				if w != "" {
					seen[stem+w]++
				}
			}
		}
	}
	for _, op := range spec.Ops {
		if seen[op.Name] != 1 {
			t.Errorf("op %s is in %d rows", op.Name, seen[op.Name])
		}
	}
	if _, ok := spec.ArchOf("arm64"); ok && !strings.Contains(tab, "`lse` (CASAL; needs atomics), `llsc` (LDAXR/STLXR)") {
		t.Error("arm64's cas cell lacks its briefs and needs")
	}
}

func TestApply(t *testing.T) {
	sps := []Splice{{Begin: "<!-- a -->", End: "<!-- /a -->", Text: "new"}}
	got, err := Apply([]byte("x <!-- a -->old<!-- /a --> y"), sps)
	if err != nil || string(got) != "x <!-- a -->new<!-- /a --> y" {
		t.Errorf("Apply = %q, %v", got, err)
	}
	if _, err := Apply([]byte("x <!-- a -->old"), sps); err == nil {
		t.Error("Apply accepted a missing end marker")
	}
	if _, err := Apply([]byte("x"), sps); err == nil {
		t.Error("Apply accepted a missing begin marker")
	}
}
