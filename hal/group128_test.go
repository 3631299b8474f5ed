package hal

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/cacheline"
)

// TestGroup128 checks that this build's 128-bit ops run all hardware
// variants or all the portable one, whatever GOHAL says, and that an
// override mixing them is refused with a message naming the ops (dispatch's
// rule, on hal's own ops; dispatch's TestSelectGroup128 has the cases).
func TestGroup128(t *testing.T) {
	if !hasVariant("cas128", portableName) || len(findOp("cas128").variants) < 2 {
		t.Skip("cas128 has no choice between portable and hardware variants in this build")
	}
	all := &dispatch.Features{GOARCH: dispatch.Host().GOARCH, Flags: map[string]bool{}}
	for _, op := range archOps {
		for _, v := range op.variants {
			for _, r := range v.requires {
				all.Flags[r] = true
			}
		}
	}
	variantOf := func(cs []Choice, op string) Choice {
		for _, c := range cs {
			if c.Op == op {
				return c
			}
		}
		t.Fatalf("no choice for %s", op)
		return Choice{}
	}
	for _, o := range group128 {
		cs, err := selectFor(all, dispatch.Override{{Op: o, Variant: portableName}})
		if err != nil {
			t.Fatalf("GOHAL=%s=portable: %v", o, err)
		}
		for _, other := range group128 {
			c := variantOf(cs, other)
			if c.Variant != portableName {
				t.Errorf("GOHAL=%s=portable: %s runs %q, want portable", o, other, c.Variant)
			}
			if other != o && !strings.Contains(c.Reason, o+" is portable") {
				t.Errorf("GOHAL=%s=portable: %s's reason %q does not say why", o, other, c.Reason)
			}
		}
	}
	// No CPU feature at all: every 128-bit op is portable.
	cs, err := selectFor(&dispatch.Features{GOARCH: all.GOARCH, Flags: map[string]bool{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range group128 {
		if c := variantOf(cs, o); c.Variant != portableName {
			t.Errorf("bare CPU: %s runs %q, want portable", o, c.Variant)
		}
	}
	// Mixed overrides are refused.
	hw := findOp("load128").variants[0].name
	_, err = selectFor(all, parsed(t, "cas128=portable,load128="+hw))
	if err == nil {
		t.Fatalf("GOHAL=cas128=portable,load128=%s accepted", hw)
	}
	for _, want := range []string{"GOHAL", "load128", hw, "cas128 is portable", "share their words"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Force takes the group along, and its restore brings all back.
	if staticBuild {
		return // Force cannot change a static build's variants
	}
	before := Selected()
	restore, err := force("store128", portableName)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range group128 {
		if c := variantOf(Selected(), o); c.Variant != portableName {
			t.Errorf("after force(store128, portable): %s runs %q", o, c.Variant)
		}
	}
	restore()
	for i, c := range Selected() {
		if c != before[i] {
			t.Errorf("after restore: %s runs %q, was %q", c.Op, c.Variant, before[i].Variant)
		}
	}
}

// TestUint128Layout pins the layout the generated Uint128 entries read
// (gen/spec's Uint128KeyOffset): the cell pointer first in the Uint128,
// its key at byte 8 on 64-bit platforms, the value first in the cell, and
// the cell one cache line.
func TestUint128Layout(t *testing.T) {
	var u Uint128
	if got := unsafe.Offsetof(u.c); got != 0 {
		t.Errorf("Uint128.c at offset %d, want 0", got)
	}
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Offsetof(u.key) != 8 {
		t.Errorf("Uint128.key at offset %d, want 8 (spec.Uint128KeyOffset)", unsafe.Offsetof(u.key))
	}
	if got := unsafe.Sizeof(u); got != 16 {
		t.Errorf("Uint128 is %d bytes, want 16", got)
	}
	var c cell128
	if got := unsafe.Offsetof(c.v); got != 0 {
		t.Errorf("cell128.v at offset %d, want 0", got)
	}
	if got := unsafe.Sizeof(c); got != cacheline.Size {
		t.Errorf("cell128 is %d bytes, want %d (one cache line, a size class whose objects are line aligned)", got, cacheline.Size)
	}
	if got := unsafe.Sizeof(stripe{}); got != cacheline.Size {
		t.Errorf("a portable 128-bit lock stripe is %d bytes, want one %d-byte line", got, cacheline.Size)
	}
	// Neighbouring Uint128s get cells on lines of their own.
	us := make([]Uint128, 8)
	for i := range us {
		us[i].Store(uint64(i), 0)
		if a := uintptr(unsafe.Pointer(us[i].c.Load())); a%cacheline.Size != 0 {
			t.Errorf("Uint128 %d's cell at %#x, not aligned to a %d-byte line", i, a, cacheline.Size)
		}
	}
}
