package mips

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/mipsle"
)

// TestAsm: the 32-bit bodies load pointers with MOVW (no MOVV, which
// MIPS32 lacks), use LL/SC only (no LLD/SCD), and the o32 getcpu number.
func TestAsm(t *testing.T) {
	s := asmtest.Asm(t, New())
	for _, want := range []string{
		"TEXT ·CompareAndSwapUintptrLlsc(SB), NOSPLIT, $0-13\n\tMOVW      addr+0(FP), R1\n\tMOVW      old+4(FP), R2\n\tMOVW      new+8(FP), R5\n\tSYNC\nllsc_loop:\n\tMOVW      R5, R3\n\tLL        (R1), R4\n",
		"LL        (R2), R1\n\tADDU      R1, R3, R4\n\tSC        R4, (R2)\n",
		"\tMOVW      $4312, R2\n\tSYSCALL\n",
		"\tSUBU      $1, R2\n\tWORD      $0x00000140 // pause\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated mips assembly lacks %q", want)
		}
	}
	for _, bad := range []string{"MOVV", "LLV", "SCV", "ADDVU", "SUBVU", "Uint64"} {
		if strings.Contains(s, bad) {
			t.Errorf("generated mips assembly holds %s", bad)
		}
	}
	// mipsle's is the same but for the GOARCH.
	if le := strings.ReplaceAll(asmtest.Asm(t, mipsle.New()), "mipsle", "mips"); le != s {
		t.Error("mipsle's assembly differs from mips's")
	}
}
