package arm64

import "fmt"

// Instructions the Go 1.26 assembler lacks are emitted as WORD directives.
// The encodings are computed from their fields here (and checked against
// constants disassembled by binutils in enc_test.go) rather than written as
// magic numbers.

// caspal encodes CASPAL Xs, Xs+1, Xt, Xt+1, [Xn]: the 64-bit compare and
// swap pair with acquire (L, bit 22) and release (o0, bit 15) semantics.
// Xs:Xs+1 holds the compare value and receives the value found; Xt:Xt+1
// holds the new value. Both pairs must start at an even register.
//
// Base CASP encoding: 0 sz 0010000 L 1 Rs o0 11111 Rn Rt, sz (bit 30) = 1
// for 64-bit registers.
func caspal(s, t, n int) (uint32, error) {
	if s%2 != 0 || t%2 != 0 || s < 0 || t < 0 || s > 30 || t > 30 || n < 0 || n > 31 {
		return 0, fmt.Errorf("caspal: bad registers s=%d t=%d n=%d", s, t, n)
	}
	const (
		casp = 0x08207c00 // CASP, 32-bit registers, no ordering
		sz   = 1 << 30
		l    = 1 << 22 // acquire
		o0   = 1 << 15 // release
	)
	return casp | sz | l | o0 | uint32(s)<<16 | uint32(n)<<5 | uint32(t), nil
}

// ldapr encodes LDAPR Wt|Xt, [Xn] (FEAT_LRCPC): a load-acquire with RCpc
// semantics. bits is 32 or 64.
//
// Encoding: size 111000 1 0 1 11111 1 100 00 Rn Rt.
func ldapr(bits, t, n int) (uint32, error) {
	if t < 0 || t > 30 || n < 0 || n > 31 {
		return 0, fmt.Errorf("ldapr: bad registers t=%d n=%d", t, n)
	}
	const base = 0x38bfc000 // size = 00 (byte)
	var size uint32
	switch bits {
	case 32:
		size = 2
	case 64:
		size = 3
	default:
		return 0, fmt.Errorf("ldapr: bad width %d", bits)
	}
	return base | size<<30 | uint32(n)<<5 | uint32(t), nil
}
