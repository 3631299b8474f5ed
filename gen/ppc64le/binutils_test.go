package ppc64le

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/spec"
)

// These tests check the generated code with a real Power toolchain,
// Debian's binutils-powerpc64le-linux-gnu, and skip when it is not
// installed.

func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (Debian package binutils-powerpc64le-linux-gnu)", name)
	}
	return p
}

var wordLine = regexp.MustCompile(`^\tWORD\s+\$(0x[0-9a-f]{8}) // (.+)$`)

// TestWordsMatchBinutils assembles the GNU syntax written beside every WORD
// of the generated files and of the quadword bodies (quad.go) with
// powerpc64le-linux-gnu-as and checks that it produces exactly the word
// the emitter computed. The generated files hold no WORD today (every
// instruction they use is the Go assembler's own): the quadword bodies'
// are the ones checked.
func TestWordsMatchBinutils(t *testing.T) {
	as := needTool(t, "powerpc64le-linux-gnu-as")
	objcopy := needTool(t, "powerpc64le-linux-gnu-objcopy")
	var words []uint32
	var src strings.Builder
	for _, line := range strings.Split(generate(t)+renderQuad(t, false)+renderQuad(t, true), "\n") {
		m := wordLine.FindStringSubmatch(line)
		if m == nil {
			if f := strings.Fields(line); len(f) > 0 && f[0] == "WORD" {
				t.Errorf("WORD line without GNU syntax comment: %q", line)
			}
			continue
		}
		w, err := strconv.ParseUint(m[1], 0, 32)
		if err != nil {
			t.Fatal(err)
		}
		words = append(words, uint32(w))
		src.WriteString(m[2] + "\n")
	}
	if len(words) < 2*len(quadBodies) {
		t.Fatalf("only %d WORDs in the generated and quadword code", len(words))
	}
	dir := t.TempDir()
	s, o, bin := filepath.Join(dir, "w.s"), filepath.Join(dir, "w.o"), filepath.Join(dir, "w.bin")
	if err := os.WriteFile(s, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// -mpower8: the ISA level Go's ppc64le requires (lq, stq, lqarx and
	// stqcx. are in it); -mregnames: accept r4 for register 4.
	if out, err := exec.Command(as, "-mpower8", "-mregnames", "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\n%s", as, err, out, src.String())
	}
	if out, err := exec.Command(objcopy, "-O", "binary", "-j", ".text", o, bin).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", objcopy, err, out)
	}
	text, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(text) != 4*len(words) {
		t.Fatalf("binutils assembled %d bytes for %d words", len(text), len(words))
	}
	lines := strings.Split(strings.TrimSpace(src.String()), "\n")
	for i, w := range words {
		if got := binary.LittleEndian.Uint32(text[4*i:]); got != w {
			t.Errorf("%s: emitter wrote %#08x, binutils assembles %#08x", lines[i], w, got)
		}
	}
}

// disassemble returns the instructions of every function in a ppc64le ELF
// binary by symbol, as "mnemonic operands" with objdump's spacing reduced
// to one space.
func disassemble(t *testing.T, bin string) map[string][]string {
	t.Helper()
	objdump := needTool(t, "powerpc64le-linux-gnu-objdump")
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", bin).Output()
	if err != nil {
		t.Fatalf("%s: %v", objdump, err)
	}
	fn := regexp.MustCompile(`^[0-9a-f]+ <(.+)>:$`)
	ins := regexp.MustCompile(`^\s+[0-9a-f]+:\s+(\S+)\s*(\S*)`)
	syms := map[string][]string{}
	var cur string
	for _, line := range strings.Split(string(out), "\n") {
		if m := fn.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if m := ins.FindStringSubmatch(line); m != nil && cur != "" {
			syms[cur] = append(syms[cur], strings.TrimSpace(m[1]+" "+m[2]))
		}
	}
	return syms
}

// hasSeq reports whether want appears in got in order (not necessarily
// adjacent); each want entry matches an instruction equal to it or
// starting with it followed by a space or a comma ("lbz r3" matches
// "lbz r3,13823(r3)", "and" matches "and r6,r5,r4" but not "andi. ...").
func hasSeq(got []string, want ...string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && (g == want[i] || strings.HasPrefix(g, want[i]+" ") || strings.HasPrefix(g, want[i]+",")) {
			i++
		}
	}
	return i == len(want)
}

// notAsOrdered reports an instruction (as objdump prints it) that hal's
// ppc64le design never uses: a load-and-reserve with the EH hint set
// (",1"), which tells the core the word is a lock about to be released,
// or the ordering-free eieio/mbar in place of a sync.
func notAsOrdered(insn string) bool {
	f := strings.Fields(insn)
	switch f[0] {
	case "lwarx", "ldarx", "lqarx":
		return len(f) > 1 && strings.Count(f[1], ",") != 2
	case "eieio", "mbar":
		return true
	}
	return false
}

func TestNotAsOrdered(t *testing.T) {
	for insn, want := range map[string]bool{
		"lwarx r6,0,r3":   false,
		"lwarx r6,0,r3,1": true, // Go's LWAR (R3), $1, R6
		"ldarx r5,0,r3":   false,
		"ldarx r5,0,r3,1": true,
		"stdcx. r6,0,r3":  false,
		"hwsync":          false,
		"eieio":           true,
		"ld r4,0(r3)":     false,
	} {
		if got := notAsOrdered(insn); got != want {
			t.Errorf("notAsOrdered(%q) = %v, want %v", insn, got, want)
		}
	}
}

// TestGoToolchainEncodings builds package hal's tests for ppc64le and
// disassembles the binary: every variant and entry the spec lists must be
// there with the fences the design asks for (the Go assembler encodes
// every instruction of them: SYNC as hwsync, the priority hints as mr
// rN,rN, or 27,27,27 as yield, MOVD SPR(268) as mftb), and no assembly
// function of hal's may hold a load-and-reserve with the EH hint. It checks
// the committed hal/asm_ppc64le.s and hal/direct/zdirect_ppc64le.s, which
// TestGeneratedFilesUpToDate keeps fresh.
func TestGoToolchainEncodings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hal's tests for ppc64le")
	}
	needTool(t, "powerpc64le-linux-gnu-objdump")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "hal.test")
	cmd := exec.Command(gobin, "test", "-c", "-o", bin, "github.com/gohal/gohal/hal")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=ppc64le", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	syms := disassemble(t, bin)
	// The variants live in hal/direct under their exported names; the
	// entries in hal.
	symOf := map[string]string{}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		for _, v := range op.AsmVariants("ppc64le") {
			symOf[op.Symbol(v.Name)] = "github.com/gohal/gohal/hal/direct." + op.DirectName(v.Name) + ".abi0"
		}
	}
	get := func(name string) []string {
		sym, ok := symOf[name]
		if !ok {
			sym = "github.com/gohal/gohal/hal." + name + ".abi0"
		}
		insns, ok := syms[sym]
		if !ok {
			t.Errorf("%s (%s) is not in the binary", name, sym)
		}
		return insns
	}
	lead := map[string]string{"lwsync": "lwsync", "sync": "hwsync"}
	expect := map[string][]string{
		"pause_ppr":                  {"mr r1,r1", "mr r6,r6", "blr"},
		"pause_yield":                {"yield", "blr"},
		"fence_sync":                 {"hwsync", "blr"},
		"loadacquire32_isync":        {"lwz r4,0(r3)", "cmpw r4,r4", "bne", "isync"},
		"loadacquire64_isync":        {"ld r4,0(r3)", "cmpd r4,r4", "bne", "isync"},
		"loadacquire32_lwsync":       {"lwz r4,0(r3)", "lwsync"},
		"loadacquire64_lwsync":       {"ld r4,0(r3)", "lwsync"},
		"storerelease32_lwsync":      {"lwsync", "stw r4,0(r3)"},
		"storerelease64_lwsync":      {"lwsync", "std r4,0(r3)"},
		"cycles_isync_mftb":          {"isync", "mftb r3"},
		"cycles_mftb":                {"mftb r3"},
		"cpu_syscall":                {"li r0,302", "sc", "xor r0,r0,r0", "cmpdi r3,0", "bne", "lwz r3,0(r4)", "std r3"},
		"Pause":                      {"lbz r3", "cmpdi r3,0", "bne", "mr r1,r1", "mr r6,r6", "blr", "yield"},
		"Fence":                      {"hwsync"},
		"Cycles":                     {"lbz r3", "isync", "mftb r3", "blr", "mftb r3"},
		"CPU":                        {"lbz r3", "sc", "b"},
		"spinlock32_llsc":            {"lwz r7,0(r3)", "cmpwi r7,0", "bne", "lwsync", "lwarx r7,0,r3", "cmpwi r7,0", "bne", "stwcx. r5,0,r3", "bne", "hwsync", "stb r5", "blr", "cmpwi r4,0", "beq", "addi r4,r4,-1", "mr r1,r1", "mr r6,r6", "b", "stb r0", "blr"},
		"StoreReleaseUint32":         {"lwsync", "stw r4,0(r3)"},
		"StoreReleaseUint64":         {"lwsync", "std r4,0(r3)"},
		"StoreReleaseUintptr":        {"lwsync", "std r4,0(r3)"},
		"storereleaseuintptr_lwsync": {"lwsync", "std r4,0(r3)"},
	}
	expect["spinLockUint32"] = expect["spinlock32_llsc"]
	// The read-modify-writes of each width (uintptr is 64 bits), their
	// entries (the flag byte, the branch, both bodies) and the acquire
	// loads' entries.
	entry := func(a, b []string) []string {
		return append(append([]string{"lbz r3", "cmpdi r3,0", "bne"}, a...), b...)
	}
	for _, w := range []struct{ op, name, x, cmp, load string }{
		{"32", "Uint32", "w", "cmpw", "32"},
		{"64", "Uint64", "d", "cmpd", "64"},
		{"uintptr", "Uintptr", "d", "cmpd", "64"},
	} {
		larx, stcx := "l"+w.x+"arx", "st"+w.x+"cx."
		for v, f := range lead {
			expect["cas"+w.op+"_"+v] = []string{f, larx + " r6,0,r3", w.cmp + " r6,r4", "bne", stcx + " r5,0,r3", "bne", "hwsync", "li r6,1", "stb r6", "blr", "isync", "stb r0", "blr"}
			expect["fetchadd"+w.op+"_"+v] = []string{f, larx + " r5,0,r3", "add r6,r5,r4", stcx + " r6,0,r3", "bne", "hwsync"}
			expect["swap"+w.op+"_"+v] = []string{f, larx + " r5,0,r3", stcx + " r4,0,r3", "bne", "hwsync"}
			for _, b := range []string{"or", "and"} {
				expect["fetch"+b+w.op+"_"+v] = []string{f, larx + " r5,0,r3", b + " r6,r5,r4", stcx + " r6,0,r3", "bne", "hwsync"}
			}
		}
		for _, op := range [][2]string{{"CompareAndSwap", "cas"}, {"FetchAdd", "fetchadd"}, {"Swap", "swap"}, {"FetchOr", "fetchor"}, {"FetchAnd", "fetchand"}} {
			expect[op[0]+w.name] = entry(expect[op[1]+w.op+"_lwsync"], expect[op[1]+w.op+"_sync"])
		}
		expect["loadacquire"+w.op+"_isync"] = expect["loadacquire"+w.load+"_isync"]
		expect["loadacquire"+w.op+"_lwsync"] = expect["loadacquire"+w.load+"_lwsync"]
		expect["LoadAcquire"+w.name] = entry(expect["loadacquire"+w.load+"_isync"], expect["loadacquire"+w.load+"_lwsync"])
	}
	// Every assembly function the spec implies is checked.
	checked := 0
	for i := range spec.Ops {
		op := &spec.Ops[i]
		names := []string{}
		for _, v := range op.AsmVariants("ppc64le") {
			names = append(names, op.Symbol(v.Name))
		}
		if !op.GoEntry("ppc64le") {
			names = append(names, op.GoName)
		}
		for _, name := range names {
			want, ok := expect[name]
			if !ok {
				t.Errorf("%s: no expected instructions in this test", name)
				continue
			}
			got := get(name)
			if !hasSeq(got, want...) {
				t.Errorf("%s: want %q in order, disassembly:\n\t%s", name, want, strings.Join(got, "\n\t"))
			}
			for _, insn := range got {
				if notAsOrdered(insn) {
					t.Errorf("%s: %q is not an ordering the design uses", name, insn)
				}
			}
			checked++
		}
	}
	t.Logf("checked %d functions; fetchadd64_lwsync: %s", checked, strings.Join(get("fetchadd64_lwsync"), "; "))
}
