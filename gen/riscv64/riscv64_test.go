package riscv64

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
		"TEXT ·FetchAddUint64(SB), NOSPLIT, $0-24\n\tMOVBU     ·selFetchadd64(SB), T0\n\tBNEZ      T0, llsc\n",
		// The LR/SC loops: LR.aqrl (WORD), SC.rl, retry on failure.
		"llsc_loop:\n\tWORD      $0x160536af // lr.d.aqrl a3, (a0)\n\tBNE       A3, A1, llsc_fail\n\tSCD       A2, (A0), A4\n\tBNEZ      A4, llsc_loop\n",
		"WORD      $0x1605262f // lr.w.aqrl a2, (a0)\n\tADDW      A1, A2, A3\n\tSCW       A3, (A0), A4\n",
		// 32-bit arguments sign-extend, as LR.W does, for the compare.
		"MOVW      old+8(FP), A1\n",
		"AMOADDD   A1, (A0), A2\n",
		"AMOSWAPW  A1, (A0), A2\n",
		"MOVWU     (A0), A1\n\tWORD      $0x0230000f // fence r, rw\n",
		"WORD      $0x0310000f // fence rw, w\n\tMOV       A1, (A0)\n",
		"TEXT ·Fence(SB), NOSPLIT, $0-0\n\tWORD      $0x0330000f // fence rw, rw\n\tRET\n",
		"TEXT ·Pause(SB), NOSPLIT, $0-0\n\tWORD      $0x0100000f // pause\n\tRET\n",
		"RDTIME    A0\n\tMOV       A0, ret+0(FP)\n",
		// spinlock32: test, pause while held, LR.aqrl/SC.rl when free.
		"llsc_held:\n\tBEQZ      A1, llsc_fail\n\tSUBW      $1, A1\n\tWORD      $0x0100000f // pause\n\tJMP       llsc_loop\n",
		"llsc_try:\n\tWORD      $0x160526af // lr.w.aqrl a3, (a0)\n\tBNEZ      A3, llsc_held\n\tSCW       A2, (A0), A4\n\tBNEZ      A4, llsc_try\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_riscv64.s lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "LRW", "LRD":
			// Go's LR is LR.aq only; the CAS mapping wants LR.aqrl.
			t.Errorf("Go's LR.aq mnemonic: %q", line)
		case "FENCE":
			t.Errorf("Go's FENCE IORW,IORW: %q", line)
		case "CALL":
			t.Errorf("entries must not call another function: %q", line)
		case "JMP":
			// A jump to a label of the same TEXT (spinlock32's
			// back edge) is fine; one to a symbol is a tail call,
			// allowed only to an op's Go variant, chosen by its flag.
			if strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("riscv64", line) {
				t.Errorf("entries must not jump to another function: %q", line)
			}
		}
	}
	// cas128 has only the Go variant: no assembly at all.
	if strings.Contains(s, "cas128") {
		t.Error("asm_riscv64.s has cas128 code; its only variant is hal's Go one")
	}
}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("riscv64")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_riscv64.go"]) + string(files["zapi_riscv64.go"]) + string(files["zstatic_riscv64.go"])
	for _, want := range []string{
		"rowCompareAndSwap128(nil, []variant[fnCompareAndSwap128]{\n\t\t{name: \"portable\", fn: cas128_portable},",
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n\treturn cas128_portable(addr, oldLo, oldHi, newLo, newHi)\n}\n",
		`{name: "amo", fn: direct.FetchAddUint64Amo},`,
		"\tselSwap32 ", "uint8 // swap32\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's riscv64 Go files lack %q", want)
		}
	}
	// No Static function for cas128, whose only variant is Go.
	if strings.Contains(string(files["direct/zstatic_riscv64.go"]), "StaticCompareAndSwap128") {
		t.Error("direct/zstatic_riscv64.go binds cas128, which has no assembly variant")
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBU     ·selX(SB), T0\n\tMOV       $1, T1\n\tBEQ       T0, T1, b\n\tMOV       $2, T1\n\tBEQ       T0, T1, c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}
