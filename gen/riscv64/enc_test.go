package riscv64

import "testing"

// The expected words were produced by riscv64-linux-gnu-as (binutils 2.40,
// -march=rv64g_zihintpause) from the GNU syntax in the name, and
// riscv64-linux-gnu-objdump -d prints them back as that syntax. The Go
// assembler's own encodings of LRD (LR.D.aq) and FENCE (FENCE IORW,IORW)
// from its testdata (cmd/asm/internal/asm/testdata/riscv64.s) are checked
// too, so that the fields agree with the Go toolchain's.
func TestEncodings(t *testing.T) {
	type enc func() (uint32, string, error)
	lrE := func(bits int, aq, rl bool, rd, rs1 string) enc {
		return func() (uint32, string, error) { return lr(bits, aq, rl, rd, rs1) }
	}
	fenceE := func(p, s string) enc { return func() (uint32, string, error) { return fence(p, s) } }
	for _, c := range []struct {
		want uint32
		asm  string
		f    enc
	}{
		{0x160526af, "lr.w.aqrl a3, (a0)", lrE(32, true, true, "A3", "A0")},
		{0x160536af, "lr.d.aqrl a3, (a0)", lrE(64, true, true, "A3", "A0")},
		{0x1605362f, "lr.d.aqrl a2, (a0)", lrE(64, true, true, "A2", "A0")},
		{0x1605262f, "lr.w.aqrl a2, (a0)", lrE(32, true, true, "A2", "A0")},
		{0x140526af, "lr.w.aq a3, (a0)", lrE(32, true, false, "A3", "A0")},
		{0x100536af, "lr.d a3, (a0)", lrE(64, false, false, "A3", "A0")},
		// Go's "LRD (X5), X6" (testdata: 2fb30214, little-endian).
		{0x1402b32f, "lr.d.aq t1, (t0)", lrE(64, true, false, "T1", "T0")},
		{0x0330000f, "fence rw, rw", fenceE("rw", "rw")},
		{0x0230000f, "fence r, rw", fenceE("r", "rw")},
		{0x0310000f, "fence rw, w", fenceE("rw", "w")},
		// Go's FENCE (testdata: 0f00f00f).
		{0x0ff0000f, "fence iorw, iorw", fenceE("iorw", "iorw")},
		{0x0100000f, "pause", func() (uint32, string, error) { w, s := pause(); return w, s, nil }},
	} {
		got, asm, err := c.f()
		if err != nil || got != c.want || asm != c.asm {
			t.Errorf("%s: got %#08x %q, %v; want %#08x", c.asm, got, asm, err, c.want)
		}
	}
}

func TestEncodingErrors(t *testing.T) {
	for name, err := range map[string]error{
		"lr 16-bit":          second(lr(16, true, true, "A3", "A0")),
		"lr unknown reg":     second(lr(64, true, true, "X31", "A0")),
		"lr into zero":       second(lr(64, true, true, "ZERO", "A0")),
		"fence empty pred":   second(fence("", "rw")),
		"fence empty succ":   second(fence("rw", "")),
		"fence out of order": second(fence("wr", "rw")),
		"fence repeated":     second(fence("rr", "rw")),
		"fence unknown":      second(fence("rx", "rw")),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func second(_ uint32, _ string, err error) error { return err }
