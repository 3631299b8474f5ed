package hal

import "github.com/gohal/gohal/hal/internal/tooling"

// The dispatch table, tooling.Table (its type generated into
// internal/tooling/ztable.go), holds each op's choice as a func value for
// package hal/haltool; hal writes it in apply and reads it nowhere. One
// typed row constructor per op (row<Op>) and portableOps are generated
// into ztable.go. This file holds the generic pieces they are built from.

// variant is one implementation of an op as the generated archOps list
// spells it: its name, the CPU features it needs, and a func value of the
// op's Go signature F: an assembly function of package hal/direct
// (calling it as a func value pays the ABI wrapper, see
// haltool.DispatchTable) or hal's own <op>_portable. F being the op's
// signature, a row whose function does not match fails to compile.
type variant[F any] struct {
	name     string
	requires []string
	fn       F
}

// opImpl is one op as compiled into this build: its spec name, the flag
// byte its entry reads (nil when there is nothing to choose at run time)
// and its variants in order of preference. How the exported function
// reaches the chosen variant is the op's binding (see bindingOf).
type opImpl struct {
	name     string
	sel      *uint8
	variants []variantImpl
}

// variantImpl is a variant with its type erased, and set, which stores
// the variant's func value in the op's row of a DispatchTable.
type variantImpl struct {
	name     string
	requires []string
	set      func(t *tooling.DispatchTable, reason string)
}

// row builds op name's opImpl from its typed variants; store writes an
// Entry into the op's field of a DispatchTable. The generated row<Op>
// functions call it with their op's signature as F.
func row[F any](name string, sel *uint8, store func(*tooling.DispatchTable, tooling.Entry[F]), vs []variant[F]) opImpl {
	op := opImpl{name: name, sel: sel}
	for _, v := range vs {
		op.variants = append(op.variants, variantImpl{
			name:     v.name,
			requires: v.requires,
			set: func(t *tooling.DispatchTable, reason string) {
				store(t, tooling.Entry[F]{Variant: v.name, Reason: reason, Func: v.fn})
			},
		})
	}
	return op
}
