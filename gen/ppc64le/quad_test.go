package ppc64le

import (
	"sort"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// renderQuad writes the quadword bodies (quad.go) as the driver would
// write hal/direct's TEXTs of the variants, each with a Uint128 entry
// after it, for a little- or big-endian backend.
func renderQuad(t *testing.T, bigEndian bool) string {
	t.Helper()
	e := New()
	e.bigEndian = bigEndian
	keys := quadBodies.Implements()
	for _, k := range keys {
		name, variant, _ := strings.Cut(k, "/")
		op := spec.Find(name)
		if op == nil {
			t.Fatalf("quadBodies: no op %q", name)
		}
		e.Text(op.DirectName(variant), op, nil)
		if err := quadBodies[k](e, variant+"_"); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		e.Text(op.UEntry(), op, nil)
		if err := e.ResolveUint128(op.GoName, op.Moved()); err != nil {
			t.Fatalf("%s: ResolveUint128: %v", k, err)
		}
	}
	out, err := e.Finish(backend.Header, backend.DirectTags)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestQuadOps: quadBodies holds one variant of each 128-bit op and
// nothing else, and none of them is in bodies (the spec lists only hal's
// Go variant for them on ppc64le).
func TestQuadOps(t *testing.T) {
	var got, want []string
	for _, k := range quadBodies.Implements() {
		name, _, _ := strings.Cut(k, "/")
		got = append(got, name)
		if _, ok := bodies[k]; ok {
			t.Errorf("%s is in bodies too", k)
		}
	}
	for i := range spec.Ops {
		if op := &spec.Ops[i]; op.Uint128 {
			want = append(want, op.Name)
			if vs := op.AsmVariants("ppc64le"); len(vs) != 0 {
				t.Errorf("%s has assembly variants %v on ppc64le; quad.go's comment says it has none", op.Name, vs)
			}
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("quadBodies covers %v, the 128-bit ops are %v", got, want)
	}
}

func TestQuadLittleEndian(t *testing.T) {
	s := renderQuad(t, false)
	for _, want := range []string{
		// load128: SYNC, LQ, the acquire idiom; the odd register
		// holds the doubleword at EA, lo.
		"TEXT ·Load128Lq(SB), NOSPLIT, $0-24\n\tMOVD      addr+0(FP), R3\n\tANDCC     $15, R3, R10\n\tBNE       lq_misaligned\n\tSYNC\n\tWORD      $0xe0830000 // lq r4, 0(r3)\n\tCMP       R4, R4\n\tBNE       lq_acq\nlq_acq:\n\tISYNC\n\tMOVD      R5, lo+8(FP)\n\tMOVD      R4, hi+16(FP)\n\tRET\nlq_misaligned:\n\tJMP       ·misaligned128(SB)\n",
		// store128: lo into the odd register, then SYNC, STQ.
		"\tMOVD      lo+8(FP), R5\n\tMOVD      hi+16(FP), R4\n\tSYNC\n\tWORD      $0xf8830002 // stq r4, 0(r3)\n\tRET\n",
		// cas128: new pair R8:R9 (lo in R9), LQARX into R6:R7 (lo in
		// R7), both halves compared, STQCX., SYNC or ISYNC.
		"\tMOVD      oldLo+8(FP), R4\n\tMOVD      oldHi+16(FP), R5\n\tMOVD      newLo+24(FP), R9\n\tMOVD      newHi+32(FP), R8\n\tLWSYNC\nlqarx_loop:\n\tWORD      $0x7cc01a28 // lqarx r6, 0, r3\n\tCMP       R7, R4\n\tBNE       lqarx_fail\n\tCMP       R6, R5\n\tBNE       lqarx_fail\n\tWORD      $0x7d00196d // stqcx. r8, 0, r3\n\tBNE       lqarx_loop\n\tSYNC\n\tMOVD      R7, lo+40(FP)\n\tMOVD      R6, hi+48(FP)\n",
		"lqarx_fail:\n\tISYNC\n\tMOVD      R7, lo+40(FP)\n\tMOVD      R6, hi+48(FP)\n\tMOVB      R0, swapped+56(FP)\n\tRET\n",
		// The Uint128 entry: pointer XOR key against addr.
		"TEXT ·load128U(SB), NOSPLIT, $0-24\n\tMOVD      addr+0(FP), R3\n\tMOVD      0(R3), R4\n\tMOVD      8(R3), R5\n\tXOR       R4, R5, R5\n\tCMP       R3, R5\n\tBNE       moved\n\tMOVD      R4, addr+0(FP)\n\tJMP       ·load128(SB)\nmoved:\n\tJMP       ·load128_moved(SB)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("quadword bodies lack %q", want)
		}
	}
}

// TestQuadBigEndian: on big-endian ppc64 the even register holds the
// doubleword at EA, lo.
func TestQuadBigEndian(t *testing.T) {
	s := renderQuad(t, true)
	for _, want := range []string{
		"\tMOVD      R4, lo+8(FP)\n\tMOVD      R5, hi+16(FP)\n",
		"\tMOVD      lo+8(FP), R4\n\tMOVD      hi+16(FP), R5\n\tSYNC\n",
		"\tCMP       R6, R4\n\tBNE       lqarx_fail\n\tCMP       R7, R5\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("big-endian quadword bodies lack %q", want)
		}
	}
}

// TestQuadFenceFirst checks what ResolveUint128's comment relies on: in
// every quadword body the first access to the word (a WORD: lq, stq or
// lqarx) comes right after SYNC or LWSYNC (and a label), so the Uint128
// entry's plain loads of the cell pointer are ordered before it.
func TestQuadFenceFirst(t *testing.T) {
	var prev []string
	first, n := false, 0
	for _, l := range instructions(renderQuad(t, false)) {
		if strings.HasPrefix(l, "MOVD addr+0(FP), R3") {
			first = true // a new body
		}
		if strings.HasPrefix(l, "WORD ") && first {
			first = false
			n++
			j := len(prev) - 1
			for j >= 0 && strings.HasSuffix(prev[j], ":") {
				j--
			}
			if j < 0 || (prev[j] != "SYNC" && prev[j] != "LWSYNC") {
				t.Errorf("%q: the body's first access to the word is not right after SYNC or LWSYNC", l)
			}
		}
		prev = append(prev, l)
	}
	if n != len(quadBodies) {
		t.Errorf("checked %d bodies, want %d", n, len(quadBodies))
	}
}
