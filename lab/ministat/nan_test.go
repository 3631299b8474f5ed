package ministat

import (
	"math"
	"testing"
)

// NaNs carry x86's sign on every GOARCH; run under qemu-aarch64 and
// qemu-riscv64, whose hardware gives other signs, to see it matter.
func TestSSENaNSign(t *testing.T) {
	inf := math.Inf(1)
	posNaN := math.Float64frombits(0x7ff8000000000000)
	negNaN := math.Float64frombits(0xfff8000000000000)
	for _, c := range []struct {
		name string
		got  float64
		neg  bool
	}{
		{"inf-inf", sse(inf-inf, inf, inf), true},
		{"sqrt(-1)", sse(math.Sqrt(-1), -1), true},
		{"nan+1", sse(posNaN+1, posNaN, 1), false},
		{"1+(-nan)", sse(1+negNaN, 1, negNaN), true},
		{"nan+(-nan), first wins", sse(posNaN+negNaN, posNaN, negNaN), false},
	} {
		if !math.IsNaN(c.got) || math.Signbit(c.got) != c.neg {
			t.Errorf("%s = %v (sign bit %v), want a NaN with sign bit %v", c.name, c.got, math.Signbit(c.got), c.neg)
		}
	}
	if got := sse(2.5, posNaN); got != 2.5 {
		t.Errorf("sse(2.5) = %v", got)
	}
	// A signalling NaN operand comes back quiet.
	if got := math.Float64bits(sse(math.NaN(), math.Float64frombits(0x7ff0000000000001))); got != 0x7ff8000000000001 {
		t.Errorf("signalling NaN returned as %#x", got)
	}
}

// ministat prints the NaN standard deviation of a constant sample whose
// variance rounds negative as "-nan", and so must the table on any GOARCH.
func TestNegativeVarianceIsMinusNaN(t *testing.T) {
	st := Sample{Values: []float64{0.1, 0.1, 0.1}}.Stats()
	if got := cfmtG(st.Stddev, 0, 8); got != "-nan" {
		t.Errorf("Stddev of 0.1×3 prints %q (Var %v), want -nan", got, st.Var)
	}
	inf := Sample{Values: []float64{1, math.Inf(1), 2}}.Stats()
	if got := cfmtG(inf.Var, 0, 8); got != "-nan" {
		t.Errorf("Var with an infinite value prints %q, want -nan", got)
	}
}
