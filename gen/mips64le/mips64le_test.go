package mips64le

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/mips64"
)

// TestSameAsBigEndian: the generated assembly for mips64le is mips64's,
// GOARCH names aside: no body depends on the byte order.
func TestSameAsBigEndian(t *testing.T) {
	b := New()
	if b.Arch() != "mips64le" {
		t.Fatalf("Arch() = %q, want mips64le", b.Arch())
	}
	le := strings.ReplaceAll(asmtest.Asm(t, b), "mips64le", "mips64")
	be := asmtest.Asm(t, mips64.New())
	if le != be {
		t.Errorf("mips64le's assembly differs from mips64's:\n%s\n----\n%s", le, be)
	}
}
