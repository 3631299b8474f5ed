package spec_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/spec"
)

// Register refuses an Arch that misses an op, names an op the spec does
// not have, or repeats a GOARCH, before it changes anything.
func TestRegisterRefuses(t *testing.T) {
	all := func() map[string][]spec.Variant {
		m := map[string][]spec.Variant{}
		for _, op := range spec.Ops {
			if op.GoVariants == nil {
				m[op.Name] = []spec.Variant{spec.Portable("test")}
			}
		}
		return m
	}
	own := all()
	own["fenceheavy"] = []spec.Variant{spec.Portable("test")}
	missing := all()
	delete(missing, "fence")
	extra := all()
	extra["nosuch"] = nil
	for _, c := range []struct {
		a    spec.Arch
		want string
	}{
		{spec.Arch{GOARCH: "fakearch", Variants: missing}, "missing from Variants [fence]"},
		{spec.Arch{GOARCH: "fakearch", Variants: extra}, "not in spec.Ops [nosuch]"},
		{spec.Arch{GOARCH: "fakearch", Variants: own}, "with the spec's own GoVariants [fenceheavy]"},
		{spec.Arch{GOARCH: "amd64", Variants: all()}, "registered twice"},
		{spec.Arch{Variants: all()}, "empty GOARCH"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, c.want) {
					t.Errorf("Register(%s): panic %v, want one containing %q", c.a.GOARCH, r, c.want)
				}
			}()
			spec.Register(c.a)
		}()
	}
	if _, ok := spec.ArchOf("fakearch"); ok || slices.Contains(spec.Arches(), "fakearch") {
		t.Error("a refused Arch was registered")
	}
	if spec.Find("fence").Arch["fakearch"] != nil {
		t.Error("a refused Arch changed the ops")
	}
}

// Every registered Arch is what the ops and Levels carry, and says how CI
// runs it.
func TestRegistered(t *testing.T) {
	arches := spec.Arches()
	if len(arches) == 0 || !slices.IsSorted(arches) {
		t.Fatalf("Arches() = %v: none, or not sorted", arches)
	}
	for _, g := range arches {
		a, ok := spec.ArchOf(g)
		if !ok || a.GOARCH != g {
			t.Fatalf("ArchOf(%s) = %v, %v", g, a.GOARCH, ok)
		}
		for _, op := range spec.Ops {
			want := a.Variants[op.Name]
			if op.GoVariants != nil {
				want = op.GoVariants
			}
			if !slices.EqualFunc(op.Arch[g], want, func(x, y spec.Variant) bool { return x.Name == y.Name }) {
				t.Errorf("%s: op %s carries %v, the Arch %v", g, op.Name, op.Arch[g], want)
			}
		}
		if len(a.Levels) > 0 && !slices.EqualFunc(spec.Levels[g], a.Levels, func(x, y spec.Level) bool { return x.Tag == y.Tag }) {
			t.Errorf("%s: spec.Levels has %v, the Arch %v", g, spec.Levels[g], a.Levels)
		}
		if b := a.Emulator.Binary; b != "" && !strings.HasPrefix(b, "qemu-") {
			t.Errorf("%s: Emulator.Binary %q is not a qemu-user binary", g, a.Emulator.Binary)
		}
		if b := a.Emulator.Binutils; b != "" && !strings.HasPrefix(b, "binutils-") {
			t.Errorf("%s: Emulator.Binutils %q is not a Debian binutils package", g, b)
		}
	}
	if _, ok := spec.ArchOf("wasm"); ok { // one thread: no backend (docs/variants.md)
		t.Error("ArchOf(wasm) found an Arch")
	}
}
