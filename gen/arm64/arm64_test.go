package arm64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
)

func TestAsm(t *testing.T) {
	files, err := backend.Generate(New())
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["asm_arm64.s"]) + string(files["direct/zdirect_arm64.s"]) + string(files["../lab/probe/zprobe_arm64.s"])
	if !strings.HasPrefix(strings.SplitN(string(files["asm_arm64.s"]), "\n\n", 3)[1], "//go:build !purego && !race && !gohal_static") {
		t.Errorf("asm_arm64.s: build constraint is not !purego && !race && !gohal_static")
	}
	if !strings.Contains(string(files["direct/zdirect_arm64.s"]), "//go:build !purego\n") {
		t.Errorf("direct/zdirect_arm64.s: build constraint is not !purego")
	}
	for _, want := range []string{
		"TEXT ·fetchadd64Flag(SB), NOSPLIT, $0-24\n\tMOVBU     ·selFetchadd64(SB), R9\n\tCBNZ      R9, llsc\n",
		"LDADDALD  R1, (R0), R2\n",
		"WORD      $0x4860fca2 // CASPAL X0, X1, X2, X3, [X5]\n",
		"WORD      $0xf8bfc001 // LDAPR X1, [X0]\n",
		"TEXT ·CompareAndSwap128Llsc(SB), NOSPLIT, $0-57\n",
		"TEXT ·CyclesFlagged(SB), NOSPLIT, $0-8\n\tMOVBU     ·selCycles(SB), R9\n\tCBNZ      R9, flagged\n",
		// The LL/SC loops use the acquire/release exclusives.
		"LDAXR     (R0), R2\n\tADD       R1, R2, R3\n\tSTLXR     R3, (R0), R4\n",
		"STLXP     (R0, R1), (R5), R8\n",
		"ISB       $15\n\tMRS       CNTVCT_EL0, R0\n",
		// spinlock32: plain test, ISB while held, an ordered CAS when free.
		"lse_held:\n\tCBZW      R1, lse_fail\n\tSUBW      $1, R1\n\tISB       $15\n\tB         lse_loop\n",
		"CASALW    R3, (R0), R2\n\tCBNZW     R3, lse_held\n",
		"llsc_try:\n\tLDAXRW    (R0), R3\n\tCBNZW     R3, llsc_held\n\tSTLXRW    R2, (R0), R4\n\tCBNZW     R4, llsc_try\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_arm64.s lacks %q", want)
		}
	}
	// The relaxed CASP and the unordered exclusives must not appear.
	for _, bad := range []string{"CASPD", "CASPW", "LDXR", "STXR", "LDXP", "STXP"} {
		for _, line := range strings.Split(s, "\n") {
			f := strings.Fields(line)
			if len(f) > 0 && f[0] == bad {
				t.Errorf("unordered instruction %s: %q", bad, line)
			}
		}
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBU     ·selX(SB), R9\n\tCMP       $1, R9\n\tBEQ       b\n\tCMP       $2, R9\n\tBEQ       c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}
