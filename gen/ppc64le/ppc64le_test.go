package ppc64le

import (
	"regexp"
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
		"TEXT ·FetchAddUint64(SB), NOSPLIT, $0-24\n\tMOVBZ     ·selFetchadd64(SB), R3\n\tCMP       R3, $0\n\tBNE       sync\n",
		// CAS: the leading fence, the loop, SYNC once stored, ISYNC
		// when the compare failed.
		"\tLWSYNC\nlwsync_loop:\n\tLDAR      (R3), R6\n\tCMP       R6, R4\n\tBNE       lwsync_fail\n\tSTDCCC    R5, (R3)\n\tBNE       lwsync_loop\n\tSYNC\n\tMOVD      $1, R6\n\tMOVB      R6, swapped+24(FP)\n\tRET\nlwsync_fail:\n\tISYNC\n\tMOVB      R0, swapped+24(FP)\n\tRET\n",
		"\tSYNC\nsync_loop:\n\tLWAR      (R3), R6\n\tCMPW      R6, R4\n\tBNE       sync_fail\n\tSTWCCC    R5, (R3)\n\tBNE       sync_loop\n\tSYNC\n",
		// 32-bit arguments are zero-extended, as LWARX's result is.
		"MOVWZ     old+8(FP), R4\n\tMOVWZ     new+12(FP), R5\n",
		// fetch-op: old value kept in R5, the new one in R6.
		"\tLWSYNC\nlwsync_loop:\n\tLDAR      (R3), R5\n\tADD       R4, R5, R6\n\tSTDCCC    R6, (R3)\n\tBNE       lwsync_loop\n\tSYNC\n\tMOVD      R5, old+16(FP)\n",
		"LWAR      (R3), R5\n\tOR        R4, R5, R6\n\tSTWCCC    R6, (R3)\n",
		"LDAR      (R3), R5\n\tAND       R4, R5, R6\n\tSTDCCC    R6, (R3)\n",
		// swap: stores the argument itself.
		"LDAR      (R3), R5\n\tSTDCCC    R4, (R3)\n\tBNE       sync_loop\n\tSYNC\n",
		// acquire loads and the release store.
		"MOVWZ     0(R3), R4\n\tCMPW      R4, R4\n\tBNE       isync_acq\nisync_acq:\n\tISYNC\n",
		"MOVD      0(R3), R4\n\tLWSYNC\n\tMOVD      R4, ret+8(FP)\n",
		"\tLWSYNC\n\tMOVW      R4, 0(R3)\n\tRET\n",
		"TEXT ·Fence(SB), NOSPLIT, $0-0\n\tSYNC\n\tRET\n",
		"// selPause = 0: ppr\n\tOR        R1, R1, R1\n\tOR        R6, R6, R6\n\tRET\nyield:\n\t// selPause = 1: yield\n\tOR        R27, R27, R27\n\tRET\n",
		"\tISYNC\n\tMOVD      SPR(268), R3\n\tMOVD      R3, ret+0(FP)\n",
		// spinlock32: test, the priority hints while held, the CAS.
		"llsc_loop:\n\tMOVWZ     0(R3), R7\n\tCMPW      R7, $0\n\tBNE       llsc_held\n\tLWSYNC\nllsc_try:\n\tLWAR      (R3), R7\n\tCMPW      R7, $0\n\tBNE       llsc_held\n\tSTWCCC    R5, (R3)\n\tBNE       llsc_try\n\tSYNC\n",
		"llsc_held:\n\tCMPW      R4, $0\n\tBEQ       llsc_fail\n\tSUB       $1, R4\n\tOR        R1, R1, R1\n\tOR        R6, R6, R6\n\tBR        llsc_loop\n",
		// getcpu.
		"\tMOVD      $ret+0(FP), R3\n\tMOVD      $0, R4\n\tMOVD      $0, R5\n\tSYSCALL   $302\n\tCMP       R3, $0\n\tBNE       syscall_bad\n\tMOVD      $ret+0(FP), R4\n\tMOVWZ     0(R4), R3\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated ppc64le assembly lacks %q", want)
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
		case "JMP", "BR":
			// A jump to a label of the same TEXT is fine; one to a
			// symbol is a tail call, allowed only to an op's Go
			// variant, chosen by its flag.
			if strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("ppc64le", line) {
				t.Errorf("entries must not jump to another function: %q", line)
			}
		case "WORD":
			// Every instruction this file needs is the Go
			// assembler's own; the quadword WORDs are in quad.go.
			t.Errorf("unexpected WORD: %q", line)
		}
	}
	// The 128-bit ops have only the Go variant: no assembly at all.
	for _, op := range []string{"cas128", "load128", "store128", "CompareAndSwap128", "Load128", "Store128"} {
		if strings.Contains(s, "·"+op) {
			t.Errorf("generated assembly has %s code; its only variant is hal's Go one", op)
		}
	}
}

// TestFences checks the ordering of every load-and-reserve loop in the
// generated files by position, whatever the body: an LWSYNC or SYNC (and
// nothing else) comes right before the loop's label, every
// store-conditional is followed by the retry branch and then SYNC, and
// every LWARX/LDARX carries no EH hint.
func TestFences(t *testing.T) {
	lines := instructions(asmtest.Asm(t, New()))
	larx := 0
	for i, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "LWAR", "LDAR":
			larx++
			if len(f) != 3 {
				t.Errorf("%q: want the two-operand form (EH = 0)", l)
			}
			j := i - 1
			for j >= 0 && strings.HasSuffix(lines[j], ":") {
				j--
			}
			if j < 0 || (lines[j] != "LWSYNC" && lines[j] != "SYNC") {
				t.Errorf("%q: not right after LWSYNC or SYNC (and a label): %q", l, lines[max(j, 0)])
			}
		case "STWCCC", "STDCCC":
			if i+2 >= len(lines) || !strings.HasPrefix(lines[i+1], "BNE ") || lines[i+2] != "SYNC" {
				t.Errorf("%q: want the retry BNE, then SYNC, after it; got %q", l, lines[i+1:min(i+3, len(lines))])
			}
		}
	}
	if larx == 0 {
		t.Fatal("no load-and-reserve in the generated files")
	}
}

// TestRegisters checks that the generated code touches only the
// registers the Go toolchain leaves free in ABI0 assembly: R3-R10, R0 as
// a source (it is always zero), and the priority and yield hints' OR of a
// register with itself, which changes nothing.
func TestRegisters(t *testing.T) {
	reg := regexp.MustCompile(`\bR(\d+)\b`)
	for _, l := range instructions(asmtest.Asm(t, New())) {
		switch l {
		case "OR R1, R1, R1", "OR R6, R6, R6", "OR R27, R27, R27":
			continue
		}
		f := strings.SplitN(l, " ", 2)
		if len(f) < 2 {
			continue
		}
		ops := strings.Split(f[1], ", ")
		for i, op := range ops {
			for _, m := range reg.FindAllStringSubmatch(op, -1) {
				n := m[1]
				switch {
				case n == "0" && i < len(ops)-1:
					// R0 as a source: zero.
				case len(n) == 1 && n[0] >= '3' && n[0] <= '9', n == "10":
				default:
					t.Errorf("%q uses R%s", l, n)
				}
			}
		}
	}
}

// instructions returns the generated code's instructions and labels, one
// per line, with the operands' padding reduced to one space: "LWSYNC",
// "lwsync_loop:", "LDAR (R3), R6".
func instructions(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "TEXT ") || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) > 1 {
			line = f[0] + " " + strings.Join(f[1:], " ")
		}
		out = append(out, line)
	}
	return out
}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("ppc64le")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_ppc64le.go"]) + string(files["zapi_ppc64le.go"]) + string(files["zstatic_ppc64le.go"])
	for _, want := range []string{
		"rowCompareAndSwap128(nil, []variant[fnCompareAndSwap128]{\n\t\t{name: \"portable\", fn: cas128_portable},",
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n\treturn cas128_portable(addr, oldLo, oldHi, newLo, newHi)\n}\n",
		`{name: "lwsync", fn: direct.FetchAddUint64Lwsync},`,
		`{name: "sync", fn: direct.FetchAddUint64Sync},`,
		"\tselSwap32 ", "uint8 // swap32\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's ppc64le Go files lack %q", want)
		}
	}
	if strings.Contains(string(files["direct/zstatic_ppc64le.go"]), "StaticCompareAndSwap128") {
		t.Error("direct/zstatic_ppc64le.go binds cas128, which has no assembly variant")
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBZ     ·selX(SB), R3\n\tCMP       R3, $1\n\tBEQ       b\n\tCMP       R3, $2\n\tBEQ       c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}
