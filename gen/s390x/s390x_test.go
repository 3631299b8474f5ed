package s390x

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// generate returns hal's, hal/direct's and lab/probe's s390x assembly.
func generate(t *testing.T) string {
	t.Helper()
	files := asmtest.Generate(t, New())
	return string(files["asm_s390x.s"]) + string(files["direct/zdirect_s390x.s"]) + string(files["../lab/probe/zprobe_s390x.s"])
}

func TestAsm(t *testing.T) {
	s := generate(t)
	for _, want := range []string{
		"//go:build !purego && !race && !gohal_static\n",
		"//go:build !purego\n",
		// Guarded fetch-add: the flag entry tests the byte, LAAG first.
		"TEXT ·fetchadd64Flag(SB), NOSPLIT, $0-24\n\tMOVBZ     ·selFetchadd64(SB), R1\n\tCMPBNE    R1, $0, cs\n",
		"LAAG      R3, R4, (R2)\n\tMOVD      R4, old+16(FP)\n",
		"LAA       R3, R4, (R2)\n\tMOVW      R4, old+16(FP)\n",
		"LAO       R3, R4, (R2)\n", "LAOG      R3, R4, (R2)\n",
		"LAN       R3, R4, (R2)\n", "LANG      R3, R4, (R2)\n",
		// The CS loops, as the runtime's: first guess from a plain load.
		"MOVWZ     (R2), R4\ncs_loop:\n\tADDW      R3, R4, R5\n\tCS        R4, R5, (R2)\n\tBNE       cs_loop\n",
		"MOVD      (R2), R4\ncs_loop:\n\tOR        R3, R4, R5\n\tCSG       R4, R5, (R2)\n\tBNE       cs_loop\n",
		"cs_loop:\n\tCSG       R4, R3, (R2)\n\tBNE       cs_loop\n",
		// CAS: the condition code of CS becomes the bool.
		"CS        R3, R4, (R2)\n\tBNE       cs_fail\n\tMOVB      $1, swapped+16(FP)\n",
		// Acquire and release are plain; the fences are BCR 14,0 and 15,0.
		"TEXT ·LoadAcquireUint64Mov(SB), NOSPLIT, $0-16\n\tMOVD      addr+0(FP), R2\n\tMOVD      (R2), R3\n\tMOVD      R3, ret+8(FP)\n\tRET\n",
		"TEXT ·StoreReleaseUint32Mov(SB), NOSPLIT, $0-12\n\tMOVD      addr+0(FP), R2\n\tMOVWZ     val+8(FP), R3\n\tMOVW      R3, (R2)\n\tRET\n",
		"TEXT ·Fence(SB), NOSPLIT, $0-0\n\tMOVBZ     ·selFence(SB), R1\n\tCMPBNE    R1, $0, bcr15\n\t// selFence = 0: bcr14\n\tSYNC\n\tRET\n",
		"BYTE      $0x07; BYTE $0xf0 // bcr 15,0\n\tRET\n",
		// 128 bits: alignment check, then the pair instructions on
		// R2:R3 (lo in the even register) and R4:R5.
		"MOVD      addr+0(FP), R6\n\tTMLL      R6, $15\n\tBNE       cdsg_misaligned\n\tMOVD      oldLo+8(FP), R2\n\tMOVD      oldHi+16(FP), R3\n\tMOVD      newLo+24(FP), R4\n\tMOVD      newHi+32(FP), R5\n\tWORD      $0xeb246000; BYTE $0x00; BYTE $0x3e // cdsg %r2,%r4,0(%r6)\n\tMOVD      R2, lo+40(FP)\n\tMOVD      R3, hi+48(FP)\n\tBNE       cdsg_fail\n",
		"WORD      $0xe3206000; BYTE $0x00; BYTE $0x8f // lpq %r2,0(%r6)\n\tMOVD      R2, lo+8(FP)\n\tMOVD      R3, hi+16(FP)\n",
		"MOVD      lo+8(FP), R2\n\tMOVD      hi+16(FP), R3\n\tWORD      $0xe3206000; BYTE $0x00; BYTE $0x8e // stpq %r2,0(%r6)\n\tSYNC\n\tRET\n",
		"MOVD      0(R6), R2\n\tMOVD      8(R6), R3\ncdsg_loop:\n\tWORD      $0xeb246000; BYTE $0x00; BYTE $0x3e // cdsg %r2,%r4,0(%r6)\n\tBNE       cdsg_loop\n",
		"cdsg_misaligned:\n\tJMP       ·misaligned128(SB)\n",
		// The Uint128 entries.
		"TEXT ·load128U(SB), NOSPLIT, $0-24\n\tMOVD      addr+0(FP), R2\n\tMOVD      (R2), R3\n\tMOVD      8(R2), R4\n\tXOR       R3, R4\n\tCMPBNE    R2, R4, moved\n\tMOVD      R3, addr+0(FP)\n\tJMP       ·load128(SB)\nmoved:\n\tJMP       ·load128_moved(SB)\n",
		"STCKF     ret+0(FP)\n\tRET\n", "STCK      ret+0(FP)\n\tRET\n",
		// spinlock32: plain test, no hint while held, CS 0→1 when free.
		"cs_held:\n\tCMPBEQ    R3, $0, cs_fail\n\tADD       $-1, R3\n\tBR        cs_loop\ncs_try:\n\tMOVD      $0, R4\n\tCS        R4, R5, (R2)\n\tBNE       cs_held\n",
		// getcpu: number 311 in R1, SVC 0, the number in the slot's first four bytes.
		"MOVD      $311, R1\n\tSYSCALL\n\tCMPBNE    R2, $0, syscall_bad\n\tMOVWZ     (R5), R2\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("s390x assembly lacks %q", want)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "//") {
			continue
		}
		switch {
		case f[0] == "CALL" || f[0] == "BL":
			t.Errorf("entries must not call another function: %q", line)
		case (f[0] == "JMP" || f[0] == "BR") && strings.Contains(line, "(SB)") && !allowedTailJump(line):
			t.Errorf("a jump to another function that is not a tail jump the design allows: %q", line)
		case regexp.MustCompile(`\bR(1[0-5])\b`).MatchString(line):
			t.Errorf("a register the Go toolchain reserves (R10-R15): %q", line)
		case regexp.MustCompile(`\(R0\)`).MatchString(line):
			t.Errorf("R0 as a base register reads as 0: %q", line)
		}
	}
}

// allowedTailJump reports whether line is one of the tail jumps the
// design allows (see gen/backend): to misaligned128 from a 128-bit body, to
// an op's entry or <op>_moved from its Uint128 entry, or to an op's Go
// variant <op>_portable from its entry.
func allowedTailJump(line string) bool {
	f := strings.Fields(line)
	if len(f) != 2 {
		return false
	}
	if f[1] == "·"+spec.Misaligned128+"(SB)" {
		return true
	}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.Uint128 && (f[1] == "·"+op.GoName+"(SB)" || f[1] == "·"+op.Moved()+"(SB)") {
			return true
		}
		if op.HasGoVariant("s390x") && f[1] == "·"+op.Symbol(spec.PortableName)+"(SB)" {
			return true
		}
	}
	return false
}

func TestBindings(t *testing.T) {
	// The variants the compiler's intrinsics are (checked against its
	// output): hal inlines sync/atomic for CAS, swap and acquire load,
	// guards fetch-add, and calls assembly for the rest.
	for name, want := range map[string]string{"cas64": "inline", "swap32": "inline", "loadacquire64": "inline",
		"fetchadd64": "guarded", "fetchor64": "flag", "storerelease64": "single", "cas128": "single"} {
		op := spec.Find(name)
		got := "single"
		switch {
		case op.InlineBinding("s390x"):
			got = "inline"
		case op.GuardedBinding("s390x"):
			got = "guarded"
		case len(op.Variants("s390x")) > 1:
			got = "flag"
		}
		if got != want {
			t.Errorf("%s is bound %s, want %s", name, got, want)
		}
	}
	// A guarded op's entry is its flag entry; an inlined one has none.
	s := string(asmtest.Generate(t, New())["asm_s390x.s"])
	if strings.Contains(s, "TEXT ·CompareAndSwapUint64(SB)") || !strings.Contains(s, "TEXT ·fetchadd64Flag(SB)") {
		t.Error("asm_s390x.s: want no CAS entry (inlined) and fetchadd64's flag entry (guarded)")
	}
}

func TestGoFiles(t *testing.T) {
	files, err := backend.GoFiles("s390x")
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["zasm_s390x.go"]) + string(files["zapi_s390x.go"])
	for _, want := range []string{
		`{name: "cdsg", fn: direct.CompareAndSwap128Cdsg},`,
		`{name: "pq", fn: direct.Load128Pq},`,
		`{name: "portable", fn: cpu_portable},`,
		"return atomic.CompareAndSwapUint64(addr, old, new)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("hal's s390x Go files lack %q", want)
		}
	}
	// cas128 has one variant, so lab/probe has its flag probe, whose
	// alignment check needs the package's own misaligned128.
	if p := string(files["../lab/probe/zprobe_s390x.go"]); !strings.Contains(p, "func CompareAndSwap128Flagged(") || !strings.Contains(p, "func misaligned128(addr *[2]uint64) {") {
		t.Error("lab/probe/zprobe_s390x.go lacks CompareAndSwap128Flagged or the misaligned128 it jumps to")
	}
	if !strings.Contains(string(files["direct/zstatic_s390x.go"]), "StaticCompareAndSwap128") {
		t.Error("direct/zstatic_s390x.go does not bind cas128, which has a hardware variant")
	}
}

func TestSelectMany(t *testing.T) {
	e := New()
	e.Select("selX", []string{"b", "c"})
	want := "\tMOVBZ     ·selX(SB), R1\n\tCMPBEQ    R1, $1, b\n\tCMPBEQ    R1, $2, c\n"
	if got := e.Pending(); got != want {
		t.Errorf("Select with 3 variants:\n%s\nwant:\n%s", got, want)
	}
}

// TestSpec: s390x is registered, every op has a variant, and no variant
// needs a CPU feature (z13, Go's minimum, has every instruction used).
func TestSpec(t *testing.T) {
	a, ok := spec.ArchOf("s390x")
	if !ok {
		t.Fatal("s390x is not registered")
	}
	if err := spec.Validate("s390x"); err != nil {
		t.Fatal(err)
	}
	for name, vs := range a.Variants {
		for _, v := range vs {
			for _, r := range v.Requires {
				if r != dispatch.FeatureLinux {
					t.Errorf("%s/%s requires %q: no s390x variant should need a CPU feature", name, v.Name, r)
				}
			}
		}
	}
	if a.Emulator.Binary != "qemu-s390x" || len(a.Emulator.CPUs) != 2 || a.Emulator.Binutils == "" {
		t.Errorf("Emulator = %+v", a.Emulator)
	}
	// CI forces the second variant of every op that has one; of the
	// 128-bit ops, load128 and store128 move to CDSG while cas128, whose
	// only variant CDSG is, stays (they all stay hardware).
	g := backend.ForcedGOHAL("s390x")
	for _, want := range []string{"fetchadd64=cs", "fetchor32=cs", "fetchand64=cs", "fence=bcr15", "cycles=stck", "cpu=portable", "load128=cdsg", "store128=cdsg"} {
		if !strings.Contains(g, want) {
			t.Errorf("ForcedGOHAL(s390x) = %q lacks %s", g, want)
		}
	}
	if strings.Contains(g, "cas128") || strings.Contains(g, "128=portable") {
		t.Errorf("ForcedGOHAL(s390x) = %q names cas128 or a portable 128-bit variant", g)
	}
}
