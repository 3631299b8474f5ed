package refimpl

import (
	"testing"

	"github.com/gohal/gohal/refcount"
)

// TestSaturatedBits checks that the word the hal counts store when they
// saturate reads back as refcount.SaturatedValue. (The counts' behaviour
// is tested in package refcount, beside Count's.)
func TestSaturatedBits(t *testing.T) {
	if bits := saturatedBits; int32(bits) != refcount.SaturatedValue {
		t.Fatalf("saturatedBits %#x is not SaturatedValue %d", saturatedBits, refcount.SaturatedValue)
	}
	prev := refcount.OnSaturate(func(string) {})
	defer refcount.OnSaturate(prev)
	var c CountHal
	c.Inc() // on zero: saturates
	if c.Load() != refcount.SaturatedValue || !c.Saturated() {
		t.Fatalf("CountHal after Inc on 0: %d", c.Load())
	}
}
