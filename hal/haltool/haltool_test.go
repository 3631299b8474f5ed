package haltool_test

import (
	"slices"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/binding"
)

// TestBindingKinds holds haltool's constants to internal/binding's, which
// the generator and hal use: one for one, in the same order, so a binding
// added there and not here, or spelt differently, fails.
func TestBindingKinds(t *testing.T) {
	mine := []haltool.BindingKind{haltool.Inline, haltool.Plain, haltool.Guarded, haltool.Flag, haltool.Single, haltool.Static, haltool.Portable}
	if len(mine) != len(binding.All) {
		t.Fatalf("haltool has %d binding kinds, internal/binding %d", len(mine), len(binding.All))
	}
	for i, k := range binding.All {
		if string(mine[i]) != string(k) {
			t.Errorf("binding kind %d: haltool %q, internal/binding %q", i, mine[i], k)
		}
	}
}

// TestEveryOpBound checks that every op of the build has one of the
// binding kinds, a row in the table naming its selected variant, and
// variants of which the selected one is; an unknown op has none of these.
func TestEveryOpBound(t *testing.T) {
	sel := map[string]string{}
	for _, c := range hal.Selected() {
		sel[c.Op] = c.Variant
	}
	kinds := []haltool.BindingKind{haltool.Inline, haltool.Plain, haltool.Guarded, haltool.Flag, haltool.Single, haltool.Static, haltool.Portable}
	for _, op := range haltool.Ops() {
		if b := haltool.Binding(op); !slices.Contains(kinds, b) {
			t.Errorf("%s: Binding %q is none of the kinds", op, b)
		}
		vs, ok := haltool.Variants(op)
		if !ok || !slices.ContainsFunc(vs, func(v dispatch.Variant) bool { return v.Name == sel[op] }) {
			t.Errorf("%s: Variants = %v, %v, without the selected %q", op, vs, ok, sel[op])
		}
		if ok, missing := haltool.Runnable(op, sel[op]); !ok {
			t.Errorf("%s: selected variant %q not runnable (missing %q)", op, sel[op], missing)
		}
	}
	if b := haltool.Binding("bogus"); b != "" {
		t.Errorf(`Binding("bogus") = %q, want ""`, b)
	}
	if _, ok := haltool.Variants("bogus"); ok {
		t.Error(`Variants("bogus") reports an op`)
	}
	if haltool.Inlined("bogus") {
		t.Error(`Inlined("bogus") is true`)
	}
	if haltool.Table() != haltool.Table() {
		t.Error("Table returns a different table each call")
	}
	if got, want := haltool.Table().FetchAddUint64.Variant, sel["fetchadd64"]; got != want {
		t.Errorf("Table's fetchadd64 row names %q, Selected %q", got, want)
	}
}
