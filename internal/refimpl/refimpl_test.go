package refimpl

import "testing"

// TestSaturatedBits checks that the word the hal counts store when they
// saturate reads back as SaturatedValue. (The counts' behaviour is tested
// in package refcount, beside Count's.)
func TestSaturatedBits(t *testing.T) {
	if bits := saturatedBits; int32(bits) != SaturatedValue {
		t.Fatalf("saturatedBits %#x is not SaturatedValue %d", saturatedBits, SaturatedValue)
	}
	prev := SetHook(func(string) {})
	defer SetHook(prev)
	var c CountHal
	c.Inc() // on zero: saturates
	if c.Load() != SaturatedValue || !c.Saturated() {
		t.Fatalf("CountHal after Inc on 0: %d", c.Load())
	}
}
