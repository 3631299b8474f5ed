package i386

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
		// A 64-bit CAS: alignment check, go vet's halves, LOCK CMPXCHG8B.
		"TEXT ·CompareAndSwapUint64(SB), NOSPLIT, $0-21\n\tMOVL      addr+0(FP), BP\n\tTESTL     $7, BP\n\tJNE       lock_misaligned\n" +
			"\tMOVL      old_lo+4(FP), AX\n\tMOVL      old_hi+8(FP), DX\n\tMOVL      new_lo+12(FP), BX\n\tMOVL      new_hi+16(FP), CX\n" +
			"\tLOCK\n\tCMPXCHG8B 0(BP)\n\tSETEQ     swapped+20(FP)\n\tRET\nlock_misaligned:\n\tJMP       ·misaligned64(SB)\n",
		// The 64-bit fetch-add: a CMPXCHG8B loop with the carry.
		"lock_loop:\n\tMOVL      AX, BX\n\tMOVL      DX, CX\n\tADDL      delta_lo+4(FP), BX\n\tADCL      delta_hi+8(FP), CX\n\tLOCK\n\tCMPXCHG8B 0(BP)\n\tJNE       lock_loop\n\tMOVL      AX, old_lo+12(FP)\n\tMOVL      DX, old_hi+16(FP)\n",
		// 64-bit load: XMM first, MMX with EMMS after.
		"\tMOVBLZX   ·selLoadacquire64(SB), AX\n\tTESTB     AL, AL\n\tJNE       mmx\n",
		"\tMOVQ      0(BP), X0\n\tMOVQ      X0, ret+4(FP)\n\tRET\n",
		"\tMOVQ      0(BP), M0\n\tMOVQ      M0, ret+4(FP)\n\tEMMS\n\tRET\n",
		"\tLOCK\n\tCMPXCHGL  CX, 0(BX)\n\tSETEQ     swapped+12(FP)\n",
		"\tLOCK\n\tXADDL     AX, 0(BX)\n",
		"\tXCHGL     AX, 0(BX)\n",
		"\tLOCK\n\tORL       $0, 0(SP)\n",
		"\tLFENCE\n\tRDTSC\n\tMOVL      AX, ret_lo+0(FP)\n\tMOVL      DX, ret_hi+4(FP)\n",
		"\tMOVL      $318, AX\n\tINT       $0x80\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_386.s lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "CALL":
			t.Errorf("entries must not call another function: %q", line)
		case "JMP":
			if strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("386", line) && !strings.Contains(line, "·misaligned64(SB)") {
				t.Errorf("entries must not jump to another function: %q", line)
			}
		case "CMPXCHGL", "CMPXCHG8B", "XADDL", "ORL":
			// Every read-modify-write of memory is locked (the line
			// before is LOCK); ORL $0, 0(SP) is the fence's.
		case "WORD", "BYTE":
			t.Errorf("the Go assembler has every instruction 386 needs: %q", line)
		}
	}
	// Each CMPXCHG and XADD follows a LOCK.
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "CMPXCHGL" || f[0] == "CMPXCHG8B" || f[0] == "XADDL") && (i == 0 || strings.TrimSpace(lines[i-1]) != "LOCK") {
			t.Errorf("%q without LOCK", line)
		}
	}
	if strings.Contains(s, "cas128") {
		t.Error("asm_386.s has cas128 code; its only variant is hal's Go one")
	}
}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("386")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_386.go"])
	for _, want := range []string{
		`{name: "sse2", requires: []string{"sse2"}, fn: direct.LoadAcquireUint64Sse2},`,
		`{name: "mmx", fn: direct.LoadAcquireUint64Mmx},`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's 386 Go files lack %q", want)
		}
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBLZX   ·selX(SB), AX\n\tCMPB      AL, $1\n\tJEQ       b\n\tCMPB      AL, $2\n\tJEQ       c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}
