package ppc64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/ppc64le"
)

// TestSameAsLittleEndian: the generated assembly for ppc64 is ppc64le's,
// GOARCH names aside: the byte order changes no body in the spec.
func TestSameAsLittleEndian(t *testing.T) {
	b := New()
	if b.Arch() != "ppc64" {
		t.Fatalf("Arch() = %q, want ppc64", b.Arch())
	}
	be := asmtest.Asm(t, b)
	le := strings.ReplaceAll(asmtest.Asm(t, ppc64le.New()), "ppc64le", "ppc64")
	if be != le {
		bl, ll := strings.Split(be, "\n"), strings.Split(le, "\n")
		for i := 0; i < len(bl) && i < len(ll); i++ {
			if bl[i] != ll[i] {
				t.Fatalf("line %d: ppc64 %q, ppc64le %q", i+1, bl[i], ll[i])
			}
		}
		t.Fatalf("ppc64 has %d lines, ppc64le %d", len(bl), len(ll))
	}
}
