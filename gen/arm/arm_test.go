package arm

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
		// A 64-bit entry: flag, alignment check, the halves of its
		// uint64 arguments (go vet's names), the LDREXD/STREXD loop
		// between two barriers, the result's halves.
		"TEXT ·FetchAddUint64(SB), NOSPLIT, $0-20\n\tMOVBU     ·selFetchadd64(SB), R0\n\tCMP       $1, R0\n\tBEQ       mcr\n\tCMP       $2, R0\n\tBEQ       portable\n",
		"\tMOVW      addr+0(FP), R1\n\tAND.S     $7, R1, R0\n\tBNE       dmb_misaligned\n\tMOVW      delta_lo+4(FP), R2\n\tMOVW      delta_hi+8(FP), R3\n\tDMB       MB_ISH\n" +
			"dmb_loop:\n\tLDREXD    (R1), R4\n\tADD.S     R2, R4, R6\n\tADC       R3, R5, R7\n\tSTREXD    R6, (R1), R0\n\tCMP       $0, R0\n\tBNE       dmb_loop\n\tDMB       MB_ISH\n" +
			"\tMOVW      R4, old_lo+12(FP)\n\tMOVW      R5, old_hi+16(FP)\n\tRET\ndmb_misaligned:\n\tJMP       ·misaligned64(SB)\n",
		// The ARMv6 barrier, with its zero register.
		"\tMOVW      $0, R8\n",
		"\tMCR       15, 0, R8, C7, C10, 5\nmcr_loop:\n\tLDREXD    (R1), R4\n",
		// cas: the failure path ends in the barrier too.
		"dmb_loop:\n\tLDREX     (R1), R0\n\tCMP       R2, R0\n\tBNE       dmb_fail\n\tSTREX     R3, (R1), R4\n\tCMP       $0, R4\n\tBNE       dmb_loop\n\tDMB       MB_ISH\n",
		"dmb_fail:\n\tDMB       MB_ISH\n\tMOVW      $0, R0\n\tMOVB      R0, swapped+12(FP)\n",
		"MOVB      R0, swapped+20(FP)\n",
		// Acquire and release.
		"\tMOVW      (R1), R0\n\tDMB       MB_ISH\n\tMOVW      R0, ret+4(FP)\n",
		"\tDMB       MB_ISH\n\tMOVW      R2, (R1)\n\tRET\n",
		"TEXT ·Pause(SB), NOSPLIT, $0-0\n\tMOVBU     ·selPause(SB), R0\n\tCMP       $0, R0\n\tBNE       nop\n",
		"\tWORD      $0xe320f001 // yield\n",
		"\tMOVW      $345, R7\n\tSWI       $0\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_arm.s lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "CALL", "BL":
			t.Errorf("entries must not call another function: %q", line)
		case "JMP", "B":
			// Labels of the same TEXT are fine; a symbol is a tail
			// call, allowed to an op's Go variant (chosen by its flag)
			// and to the misaligned-word panic.
			if strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("arm", line) && !strings.Contains(line, "·misaligned64(SB)") {
				t.Errorf("entries must not jump to another function: %q", line)
			}
		case "STRD", "LDRD", "MOVD":
			// Not single-copy atomic without LPAE.
			t.Errorf("a doubleword access that is not exclusive: %q", line)
		}
	}
	if strings.Contains(s, "cas128") {
		t.Error("asm_arm.s has cas128 code; its only variant is hal's Go one")
	}
}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("arm")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_arm.go"]) + string(files["zapi_arm.go"])
	for _, want := range []string{
		`{name: "dmb", requires: []string{"v6k", "v7", "v7atomics"}, fn: direct.FetchAddUint64Dmb},`,
		`{name: "mcr", requires: []string{"v6k", "v7atomics"}, fn: direct.FetchAddUint64Mcr},`,
		`{name: "mcr", requires: []string{"v6k"}, fn: direct.FetchAddUint32Mcr},`,
		`{name: "portable", fn: fetchadd64_portable},`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's arm Go files lack %q", want)
		}
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBU     ·selX(SB), R0\n\tCMP       $1, R0\n\tBEQ       b\n\tCMP       $2, R0\n\tBEQ       c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}
