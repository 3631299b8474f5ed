package ppc64le

import "testing"

// The expected words were produced by powerpc64le-linux-gnu-as (binutils
// 2.40, -mpower8 -mregnames) from the GNU syntax in the name, and
// powerpc64le-linux-gnu-objdump -d prints them back as that syntax (the
// instruction words are the same on big-endian ppc64, only stored in the
// other byte order).
func TestEncodings(t *testing.T) {
	type enc func() (uint32, string, error)
	lqE := func(rtp, ra, dq int) enc { return func() (uint32, string, error) { return lq(rtp, ra, dq) } }
	stqE := func(rsp, ra, ds int) enc { return func() (uint32, string, error) { return stq(rsp, ra, ds) } }
	lqarxE := func(rtp, rb int, eh bool) enc {
		return func() (uint32, string, error) { return lqarx(rtp, rb, eh) }
	}
	stqcxE := func(rsp, rb int) enc { return func() (uint32, string, error) { return stqcx(rsp, rb) } }
	for _, c := range []struct {
		want uint32
		asm  string
		f    enc
	}{
		{0xe0830000, "lq r4, 0(r3)", lqE(4, 3, 0)},
		{0xe0c30010, "lq r6, 16(r3)", lqE(6, 3, 16)},
		{0xe105fff0, "lq r8, -16(r5)", lqE(8, 5, -16)},
		{0xe39f7ff0, "lq r28, 32752(r31)", lqE(28, 31, 32752)},
		{0xe0838000, "lq r4, -32768(r3)", lqE(4, 3, -32768)},
		{0xf8830002, "stq r4, 0(r3)", stqE(4, 3, 0)},
		{0xf8c3000a, "stq r6, 8(r3)", stqE(6, 3, 8)},
		{0xf905fffe, "stq r8, -4(r5)", stqE(8, 5, -4)},
		{0xf8837ffe, "stq r4, 32764(r3)", stqE(4, 3, 32764)},
		{0x7cc01a28, "lqarx r6, 0, r3", lqarxE(6, 3, false)},
		{0x7c801a29, "lqarx r4, 0, r3, 1", lqarxE(4, 3, true)},
		{0x7d005228, "lqarx r8, 0, r10", lqarxE(8, 10, false)},
		{0x7d00196d, "stqcx. r8, 0, r3", stqcxE(8, 3)},
		{0x7c80516d, "stqcx. r4, 0, r10", stqcxE(4, 10)},
	} {
		got, asm, err := c.f()
		if err != nil || got != c.want || asm != c.asm {
			t.Errorf("%s: got %#08x %q, %v; want %#08x", c.asm, got, asm, err, c.want)
		}
	}
}

// TestEncodingErrors: the forms Power ISA makes invalid (an odd register
// pair, a base register inside the pair) and displacements the fields
// cannot hold are refused, not encoded.
func TestEncodingErrors(t *testing.T) {
	for name, err := range map[string]error{
		"lq odd pair":            second(lq(5, 3, 0)),
		"lq pair past r31":       second(lq(32, 3, 0)),
		"lq base is even reg":    second(lq(4, 4, 0)),
		"lq base is odd reg":     second(lq(4, 5, 0)),
		"lq base r0":             second(lq(4, 0, 0)),
		"lq unaligned disp":      second(lq(4, 3, 8)),
		"lq disp too large":      second(lq(4, 3, 32768)),
		"lq disp too small":      second(lq(4, 3, -32784)),
		"stq odd pair":           second(stq(7, 3, 0)),
		"stq base in pair":       second(stq(4, 5, 0)),
		"stq base r0":            second(stq(4, 0, 0)),
		"stq unaligned disp":     second(stq(4, 3, 2)),
		"stq disp too large":     second(stq(4, 3, 32768)),
		"lqarx odd pair":         second(lqarx(7, 3, false)),
		"lqarx address r0":       second(lqarx(4, 0, false)),
		"lqarx address in pair":  second(lqarx(6, 7, false)),
		"stqcx. odd pair":        second(stqcx(9, 3)),
		"stqcx. address r0":      second(stqcx(8, 0)),
		"stqcx. address in pair": second(stqcx(8, 8)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// The highest pair, r30:r31, is a valid form.
	if err := second(lq(30, 3, 0)); err != nil {
		t.Errorf("lq r30, 0(r3): %v", err)
	}
}

func second(_ uint32, _ string, err error) error { return err }
