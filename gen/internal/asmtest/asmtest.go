// Package asmtest holds the test helpers that every text backend's tests
// share.
//
// They generate a backend's assembly, build package hal's tests for a
// GOARCH, find hal's assembly functions in that binary, check their
// instructions, and drive a GNU binutils cross toolchain (assembling the
// GNU syntax written beside raw-encoded instructions, disassembling with
// objdump). What is particular to an ISA (the expected instructions, which
// of them break the design's rules, how raw bytes are written) stays in the
// backend's own tests.
package asmtest

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Generate runs the driver on b and returns every file it writes, keyed as
// backend.Generate keys them; it fails the test on an error.
func Generate(t testing.TB, b backend.Backend) map[string][]byte {
	t.Helper()
	files, err := backend.Generate(b)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Asm returns the assembly b generates for hal and hal/direct:
// asm_<arch>.s followed by direct/zdirect_<arch>.s.
func Asm(t testing.TB, b backend.Backend) string {
	t.Helper()
	files := Generate(t, b)
	return string(files["asm_"+b.Arch()+".s"]) + string(files["direct/zdirect_"+b.Arch()+".s"])
}

// GoVariantJump reports whether line is the tail jump of an op's entry to
// that op's Go variant (<op>_portable), for an op that has one on arch.
func GoVariantJump(arch, line string) bool {
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "JMP" {
		return false
	}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.HasGoVariant(arch) && f[1] == "·"+op.Name+"_portable(SB)" {
			return true
		}
	}
	return false
}

// HalTestBinary builds package hal's tests for linux/goarch without cgo
// (go test -c) and returns the binary's path in a temporary directory of
// t's. env is added to the go command's environment after those settings.
// It skips in -short mode and when there is no go command.
func HalTestBinary(t testing.TB, goarch string, env ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds hal's tests for " + goarch)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "hal.test")
	cmd := exec.Command(gobin, "test", "-c", "-o", bin, "github.com/gohal/gohal/hal")
	cmd.Env = append(append(os.Environ(), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0"), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin
}

// Funcs are the disassembled functions of hal's test binary for one
// GOARCH, by symbol, each a list of instructions in the disassembler's
// syntax.
type Funcs struct {
	syms   map[string][]string
	direct map[string]string
	abi0   string // the suffix of an assembly function's symbol
}

// ABI0Suffix returns the suffix the Go linker gives an assembly (ABI0)
// function's symbol on goarch: ".abi0" where Go code uses the register ABI
// (ABIInternal), so that the two differ; nothing where ABI0 is the only
// ABI (386, arm, mips, mipsle, mips64, mips64le).
func ABI0Suffix(goarch string) string {
	switch goarch {
	case "386", "arm", "mips", "mipsle", "mips64", "mips64le":
		return ""
	}
	return ".abi0"
}

// NewFuncs indexes syms, the instructions of every function of a binary by
// symbol, for looking up hal's assembly functions on arch by the names the
// spec gives them.
func NewFuncs(arch string, syms map[string][]string) *Funcs {
	direct := map[string]string{}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		for _, v := range op.AsmVariants(arch) {
			direct[op.Symbol(v.Name)] = "github.com/gohal/gohal/hal/direct." + op.DirectName(v.Name) + ABI0Suffix(arch)
		}
	}
	return &Funcs{syms: syms, direct: direct, abi0: ABI0Suffix(arch)}
}

// Get returns the instructions of the assembly function name, reporting an
// error when the binary lacks it. A variant (op.Symbol) lives in hal/direct
// under its exported name; any other name is hal's: one without a dot is
// an ABI0 function (".abi0" is added), one with a dot is the symbol's
// whole name within hal ("cas128U.abi0").
func (f *Funcs) Get(t testing.TB, name string) []string {
	t.Helper()
	sym, ok := f.direct[name]
	if !ok {
		sym = "github.com/gohal/gohal/hal." + name
		if !strings.Contains(name, ".") {
			sym += f.abi0
		}
	}
	insns, ok := f.syms[sym]
	if !ok {
		t.Errorf("%s (%s) is not in the binary", name, sym)
	}
	return insns
}

// Check checks each of names: expect must list instructions for it, its
// function must hold them in order (HasSeq), and bad must report none of
// its instructions, each that it does being an error "name: insn why". It
// returns how many functions it checked.
func (f *Funcs) Check(t testing.TB, names []string, expect map[string][]string, bad func(insn string) bool, why string) int {
	t.Helper()
	checked := 0
	for _, name := range names {
		want, ok := expect[name]
		if !ok {
			t.Errorf("%s: no expected instructions in this test", name)
			continue
		}
		got := f.Get(t, name)
		if !HasSeq(got, want...) {
			t.Errorf("%s: want %q in order, disassembly:\n\t%s", name, want, strings.Join(got, "\n\t"))
		}
		for _, insn := range got {
			if bad(insn) {
				t.Errorf("%s: %q %s", name, insn, why)
			}
		}
		checked++
	}
	return checked
}

// HasSeq reports whether want appears in got in order (not necessarily
// adjacent); each want entry matches an instruction equal to it or
// starting with it followed by a space or a comma ("lbu t0" matches
// "lbu t0,-699(t0)", "add" matches "add a3,a2,a1" but not "addw ...").
func HasSeq(got []string, want ...string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && (g == want[i] || strings.HasPrefix(g, want[i]+" ") || strings.HasPrefix(g, want[i]+",")) {
			i++
		}
	}
	return i == len(want)
}

// Binutils is a GNU binutils cross toolchain by its target triple
// ("riscv64-linux-gnu"), its tools named <triple>-as and so on, as
// Debian's package binutils-<triple> installs them.
type Binutils string

// Need returns the path of the toolchain's tool ("as", "objdump"), and
// skips the test when it is not installed.
func (b Binutils) Need(t testing.TB, tool string) string {
	t.Helper()
	name := string(b) + "-" + tool
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (Debian package binutils-%s)", name, string(b))
	}
	return p
}

// Assemble assembles src, GNU assembler source, with <triple>-as and the
// flags given, and returns the bytes of its .text section
// (<triple>-objcopy -O binary). A failure of either tool fails the test.
func (b Binutils) Assemble(t testing.TB, src string, asFlags ...string) []byte {
	t.Helper()
	as := b.Need(t, "as")
	objcopy := b.Need(t, "objcopy")
	dir := t.TempDir()
	s, o, bin := filepath.Join(dir, "w.s"), filepath.Join(dir, "w.o"), filepath.Join(dir, "w.bin")
	if err := os.WriteFile(s, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, append(append([]string(nil), asFlags...), "-o", o, s)...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\n%s", as, err, out, src)
	}
	if out, err := exec.Command(objcopy, "-O", "binary", "-j", ".text", o, bin).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", objcopy, err, out)
	}
	text, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

var wordLine = regexp.MustCompile(`^\tWORD\s+\$(0x[0-9a-f]{8}) // (.+)$`)

// CheckWords checks every "WORD $0x........ // <GNU syntax>" line of asm,
// Go assembler source of an ISA whose instructions are each one
// little-endian 32-bit word: the GNU syntax, assembled with asFlags, must
// produce exactly that word. A WORD without the comment is an error, and
// fewer than min WORDs fail the test.
func (b Binutils) CheckWords(t testing.TB, asm string, min int, asFlags ...string) {
	t.Helper()
	var words []uint32
	var src strings.Builder
	for _, line := range strings.Split(asm, "\n") {
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
	if len(words) < min {
		t.Fatalf("only %d WORDs in the generated code, want at least %d", len(words), min)
	}
	text := b.Assemble(t, src.String(), asFlags...)
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

// Operands says what of an instruction's operands Disassemble keeps.
type Operands int

const (
	// FirstField keeps objdump's first operand field, the operands
	// proper ("add a3,a2,a1"), dropping what follows it (a branch
	// target's "<symbol+offset>", a "# comment").
	FirstField Operands = iota
	// AllFields keeps every field, objdump's tabs and runs of spaces
	// folded to one space.
	AllFields
)

var (
	objdumpFunc = regexp.MustCompile(`^[0-9a-f]+ <(.+)>:$`)
	objdumpInsn = map[Operands]*regexp.Regexp{
		FirstField: regexp.MustCompile(`^\s+[0-9a-f]+:\s+(\S+)\s*(\S*)`),
		AllFields:  regexp.MustCompile(`^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$`),
	}
)

// Disassemble returns the instructions of every function in the ELF binary
// bin by symbol, as <triple>-objdump -d prints them, each "mnemonic
// operands" with the operands as keep says.
func (b Binutils) Disassemble(t testing.TB, bin string, keep Operands) map[string][]string {
	t.Helper()
	objdump := b.Need(t, "objdump")
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", bin).Output()
	if err != nil {
		t.Fatalf("%s: %v", objdump, err)
	}
	ins := objdumpInsn[keep]
	syms := map[string][]string{}
	var cur string
	for _, line := range strings.Split(string(out), "\n") {
		if m := objdumpFunc.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if m := ins.FindStringSubmatch(line); m != nil && cur != "" {
			if keep == AllFields {
				syms[cur] = append(syms[cur], strings.Join(strings.Fields(m[1]+" "+m[2]), " "))
			} else {
				syms[cur] = append(syms[cur], strings.TrimSpace(m[1]+" "+m[2]))
			}
		}
	}
	return syms
}
