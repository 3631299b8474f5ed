package backend

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/gohal/gohal/gen/spec"
)

// TextEmitter is the part of a Go-assembler text backend that does not
// depend on the instruction set: the buffer, TEXT symbols with their
// argument frame, labels, comments, instructions, WORD-encoded
// instructions, argument and result operands, and the file around them.
// The arm64 and riscv64 backends embed it and add their bodies and their
// Select; it provides Backend's Text, Label, Comment and Finish.
type TextEmitter struct {
	buf   bytes.Buffer
	frame spec.Frame

	// LoadOp and StoreOp name the move that loads an argument of the
	// given size in bytes into a register, and stores a register into a
	// result of that size.
	LoadOp, StoreOp func(size int) string

	// PtrSize is the architecture's pointer size in bytes (spec.PtrSize);
	// 0 means 8. It lays out the argument frame (spec.Op.FrameFor).
	PtrSize int
	// BigEndian says that the high half of a uint64 argument on a 32-bit
	// architecture is at its lower address (ArgHalf).
	BigEndian bool
}

// Text implements Backend.
func (e *TextEmitter) Text(name string, op *spec.Op, doc []string) {
	ptr := e.PtrSize
	if ptr == 0 {
		ptr = 8
	}
	e.frame = op.FrameFor(ptr)
	e.buf.WriteString("\n")
	for _, d := range doc {
		fmt.Fprintf(&e.buf, "// %s\n", d)
	}
	fmt.Fprintf(&e.buf, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, e.frame.Size)
}

// Label implements Backend.
func (e *TextEmitter) Label(name string) { fmt.Fprintf(&e.buf, "%s:\n", name) }

// Comment implements Backend.
func (e *TextEmitter) Comment(lines ...string) {
	for _, l := range lines {
		fmt.Fprintf(&e.buf, "\t// %s\n", l)
	}
}

// Finish implements Backend; the next Text starts a new file.
func (e *TextEmitter) Finish(header string, tags []string) ([]byte, error) {
	var out bytes.Buffer
	fmt.Fprintf(&out, "// %s\n\n", header)
	fmt.Fprintf(&out, "//go:build %s\n\n", strings.Join(tags, " && "))
	out.WriteString("#include \"textflag.h\"\n")
	out.Write(e.buf.Bytes())
	e.buf.Reset()
	return out.Bytes(), nil
}

// Ins writes one instruction: mnemonic, then operands separated by ", ".
func (e *TextEmitter) Ins(mnemonic string, operands ...string) {
	if len(operands) == 0 {
		fmt.Fprintf(&e.buf, "\t%s\n", mnemonic)
		return
	}
	fmt.Fprintf(&e.buf, "\t%-9s %s\n", mnemonic, strings.Join(operands, ", "))
}

// Ret writes RET.
func (e *TextEmitter) Ret() { e.Ins("RET") }

// Word writes a WORD-encoded instruction with its disassembly as a
// comment (the backends' tests check that comment against binutils).
func (e *TextEmitter) Word(w uint32, asm string) {
	fmt.Fprintf(&e.buf, "\t%-9s $%#08x // %s\n", "WORD", w, asm)
}

// Arg returns the frame operand of the named argument or result,
// "addr+0(FP)".
func (e *TextEmitter) Arg(name string) string {
	s := e.frame.Slot(name)
	return fmt.Sprintf("%s+%d(FP)", s.Name, s.Offset)
}

// ArgHalf returns the frame operand of the low (hi false) or high half
// of a uint64 argument or result on a 32-bit architecture:
// "old_lo+4(FP)", "old_hi+8(FP)", the names go vet expects.
func (e *TextEmitter) ArgHalf(name string, hi bool) string {
	s := e.frame.Slot(name)
	off, half := s.Offset, "lo"
	if hi {
		half = "hi"
	}
	if hi != e.BigEndian {
		off += 4
	}
	return fmt.Sprintf("%s_%s+%d(FP)", s.Name, half, off)
}

// ResultName returns the name of the i-th result ("ret", "swapped"),
// for ArgHalf.
func (e *TextEmitter) ResultName(i int) string { return e.frame.Results[i].Name }

// Result returns the frame operand of the i-th result.
func (e *TextEmitter) Result(i int) string {
	s := e.frame.Results[i]
	return fmt.Sprintf("%s+%d(FP)", s.Name, s.Offset)
}

// Load moves the named argument into register r with LoadOp of its size.
func (e *TextEmitter) Load(name, r string) {
	e.Ins(e.LoadOp(e.frame.Slot(name).Size), e.Arg(name), r)
}

// Store moves register r into the i-th result with StoreOp of its size.
func (e *TextEmitter) Store(r string, i int) {
	e.Ins(e.StoreOp(e.frame.Results[i].Size), r, e.Result(i))
}

// Moves returns a LoadOp or StoreOp: the mnemonic b for a 1-byte value, w
// for a 4-byte one, d for any other size (the 8-byte words).
func Moves(b, w, d string) func(size int) string {
	return func(size int) string {
		switch size {
		case 1:
			return b
		case 4:
			return w
		}
		return d
	}
}

// Bodies maps "op/variant" to a backend's body of that variant. A
// backend's Implements is its Bodies' Implements, so the list the driver
// checks against the spec is derived from the bodies themselves.
type Bodies[B any] map[string]B

// Implements returns the keys, sorted: the "op/variant" pairs the backend
// can write.
func (m Bodies[B]) Implements() []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Lookup returns the body of op's variant v, or an error naming the
// architecture when there is none.
func (m Bodies[B]) Lookup(arch string, op *spec.Op, v spec.Variant) (B, error) {
	b, ok := m[op.Name+"/"+v.Name]
	if !ok {
		return b, fmt.Errorf("no %s body for %s/%s", arch, op.Name, v.Name)
	}
	return b, nil
}

// WriteBody writes op's variant v on the text backend e with its body in
// m, labels prefixed with prefix: the whole of a text backend's Variant.
// The error for a missing body names e.Arch().
func WriteBody[E interface{ Arch() string }, B ~func(E, string) error](m Bodies[B], e E, op *spec.Op, v spec.Variant, prefix string) error {
	f, err := m.Lookup(e.Arch(), op, v)
	if err != nil {
		return err
	}
	return f(e, prefix)
}

// Pending returns the text written since the last Finish (for tests).
func (e *TextEmitter) Pending() string { return e.buf.String() }

// TailJump implements Backend: a jump to ·name with this function's own
// argument frame (on arm64 with LR still the caller's, as the entries have
// no frame).
func (e *TextEmitter) TailJump(name string) { e.Ins("JMP", "·"+name+"(SB)") }
