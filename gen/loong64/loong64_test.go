package loong64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

func TestAsm(t *testing.T) {
	s := asmtest.Asm(t, New())
	for _, want := range []string{
		"//go:build !purego && !race && !gohal_static\n",
		"//go:build !purego\n",
		"TEXT ·FetchAddUint64(SB), NOSPLIT, $0-24\n\tMOVBU     ·selFetchadd64(SB), R12\n\tBNE       R12, llsc\n",
		// The CAS: DBAR 0x14, the LL/SC loop, DBAR 0x12 after a store,
		// DBAR 0x14 after a failed compare.
		"\tDBAR      $0x14\nllsc_loop:\n\tMOVV      R6, R7\n\tLLV       (R4), R8\n\tBNE       R5, R8, llsc_fail\n\tSCV       R7, (R4)\n\tBEQ       R7, llsc_loop\n\tDBAR      $0x12\n",
		"llsc_fail:\n\tDBAR      $0x14\n\tMOVB      R0, swapped+24(FP)\n",
		// 32-bit arguments sign-extend, as LL.W does, for the compare.
		"MOVW      old+8(FP), R5\n",
		"\tLL        (R4), R8\n\tBNE       R5, R8, llsc_fail\n\tSC        R7, (R4)\n",
		// The read-modify-writes: the _DB instructions, and the loops.
		"AMADDDBV  R5, (R4), R6\n",
		"AMADDDBW  R5, (R4), R6\n",
		"AMSWAPDBW R5, (R4), R6\n",
		"AMORDBV   R5, (R4), R6\n",
		"AMANDDBW  R5, (R4), R6\n",
		"\tDBAR      $0x14\nllsc_loop:\n\tLL        (R4), R6\n\tADD       R5, R6, R7\n\tSC        R7, (R4)\n\tBEQ       R7, llsc_loop\n\tDBAR      $0x12\n",
		"\tLLV       (R4), R6\n\tMOVV      R5, R7\n\tSCV       R7, (R4)\n",
		"\tLLV       (R4), R6\n\tAND       R5, R6, R7\n\tSCV       R7, (R4)\n",
		// Acquire, release, fence.
		"MOVW      (R4), R5\n\tDBAR      $0x14\n\tMOVW      R5, ret+8(FP)\n",
		"MOVV      (R4), R5\n\tDBAR      $0x14\n",
		"DBAR      $0x12\n\tMOVV      R5, (R4)\n",
		"AMSWAPDBW R5, (R4), R0\n",
		"TEXT ·Fence(SB), NOSPLIT, $0-0\n\tDBAR      $0x10\n\tRET\n",
		"TEXT ·Pause(SB), NOSPLIT, $0-0\n\tRET\n",
		"RDTIMED   R0, R4\n\tMOVV      R4, ret+0(FP)\n",
		// spinlock32: test, spend while held, cas32's sequence when free.
		"llsc_held:\n\tBEQ       R5, llsc_fail\n\tADDV      $-1, R5\n\tJMP       llsc_loop\n",
		"llsc_try:\n\tDBAR      $0x14\nllsc_again:\n\tMOVV      R6, R8\n\tLL        (R4), R7\n\tBNE       R7, llsc_held\n\tSC        R8, (R4)\n\tBEQ       R8, llsc_again\n\tDBAR      $0x12\n",
		// cpu: getcpu(2).
		"MOVV      $168, R11\n\tSYSCALL\n\tBNE       R4, syscall_bad\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_loong64.s lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch m := f[0]; {
		case m == "WORD":
			// The Go assembler has every instruction this backend
			// needs; a WORD would need binutils to check, and
			// Debian has none for loongarch64.
			t.Errorf("WORD-encoded instruction: %q", line)
		case strings.HasPrefix(m, "AM") && !strings.Contains(m, "DB"):
			// AMADDW and friends order nothing: only the _DB
			// forms are barriers.
			t.Errorf("AM* instruction without _DB: %q", line)
		case m == "DBAR":
			// Every barrier names its hint: a bare DBAR is DBAR
			// 0, the completion barrier, which no op needs.
			if len(f) != 2 || !validHint[f[1]] {
				t.Errorf("DBAR without one of the hints 0x10, 0x12, 0x14: %q", line)
			}
		case m == "CALL":
			t.Errorf("entries must not call another function: %q", line)
		case m == "JMP":
			// A jump to a label of the same TEXT (spinlock32's
			// back edge) is fine; one to a symbol is a tail call,
			// allowed only to an op's Go variant.
			if strings.Contains(line, "(SB)") && !asmtest.GoVariantJump("loong64", line) {
				t.Errorf("entries must not jump to another function: %q", line)
			}
		}
	}
	for _, op := range []string{"cas128", "load128", "store128"} {
		if strings.Contains(s, op) {
			t.Errorf("asm_loong64.s has %s code; its only variant is hal's Go one", op)
		}
	}
}

var validHint = map[string]bool{"$0x10": true, "$0x12": true, "$0x14": true}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("loong64")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_loong64.go"]) + string(files["zapi_loong64.go"]) + string(files["zstatic_loong64.go"])
	for _, want := range []string{
		"rowCompareAndSwap128(nil, []variant[fnCompareAndSwap128]{\n\t\t{name: \"portable\", fn: cas128_portable},",
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n\treturn cas128_portable(addr, oldLo, oldHi, newLo, newHi)\n}\n",
		`{name: "amo", fn: direct.FetchAddUint64Amo},`,
		`{name: "amswap", fn: direct.StoreReleaseUint32Amswap},`,
		"\tselSwap32 ", "uint8 // swap32\n",
		// The acquire load is bound inline: it is sync/atomic's Load.
		"func LoadAcquireUint64(addr *uint64) uint64 {\n\treturn atomic.LoadUint64(addr)\n}\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's loong64 Go files lack %q", want)
		}
	}
	if strings.Contains(string(files["direct/zstatic_loong64.go"]), "StaticCompareAndSwap128") {
		t.Error("direct/zstatic_loong64.go binds cas128, which has no assembly variant")
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBU     ·selX(SB), R12\n\tMOVV      $1, R13\n\tBEQ       R12, R13, b\n\tMOVV      $2, R13\n\tBEQ       R12, R13, c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}

// TestSpec checks what the package comment and the report promise about
// loong64's part of the spec: every op has a variant; the read-modify-
// writes offer the AM*_DB instruction first and the LL/SC loop second; no
// variant needs a CPU feature but the system call's Linux; the 128-bit
// ops are all Go.
func TestSpec(t *testing.T) {
	if err := spec.Validate("loong64"); err != nil {
		t.Fatal(err)
	}
	a, ok := spec.ArchOf("loong64")
	if !ok {
		t.Fatal("loong64 is not registered")
	}
	if a.Emulator.Binary != "qemu-loongarch64" || len(a.Emulator.CPUs) != 1 || a.Emulator.CPUs[0] != "la464" {
		t.Errorf("emulator %+v", a.Emulator)
	}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.GoVariants != nil {
			continue // the spec's own, the same on every GOARCH
		}
		vs := op.Variants("loong64")
		for _, v := range vs {
			for _, r := range v.Requires {
				if r != "linux" {
					t.Errorf("%s/%s requires %q", op.Name, v.Name, r)
				}
			}
		}
		switch {
		case op.Uint128:
			if len(vs) != 1 || !vs[0].Go {
				t.Errorf("%s: want only the Go variant, got %v", op.Name, vs)
			}
		case strings.HasPrefix(op.Name, "fetch") || strings.HasPrefix(op.Name, "swap"):
			if len(vs) != 2 || vs[0].Name != "amo" || vs[1].Name != "llsc" {
				t.Errorf("%s: want amo, llsc, got %v", op.Name, vs)
			}
		}
	}
}
