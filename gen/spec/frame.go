package spec

import (
	"fmt"
	"go/types"
)

// Slot is one argument or result in an assembly function's argument frame
// (Go's ABI0: everything on the stack, above the return address).
type Slot struct {
	Name   string // the name the assembler and go vet expect: the Go name, or "ret", "ret1", ... for unnamed results
	Type   string
	Offset int
	Size   int
}

// Frame is the ABI0 argument frame of an op on one architecture.
type Frame struct {
	Params  []Slot
	Results []Slot
	Size    int // bytes of arguments and results: the N of "$0-N"
}

// Slot returns the named argument or result.
func (f *Frame) Slot(name string) Slot {
	for _, s := range append(append([]Slot(nil), f.Params...), f.Results...) {
		if s.Name == name {
			return s
		}
	}
	panic(fmt.Sprintf("spec: no argument or result %q in frame", name))
}

// Frame lays out op's arguments as the Go toolchain does for an assembly
// function on a 64-bit architecture: each value at an offset aligned to its
// size, results (if any) starting at the next multiple of the pointer size after
// the arguments, and the total not rounded up.
func (op *Op) Frame() Frame { return op.FrameFor(8) }

// FrameFor lays out op's arguments for an architecture whose pointers are
// ptrSize bytes (4 on 386, arm, mips and mipsle, 8 elsewhere: PtrSize). On
// a 32-bit architecture int, uintptr and pointers take 4 bytes and a
// uint64 is aligned to 4 only, as Go aligns it there (go/types' gc sizes);
// go vet then names its halves name_lo and name_hi.
func (op *Op) FrameFor(ptrSize int) Frame {
	var f Frame
	off := 0
	place := func(p Param, name string) Slot {
		size := typeSize(p.Type)
		if ptrSize == 4 && size == 8 && p.Type != "uint64" {
			size = 4 // int, uintptr and pointers
		}
		off = align(off, min(size, ptrSize))
		s := Slot{Name: name, Type: p.Type, Offset: off, Size: size}
		off += size
		return s
	}
	for _, p := range op.Params {
		f.Params = append(f.Params, place(p, p.Name))
	}
	if len(op.Results) > 0 {
		off = align(off, ptrSize)
	}
	for i, p := range op.Results {
		name := p.Name
		if name == "" {
			name = "ret"
			if i > 0 {
				name = fmt.Sprintf("ret%d", i)
			}
		}
		f.Results = append(f.Results, place(p, name))
	}
	f.Size = off
	return f
}

// PtrSize returns the size of a pointer on goarch in bytes, from go/types'
// sizes for the gc compiler (8 for a GOARCH it does not know).
func PtrSize(goarch string) int {
	if s := types.SizesFor("gc", goarch); s != nil {
		return int(s.Sizeof(types.Typ[types.Uintptr]))
	}
	return 8
}

func align(n, a int) int { return (n + a - 1) / a * a }

func typeSize(t string) int {
	switch t {
	case "bool", "uint8":
		return 1
	case "uint32":
		return 4
	case "int", "uint64", "uintptr", "*uint32", "*uint64", "*uintptr", "*[2]uint64":
		return 8
	}
	panic("spec: no size for type " + t)
}
