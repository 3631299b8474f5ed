package mips64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/internal/asmtest"
)

func TestAsm(t *testing.T) {
	s := asmtest.Asm(t, New())
	for _, want := range []string{
		"//go:build !purego && !race && !gohal_static\n",
		"//go:build !purego\n",
		// The entry of a two-variant op: the flag byte, one branch.
		"TEXT ·Pause(SB), NOSPLIT, $0-0\n\tMOVBU     ·selPause(SB), R1\n\tBNE       R1, nop\n",
		"\tWORD      $0x00000140 // pause\n\tRET\n",
		// CAS: SYNC, new copied before each try (SC overwrites it), the
		// loop, SYNC after the store and on the failed compare.
		"\tSYNC\nllsc_loop:\n\tMOVV      R5, R3\n\tLLV       (R1), R4\n\tBNE       R2, R4, llsc_fail\n\tSCV       R3, (R1)\n\tBEQ       R3, llsc_loop\n\tSYNC\n\tMOVV      $1, R3\n\tMOVB      R3, swapped+24(FP)\n\tRET\nllsc_fail:\n\tSYNC\n\tMOVB      R0, swapped+24(FP)\n\tRET\n",
		// 32-bit arguments sign-extend, as LL does.
		"MOVW      old+8(FP), R2\n\tMOVW      new+12(FP), R5\n\tSYNC\nllsc_loop:\n\tMOVV      R5, R3\n\tLL        (R1), R4\n",
		// fetch-op and swap: old value kept in R1.
		"\tSYNC\nllsc_loop:\n\tLLV       (R2), R1\n\tADDVU     R1, R3, R4\n\tSCV       R4, (R2)\n\tBEQ       R4, llsc_loop\n\tSYNC\n\tMOVV      R1, old+16(FP)\n",
		"LL        (R2), R1\n\tADDU      R1, R3, R4\n\tSC        R4, (R2)\n",
		"LL        (R2), R1\n\tOR        R1, R3, R4\n\tSC        R4, (R2)\n",
		"LLV       (R2), R1\n\tAND       R1, R3, R4\n\tSCV       R4, (R2)\n",
		"LLV       (R2), R1\n\tMOVV      R3, R4\n\tSCV       R4, (R2)\n",
		// acquire load, release store, fence.
		"MOVW      0(R1), R2\n\tSYNC\n\tMOVW      R2, ret+8(FP)\n",
		"\tSYNC\n\tMOVV      R2, 0(R1)\n\tRET\n",
		"TEXT ·Fence(SB), NOSPLIT, $0-0\n\tSYNC\n\tRET\n",
		// spinlock32: unsigned budget, test, PAUSE while held, the CAS.
		"MOVWU     spins+8(FP), R2",
		"llsc_loop:\n\tMOVW      0(R1), R4\n\tBNE       R4, llsc_held\n\tSYNC\nllsc_try:\n\tMOVV      $1, R3\n\tLL        (R1), R4\n\tBNE       R4, llsc_held\n\tSC        R3, (R1)\n\tBEQ       R3, llsc_try\n\tSYNC\n",
		"llsc_held:\n\tBEQ       R2, llsc_fail\n\tSUBVU     $1, R2\n\tWORD      $0x00000140 // pause\n\tJMP       llsc_loop\n",
		// getcpu.
		"\tMOVV      $ret+0(FP), R4\n\tMOVV      R0, R5\n\tMOVV      R0, R6\n\tMOVV      $5271, R2\n\tSYSCALL\n\tBNE       R7, syscall_bad\n\tMOVV      $ret+0(FP), R4\n\tMOVWU     0(R4), R2\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated mips64 assembly lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "CALL", f[0] == "JAL":
			t.Errorf("entry calls a function: %q", line)
		case f[0] == "JMP" && strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("mips64", line):
			t.Errorf("entry jumps to another function: %q", line)
		case f[0] == "NOREORDER":
			t.Errorf("a body fills its own delay slots: %q", line)
		}
	}
}

func TestSelect(t *testing.T) {
	e := New()
	e.Select("selX", []string{"a", "b", "c"})
	got := e.Pending()
	want := "\tMOVBU     ·selX(SB), R1\n\tMOVV      $1, R2\n\tBEQ       R1, R2, a\n\tMOVV      $2, R2\n\tBEQ       R1, R2, b\n\tMOVV      $3, R2\n\tBEQ       R1, R2, c\n"
	if got != want {
		t.Errorf("Select = %q, want %q", got, want)
	}
	if _, err := e.Finish(backend.Header, nil); err != nil {
		t.Fatal(err)
	}
}

func TestPauseEncoding(t *testing.T) {
	// sll $0,$0,5: binutils' constant (mips64el-linux-gnuabi64-as
	// -march=mips64r2 assembles pause to 0x00000140).
	if w, asm := pause(); w != 0x00000140 || asm != "pause" {
		t.Errorf("pause() = %#08x %q", w, asm)
	}
}
