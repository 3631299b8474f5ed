package loong64

import (
	"bufio"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/internal/asmtest"
	"github.com/gohal/gohal/gen/spec"
)

// Debian 12 has no binutils for loongarch64, so these tests check the
// machine code with a decoder of their own, built on binutils' opcode table
// instead of its assembler: the rows below are copied from
// opcodes/loongarch-opc.c of binutils-gdb (match, mask, name and operand
// format of every instruction hal's loong64 functions contain, and of
// those the Go assembler adds around them). Go's own objdump is no help
// for the barriers: it prints DBAR without its hint.
//
// Two checks use it. TestGoAssemblerAgainstBinutils decodes the encodings
// in the Go assembler's own test data (cmd/asm/internal/asm/testdata/
// loong64enc1.s) and checks that each Go mnemonic hal uses is the binutils
// instruction the backend means (AMADDDBV is amadd_db.d, not amadd.d; LL is
// ll.w; ...), with its operands in the right fields. TestHalBinary builds
// hal's tests for loong64 and decodes every function the spec implies.

// opcode is one row of binutils' table. format lists the operands as
// binutils writes them: a kind (r register, u unsigned, s signed, sb a
// signed branch offset) and bit fields start:width, several joined by |
// from the most significant part, then an optional <<shift.
type opcode struct {
	match, mask uint32
	name        string
	format      string
}

// opcodes holds aliases before the instructions they specialise, as
// binutils' disassembler tries them (ret before jirl, nop before andi,
// move before or, beqz/bnez before the two-register branches).
var opcodes = []opcode{
	// loongarch_alias_opcodes
	{0x00150000, 0xfffffc00, "move", "r0:5,r5:5"},
	{0x03400000, 0xffffffff, "nop", ""},
	{0x4c000020, 0xffffffff, "ret", ""},
	// loongarch_fix_opcodes
	{0x00006800, 0xfffffc00, "rdtime.d", "r0:5,r5:5"},
	{0x00100000, 0xffff8000, "add.w", "r0:5,r5:5,r10:5"},
	{0x00108000, 0xffff8000, "add.d", "r0:5,r5:5,r10:5"},
	{0x00118000, 0xffff8000, "sub.d", "r0:5,r5:5,r10:5"},
	{0x00148000, 0xffff8000, "and", "r0:5,r5:5,r10:5"},
	{0x00150000, 0xffff8000, "or", "r0:5,r5:5,r10:5"},
	{0x002b0000, 0xffff8000, "syscall", "u0:15"},
	// loongarch_imm_opcodes
	{0x02800000, 0xffc00000, "addi.w", "r0:5,r5:5,s10:12"},
	{0x02c00000, 0xffc00000, "addi.d", "r0:5,r5:5,s10:12"},
	{0x03400000, 0xffc00000, "andi", "r0:5,r5:5,u10:12"},
	{0x03800000, 0xffc00000, "ori", "r0:5,r5:5,u10:12"},
	{0x14000000, 0xfe000000, "lu12i.w", "r0:5,s5:20"},
	{0x1a000000, 0xfe000000, "pcalau12i", "r0:5,s5:20"},
	// loongarch_load_store_opcodes
	{0x20000000, 0xff000000, "ll.w", "r0:5,r5:5,s10:14<<2"},
	{0x21000000, 0xff000000, "sc.w", "r0:5,r5:5,s10:14<<2"},
	{0x22000000, 0xff000000, "ll.d", "r0:5,r5:5,s10:14<<2"},
	{0x23000000, 0xff000000, "sc.d", "r0:5,r5:5,s10:14<<2"},
	{0x28000000, 0xffc00000, "ld.b", "r0:5,r5:5,s10:12"},
	{0x28800000, 0xffc00000, "ld.w", "r0:5,r5:5,s10:12"},
	{0x28c00000, 0xffc00000, "ld.d", "r0:5,r5:5,s10:12"},
	{0x29000000, 0xffc00000, "st.b", "r0:5,r5:5,s10:12"},
	{0x29800000, 0xffc00000, "st.w", "r0:5,r5:5,s10:12"},
	{0x29c00000, 0xffc00000, "st.d", "r0:5,r5:5,s10:12"},
	{0x2a000000, 0xffc00000, "ld.bu", "r0:5,r5:5,s10:12"},
	{0x2a800000, 0xffc00000, "ld.wu", "r0:5,r5:5,s10:12"},
	// The atomics without a barrier: hal must never contain them.
	{0x38600000, 0xffff8000, "amswap.w", "r0:5,r10:5,r5:5"},
	{0x38608000, 0xffff8000, "amswap.d", "r0:5,r10:5,r5:5"},
	{0x38610000, 0xffff8000, "amadd.w", "r0:5,r10:5,r5:5"},
	{0x38618000, 0xffff8000, "amadd.d", "r0:5,r10:5,r5:5"},
	{0x38620000, 0xffff8000, "amand.w", "r0:5,r10:5,r5:5"},
	{0x38628000, 0xffff8000, "amand.d", "r0:5,r10:5,r5:5"},
	{0x38630000, 0xffff8000, "amor.w", "r0:5,r10:5,r5:5"},
	{0x38638000, 0xffff8000, "amor.d", "r0:5,r10:5,r5:5"},
	// ... and those with one.
	{0x38690000, 0xffff8000, "amswap_db.w", "r0:5,r10:5,r5:5"},
	{0x38698000, 0xffff8000, "amswap_db.d", "r0:5,r10:5,r5:5"},
	{0x386a0000, 0xffff8000, "amadd_db.w", "r0:5,r10:5,r5:5"},
	{0x386a8000, 0xffff8000, "amadd_db.d", "r0:5,r10:5,r5:5"},
	{0x386b0000, 0xffff8000, "amand_db.w", "r0:5,r10:5,r5:5"},
	{0x386b8000, 0xffff8000, "amand_db.d", "r0:5,r10:5,r5:5"},
	{0x386c0000, 0xffff8000, "amor_db.w", "r0:5,r10:5,r5:5"},
	{0x386c8000, 0xffff8000, "amor_db.d", "r0:5,r10:5,r5:5"},
	{0x38720000, 0xffff8000, "dbar", "u0:15"},
	// loongarch_jmp_opcodes
	{0x40000000, 0xfc000000, "beqz", "r5:5,sb0:5|10:16<<2"},
	{0x44000000, 0xfc000000, "bnez", "r5:5,sb0:5|10:16<<2"},
	{0x4c000000, 0xfc000000, "jirl", "r0:5,r5:5,s10:16<<2"},
	{0x50000000, 0xfc000000, "b", "sb0:10|10:16<<2"},
	{0x58000000, 0xfc000000, "beq", "r5:5,r0:5,sb10:16<<2"},
	{0x5c000000, 0xfc000000, "bne", "r5:5,r0:5,sb10:16<<2"},
}

var operandRE = regexp.MustCompile(`^(r|u|s|sb)([0-9:|]+)(?:<<([0-9]+))?$`)

// field extracts an operand: the parts start:width from the most
// significant, concatenated, sign-extended when signed, then shifted.
func field(w uint32, spec string, signed bool, shift int) (int64, error) {
	var v uint64
	bits := 0
	for _, part := range strings.Split(spec, "|") {
		a, b, ok := strings.Cut(part, ":")
		start, err1 := strconv.Atoi(a)
		width, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return 0, fmt.Errorf("bad field %q", spec)
		}
		v = v<<width | uint64(w>>start)&(1<<width-1)
		bits += width
	}
	x := int64(v)
	if signed && v&(1<<(bits-1)) != 0 {
		x -= 1 << bits
	}
	return x << shift, nil
}

// decode returns the instruction w as binutils' table names it, with its
// operands in binutils' order: registers as $rN, unsigned immediates in
// hex, signed ones (offsets, branch displacements in bytes) in decimal,
// separated by ", ". An encoding the table above lacks is ".word 0x...".
func decode(w uint32) (string, error) {
	for _, o := range opcodes {
		if w&o.mask != o.match {
			continue
		}
		if o.format == "" {
			return o.name, nil
		}
		var args []string
		for _, f := range strings.Split(o.format, ",") {
			m := operandRE.FindStringSubmatch(f)
			if m == nil {
				return "", fmt.Errorf("%s: bad operand format %q", o.name, f)
			}
			shift := 0
			if m[3] != "" {
				shift, _ = strconv.Atoi(m[3])
			}
			v, err := field(w, m[2], m[1] == "s" || m[1] == "sb", shift)
			if err != nil {
				return "", err
			}
			switch m[1] {
			case "r":
				args = append(args, fmt.Sprintf("$r%d", v))
			case "u":
				args = append(args, fmt.Sprintf("%#x", v))
			default:
				args = append(args, strconv.FormatInt(v, 10))
			}
		}
		return o.name + " " + strings.Join(args, ", "), nil
	}
	return fmt.Sprintf(".word %#08x", w), nil
}

func TestDecode(t *testing.T) {
	for w, want := range map[uint32]string{
		0x386a9486: "amadd_db.d $r6, $r5, $r4", // Go: AMADDDBV R5, (R4), R6
		0x38720014: "dbar 0x14",
		0x38720012: "dbar 0x12",
		0x38720000: "dbar 0x0",
		0x22000086: "ll.d $r6, $r4, 0",
		0x23000087: "sc.d $r7, $r4, 0",
		0x43fff4ff: "beqz $r7, -12", // Go: BEQ R7, -3(PC)
		0x44001980: "bnez $r12, 24", // Go: BNE R12, 6(PC)
		0x03400000: "nop",
		0x4c000020: "ret",
		0x00150085: "move $r5, $r4",
		0x00006804: "rdtime.d $r4, $r0",
		0x002b0000: "syscall 0x0",
		0x38610000: "amadd.w $r0, $r0, $r0",
		0x00000000: ".word 0x00000000",
	} {
		got, err := decode(w)
		if err != nil || got != want {
			t.Errorf("decode(%#08x) = %q, %v; want %q", w, got, err, want)
		}
	}
}

// goToBinutils maps each Go mnemonic hal's loong64 code uses for memory
// ordering, atomics, the counter and the system call to the binutils
// instruction it must be.
var goToBinutils = map[string]string{
	"AMSWAPDBW": "amswap_db.w", "AMSWAPDBV": "amswap_db.d",
	"AMADDDBW": "amadd_db.w", "AMADDDBV": "amadd_db.d",
	"AMANDDBW": "amand_db.w", "AMANDDBV": "amand_db.d",
	"AMORDBW": "amor_db.w", "AMORDBV": "amor_db.d",
	"LL": "ll.w", "LLV": "ll.d", "SC": "sc.w", "SCV": "sc.d",
	"DBAR": "dbar", "RDTIMED": "rdtime.d", "SYSCALL": "syscall",
}

var goReg = regexp.MustCompile(`^\(?R([0-9]+)\)?$`)
var goMem = regexp.MustCompile(`^(-?[0-9]*)\(R([0-9]+)\)$`)

// expectBinutils translates a Go assembler line of one of goToBinutils'
// mnemonics into the operands binutils' table gives it.
func expectBinutils(mnemonic string, ops []string) (string, error) {
	name := goToBinutils[mnemonic]
	reg := func(s string) (string, error) {
		m := goReg.FindStringSubmatch(s)
		if m == nil {
			return "", fmt.Errorf("not a register: %q", s)
		}
		return "$r" + m[1], nil
	}
	mem := func(s string) (string, string, error) {
		m := goMem.FindStringSubmatch(s)
		if m == nil {
			return "", "", fmt.Errorf("not a memory operand: %q", s)
		}
		off := m[1]
		if off == "" {
			off = "0"
		}
		return "$r" + m[2], off, nil
	}
	switch {
	case strings.HasPrefix(mnemonic, "AM") && len(ops) == 3:
		// Go: AMADDDBV Rk, (Rj), Rd; binutils: amadd_db.d rd, rk, rj.
		rk, err1 := reg(ops[0])
		rj, err2 := reg(ops[1])
		rd, err3 := reg(ops[2])
		if err1 != nil || err2 != nil || err3 != nil {
			return "", fmt.Errorf("%s %v", mnemonic, ops)
		}
		return fmt.Sprintf("%s %s, %s, %s", name, rd, rk, rj), nil
	case (mnemonic == "LL" || mnemonic == "LLV") && len(ops) == 2:
		// Go: LL off(Rj), Rd; binutils: ll.w rd, rj, off.
		rj, off, err := mem(ops[0])
		rd, err2 := reg(ops[1])
		if err != nil || err2 != nil {
			return "", fmt.Errorf("%s %v", mnemonic, ops)
		}
		return fmt.Sprintf("%s %s, %s, %s", name, rd, rj, off), nil
	case (mnemonic == "SC" || mnemonic == "SCV") && len(ops) == 2:
		// Go: SC Rd, off(Rj); binutils: sc.w rd, rj, off.
		rd, err := reg(ops[0])
		rj, off, err2 := mem(ops[1])
		if err != nil || err2 != nil {
			return "", fmt.Errorf("%s %v", mnemonic, ops)
		}
		return fmt.Sprintf("%s %s, %s, %s", name, rd, rj, off), nil
	case mnemonic == "RDTIMED" && len(ops) == 2:
		// Go: RDTIMED Rj, Rd; binutils: rdtime.d rd, rj.
		rj, err := reg(ops[0])
		rd, err2 := reg(ops[1])
		if err != nil || err2 != nil {
			return "", fmt.Errorf("%s %v", mnemonic, ops)
		}
		return fmt.Sprintf("%s %s, %s", name, rd, rj), nil
	case (mnemonic == "DBAR" || mnemonic == "SYSCALL") && len(ops) == 0:
		return name + " 0x0", nil
	}
	return "", fmt.Errorf("no translation for %s %v", mnemonic, ops)
}

// TestGoAssemblerAgainstBinutils reads the Go assembler's own encoding
// tests and checks, for every line with a mnemonic hal's loong64 code
// relies on, that the encoding Go produces is the binutils instruction of
// goToBinutils with the operands in the fields binutils reads them from.
func TestGoAssemblerAgainstBinutils(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "src", "cmd", "asm", "internal", "asm", "testdata", "loong64enc1.s")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("Go's assembler test data: %v", err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^\s*([A-Z0-9]+)\s*([^/]*?)\s*//\s*([0-9a-f]{8})\s*$`)
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil || goToBinutils[m[1]] == "" {
			continue
		}
		var ops []string
		if m[2] != "" {
			for _, o := range strings.Split(m[2], ",") {
				ops = append(ops, strings.TrimSpace(o))
			}
		}
		want, err := expectBinutils(m[1], ops)
		if err != nil {
			continue // a form hal does not use (an offset SC/LL has its own test line)
		}
		raw, _ := strconv.ParseUint(m[3], 16, 32)
		w := binary.LittleEndian.Uint32(binary.BigEndian.AppendUint32(nil, uint32(raw)))
		got, err := decode(w)
		if err != nil || got != want {
			t.Errorf("Go's %s %s encodes %#08x = %q, want %q (%v)", m[1], m[2], w, got, want, err)
		}
		seen[m[1]]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for mn := range goToBinutils {
		if seen[mn] == 0 {
			t.Errorf("%s: no line of %s to check it against", mn, path)
		}
	}
}

// notAsOrdered reports an instruction hal's loong64 functions must not
// contain: an atomic without the _db barrier, a DBAR with a hint other
// than the three the backend uses (DBAR 0 waits for completion, which no
// op needs), or an AM* instruction whose rd equals rj or rk (the ISA makes
// that an exception or undefined; rd = $r0 discards the old value).
func notAsOrdered(insn string) bool {
	f := strings.Fields(strings.ReplaceAll(insn, ",", ""))
	switch m := f[0]; {
	case strings.HasPrefix(m, "am"):
		if !strings.Contains(m, "_db") {
			return true
		}
		return len(f) != 4 || f[1] != "$r0" && (f[1] == f[2] || f[1] == f[3])
	case m == "dbar":
		return len(f) != 2 || f[1] != "0x10" && f[1] != "0x12" && f[1] != "0x14"
	}
	return false
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"amadd_db.d $r6, $r5, $r4":  false,
		"amswap_db.w $r0, $r5, $r4": false,
		"amadd.d $r6, $r5, $r4":     true,
		"amadd_db.d $r4, $r5, $r4":  true,
		"amadd_db.d $r5, $r5, $r4":  true,
		"dbar 0x14":                 false,
		"dbar 0x0":                  true,
		"dbar 0x700":                true,
		"ll.d $r6, $r4, 0":          false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestHalBinary builds package hal's tests for loong64 and decodes the
// binary: every variant and entry the spec implies must be there with the
// instructions and barriers the design asks for, and no assembly function
// of hal's may hold an atomic without _db, another DBAR hint, or an AM*
// whose destination clashes with a source. It checks the committed
// hal/asm_loong64.s and hal/direct/zdirect_loong64.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestHalBinary(t *testing.T) {
	funcs := asmtest.NewFuncs("loong64", disassemble(t, asmtest.HalTestBinary(t, "loong64")))
	expect := map[string][]string{
		"pause_none":     {"ret"},
		"fence_dbar":     {"dbar 0x10", "ret"},
		"cycles_rdtimed": {"rdtime.d $r4, $r0", "st.d $r4, $r3, 8", "ret"},
		"cpu_syscall": {"addi.d $r4, $r3, 8", "move $r5, $r0", "move $r6, $r0", "ori $r11, $r0, 0xa8", "syscall 0x0",
			"bnez $r4", "addi.d $r5, $r3, 8", "ld.wu $r4, $r5, 0", "st.d $r4, $r3, 8", "ret", "st.d $r0, $r3, 8", "ret"},
		"Pause":  {"ret"},
		"Fence":  {"dbar 0x10", "ret"},
		"Cycles": {"rdtime.d $r4, $r0"},
	}
	x := map[int]string{32: "w", 64: "d"}
	for _, bits := range []int{32, 64} {
		s, n := x[bits], strconv.Itoa(bits)
		ll, sc := "ll."+s+" $r8, $r4, 0", "sc."+s+" $r7, $r4, 0"
		// The CAS: DBAR 0x14, LL, compare, SC, retry, DBAR 0x12; the
		// failed compare's DBAR 0x14.
		cas := []string{"dbar 0x14", "move $r7, $r6", ll, "bne $r5, $r8", sc, "beqz $r7", "dbar 0x12", "ret", "dbar 0x14", "ret"}
		expect["cas"+n+"_llsc"] = cas
		expect["CompareAndSwapUint"+n] = cas
		loop := func(alu string) []string {
			return []string{"dbar 0x14", "ll." + s + " $r6, $r4, 0", alu, "sc." + s + " $r7, $r4, 0", "beqz $r7", "dbar 0x12", "ret"}
		}
		add := "add." + s + " $r7, $r6, $r5"
		for _, c := range []struct{ op, fn, am, alu string }{
			{"fetchadd", "FetchAdd", "amadd_db", add},
			{"swap", "Swap", "amswap_db", "move $r7, $r5"},
			{"fetchor", "FetchOr", "amor_db", "or $r7, $r6, $r5"},
			{"fetchand", "FetchAnd", "amand_db", "and $r7, $r6, $r5"},
		} {
			am := c.am + "." + s + " $r6, $r5, $r4"
			expect[c.op+n+"_amo"] = []string{am, "ret"}
			expect[c.op+n+"_llsc"] = loop(c.alu)
			// The entry: flag byte, branch, both bodies.
			expect[c.fn+"Uint"+n] = append([]string{"ld.bu $r12", "bnez $r12", am, "ret"}, loop(c.alu)...)
		}
		load := map[int]string{32: "ld.w", 64: "ld.d"}[bits]
		store := map[int]string{32: "st.w", 64: "st.d"}[bits]
		expect["loadacquire"+n+"_dbar"] = []string{load + " $r5, $r4, 0", "dbar 0x14", "ret"}
		expect["storerelease"+n+"_dbar"] = []string{"dbar 0x12", store + " $r5, $r4, 0", "ret"}
		expect["storerelease"+n+"_amswap"] = []string{"amswap_db." + s + " $r0, $r5, $r4", "ret"}
		expect["StoreReleaseUint"+n] = []string{"ld.bu $r12", "bnez $r12", "dbar 0x12", store + " $r5, $r4, 0", "ret", "amswap_db." + s + " $r0, $r5, $r4", "ret"}
	}
	// The uintptr forms are the 64-bit bodies.
	for _, c := range [][2]string{{"fetchadduintptr_amo", "fetchadd64_amo"}, {"fetchadduintptr_llsc", "fetchadd64_llsc"},
		{"swapuintptr_amo", "swap64_amo"}, {"swapuintptr_llsc", "swap64_llsc"}, {"casuintptr_llsc", "cas64_llsc"},
		{"loadacquireuintptr_dbar", "loadacquire64_dbar"}, {"storereleaseuintptr_dbar", "storerelease64_dbar"},
		{"storereleaseuintptr_amswap", "storerelease64_amswap"},
		{"FetchAddUintptr", "FetchAddUint64"}, {"SwapUintptr", "SwapUint64"}, {"CompareAndSwapUintptr", "CompareAndSwapUint64"},
		{"StoreReleaseUintptr", "StoreReleaseUint64"}} {
		expect[c[0]] = expect[c[1]]
	}
	// spinlock32: the plain test load, the budget while held, then
	// cas32's sequence.
	expect["spinlock32_llsc"] = []string{"ld.wu $r5, $r3, 16", "ld.w $r7, $r4, 0", "beqz $r7", "beqz $r5", "addi.d $r5, $r5, -1", "b",
		"dbar 0x14", "move $r8, $r6", "ll.w $r7, $r4, 0", "bnez $r7", "sc.w $r8, $r4, 0", "beqz $r8", "dbar 0x12", "st.b $r6", "ret", "st.b $r0", "ret"}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	checked := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		var names []string
		for _, v := range op.AsmVariants("loong64") {
			names = append(names, op.Symbol(v.Name))
		}
		// hal's own entry, unless it is Go (an op with a Go variant)
		// or the inlined intrinsic.
		if !op.HasGoVariant("loong64") && !op.InlineBinding("loong64") {
			names = append(names, op.GoName)
		}
		checked += funcs.Check(t, names, expect, notAsOrdered, "breaks the design's ordering rules")
	}
	t.Logf("%d functions checked; fetchadd64_llsc: %s", checked, strings.Join(funcs.Get(t, "fetchadd64_llsc"), "; "))
}

// disassemble decodes every function symbol of a loong64 ELF binary.
func disassemble(t *testing.T, bin string) map[string][]string {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != elf.EM_LOONGARCH {
		t.Fatalf("%s is not a LoongArch binary: %v", bin, f.Machine)
	}
	text := f.Section(".text")
	data, err := text.Data()
	if err != nil {
		t.Fatal(err)
	}
	symbols, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range symbols {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value < text.Addr || s.Value+s.Size > text.Addr+text.Size ||
			!strings.HasPrefix(s.Name, "github.com/gohal/gohal/hal") {
			continue
		}
		code := data[s.Value-text.Addr : s.Value-text.Addr+s.Size]
		var insns []string
		for i := 0; i+4 <= len(code); i += 4 {
			insn, err := decode(binary.LittleEndian.Uint32(code[i:]))
			if err != nil {
				t.Fatal(err)
			}
			insns = append(insns, insn)
		}
		out[s.Name] = insns
	}
	return out
}
