package arm64

import "testing"

// The expected words were checked with aarch64-linux-gnu-objdump -d on a
// test binary (binutils prints the mnemonics the comments show).
func TestEncodings(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func() (uint32, error)
		want uint32
	}{
		{"CASPAL X0, X1, X2, X3, [X5]", func() (uint32, error) { return caspal(0, 2, 5) }, 0x4860fca2},
		{"CASPAL X4, X5, X6, X7, [X1]", func() (uint32, error) { return caspal(4, 6, 1) }, 0x4864fc26},
		{"LDAPR X1, [X0]", func() (uint32, error) { return ldapr(64, 1, 0) }, 0xf8bfc001},
		{"LDAPR W1, [X0]", func() (uint32, error) { return ldapr(32, 1, 0) }, 0xb8bfc001},
		{"LDAPR X3, [X2]", func() (uint32, error) { return ldapr(64, 3, 2) }, 0xf8bfc043},
	} {
		got, err := c.f()
		if err != nil || got != c.want {
			t.Errorf("%s = %#08x, %v; want %#08x", c.name, got, err, c.want)
		}
	}
}

func TestEncodingErrors(t *testing.T) {
	if _, err := caspal(1, 2, 5); err == nil {
		t.Error("caspal accepted an odd compare pair")
	}
	if _, err := caspal(0, 3, 5); err == nil {
		t.Error("caspal accepted an odd new-value pair")
	}
	if _, err := ldapr(16, 1, 0); err == nil {
		t.Error("ldapr accepted a 16-bit width")
	}
}
