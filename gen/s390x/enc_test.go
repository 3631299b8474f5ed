package s390x

import (
	"bytes"
	"testing"
)

// The expected bytes were produced by s390x-linux-gnu-as (binutils 2.40)
// from the GNU syntax in the case, and s390x-linux-gnu-objdump -d prints
// them back as that syntax (BCR 15,0 and 14,0 as "br %r0" and "bnor %r0").
// The formats are also checked against instructions the Go assembler
// encodes itself (cmd/asm/internal/asm/testdata/s390x.s): LAAG, an RSY-a
// instruction like CDSG; LG (Go's MOVD from memory), an RXY-a one like LPQ
// and STPQ; and SYNC, BCR 14,0.
func TestEncodings(t *testing.T) {
	type enc func() ([]byte, string, error)
	cdsgE := func(r1, r3 string, d int, b string) enc {
		return func() ([]byte, string, error) { return cdsg(r1, r3, d, b) }
	}
	lpqE := func(r1 string, d int, b string) enc { return func() ([]byte, string, error) { return lpq(r1, d, b) } }
	stpqE := func(r1 string, d int, b string) enc { return func() ([]byte, string, error) { return stpq(r1, d, b) } }
	bcrE := func(m, r uint32) enc { return func() ([]byte, string, error) { return bcr(m, r) } }
	for _, c := range []struct {
		want []byte
		asm  string
		f    enc
	}{
		{[]byte{0xeb, 0x24, 0x60, 0x00, 0x00, 0x3e}, "cdsg %r2,%r4,0(%r6)", cdsgE("R2", "R4", 0, "R6")},
		{[]byte{0xeb, 0x82, 0x9f, 0xf8, 0xff, 0x3e}, "cdsg %r8,%r2,-8(%r9)", cdsgE("R8", "R2", -8, "R9")},
		{[]byte{0xeb, 0x46, 0x1f, 0xff, 0x7f, 0x3e}, "cdsg %r4,%r6,524287(%r1)", cdsgE("R4", "R6", 524287, "R1")},
		{[]byte{0xe3, 0x20, 0x60, 0x00, 0x00, 0x8f}, "lpq %r2,0(%r6)", lpqE("R2", 0, "R6")},
		{[]byte{0xe3, 0x80, 0x10, 0x00, 0x01, 0x8f}, "lpq %r8,4096(%r1)", lpqE("R8", 4096, "R1")},
		{[]byte{0xe3, 0x20, 0x60, 0x00, 0x00, 0x8e}, "stpq %r2,0(%r6)", stpqE("R2", 0, "R6")},
		{[]byte{0xe3, 0x40, 0x30, 0x00, 0x80, 0x8e}, "stpq %r4,-524288(%r3)", stpqE("R4", -524288, "R3")},
		{[]byte{0x07, 0xf0}, "bcr 15,0", bcrE(15, 0)},
		// Go's SYNC (testdata: 07e0).
		{[]byte{0x07, 0xe0}, "bcr 14,0", bcrE(14, 0)},
	} {
		got, asm, err := c.f()
		if err != nil || !bytes.Equal(got, c.want) || asm != c.asm {
			t.Errorf("%s: got % x %q, %v; want % x", c.asm, got, asm, err, c.want)
		}
	}
	// The Go assembler's LAAG R4, R5, -524288(R6) (testdata:
	// eb54600080e8): R1 = 5 receives the old value, R3 = 4 is added.
	if got, err := rsy(0xebe8, 5, 4, 6, -524288); err != nil || !bytes.Equal(got, []byte{0xeb, 0x54, 0x60, 0x00, 0x80, 0xe8}) {
		t.Errorf("rsy as LAAG: % x, %v", got, err)
	}
	// The Go assembler's MOVD (R15), R1, which is LG %r1,0(%r15)
	// (testdata: e310f0000004).
	if got, err := rxy(0xe304, 1, 0, 15, 0); err != nil || !bytes.Equal(got, []byte{0xe3, 0x10, 0xf0, 0x00, 0x00, 0x04}) {
		t.Errorf("rxy as LG: % x, %v", got, err)
	}
}

func TestEncodingErrors(t *testing.T) {
	for name, err := range map[string]error{
		"cdsg odd r1":        third(cdsg("R3", "R4", 0, "R6")),
		"cdsg odd r3":        third(cdsg("R2", "R5", 0, "R6")),
		"cdsg R0 pair":       third(cdsg("R0", "R4", 0, "R6")),
		"cdsg R0 base":       third(cdsg("R2", "R4", 0, "R0")),
		"cdsg reserved base": third(cdsg("R2", "R4", 0, "R15")),
		"cdsg disp high":     third(cdsg("R2", "R4", 1<<19, "R6")),
		"cdsg disp low":      third(cdsg("R2", "R4", -(1<<19)-1, "R6")),
		"lpq odd":            third(lpq("R7", 0, "R6")),
		"lpq reserved":       third(lpq("R10", 0, "R6")),
		"stpq R0 base":       third(stpq("R2", 0, "R0")),
		"bcr mask":           third(bcr(16, 0)),
		"bcr reg":            third(bcr(15, 16)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDirectives(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte{0xeb, 0x24, 0x60, 0x00, 0x00, 0x3e}, "WORD $0xeb246000; BYTE $0x00; BYTE $0x3e"},
		{[]byte{0x07, 0xf0}, "BYTE $0x07; BYTE $0xf0"},
		{[]byte{0xb2, 0x7c, 0xf0, 0x08}, "WORD $0xb27cf008"},
	} {
		if got := directives(c.in); got != c.want {
			t.Errorf("directives(% x) = %q, want %q", c.in, got, c.want)
		}
	}
}

func third(_ []byte, _ string, err error) error { return err }
