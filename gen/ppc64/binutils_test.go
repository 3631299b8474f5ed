package ppc64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// These tests disassemble package hal's test binaries for ppc64 and
// ppc64le with Debian's binutils-powerpc64-linux-gnu and
// binutils-powerpc64le-linux-gnu, and skip when either is not installed.
// gen/ppc64le's own tests check what each instruction of its bodies must
// be (TestGoToolchainEncodings) and every WORD against binutils.

var (
	bigEndian    = asmtest.Binutils("powerpc64-linux-gnu")
	littleEndian = asmtest.Binutils("powerpc64le-linux-gnu")
	number       = regexp.MustCompile(`-?[0-9]+`)
)

// normalize drops what differs between two binaries' layouts and not
// between the instructions: branch targets, and the immediates of a lis and
// of the load that follows it (a package variable's address, the flag
// byte of an entry).
func normalize(insns []string) []string {
	out := make([]string, len(insns))
	afterLis := false
	for i, in := range insns {
		mn, ops, _ := strings.Cut(in, " ")
		switch {
		case strings.HasPrefix(mn, "b"):
			out[i] = mn
		case mn == "lis" || mn == "addis" || afterLis:
			out[i] = mn + " " + number.ReplaceAllString(ops, "N")
		default:
			out[i] = in
		}
		afterLis = mn == "lis" || mn == "addis"
	}
	return out
}

// TestSameInstructionsBothByteOrders builds hal's tests for ppc64 and
// ppc64le and checks that every assembly function the spec implies holds
// the same instructions in both binaries, as objdump decodes them for each
// byte order: one set of bodies serves both, and none of them depends on
// the byte order (the quadword pairs, which do, are not in the spec yet;
// gen/ppc64le's TestQuadBigEndian checks their mapping).
func TestSameInstructionsBothByteOrders(t *testing.T) {
	bigEndian.Need(t, "objdump")
	littleEndian.Need(t, "objdump")
	be := asmtest.NewFuncs("ppc64", bigEndian.Disassemble(t, asmtest.HalTestBinary(t, "ppc64"), asmtest.FirstField))
	le := asmtest.NewFuncs("ppc64le", littleEndian.Disassemble(t, asmtest.HalTestBinary(t, "ppc64le"), asmtest.FirstField))
	checked := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		var names []string
		for _, v := range op.AsmVariants("ppc64") {
			names = append(names, op.Symbol(v.Name))
		}
		if !op.GoEntry("ppc64") {
			names = append(names, op.GoName)
		}
		for _, name := range names {
			b, l := normalize(be.Get(t, name)), normalize(le.Get(t, name))
			if len(b) == 0 {
				t.Errorf("%s: no instructions in the ppc64 binary", name)
				continue
			}
			if strings.Join(b, "; ") != strings.Join(l, "; ") {
				t.Errorf("%s differs:\nppc64:   %s\nppc64le: %s", name, strings.Join(b, "; "), strings.Join(l, "; "))
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("compared only %d functions", checked)
	}
	t.Logf("compared %d functions; ppc64 CPU: %s", checked, strings.Join(be.Get(t, "CPU"), "; "))
}
