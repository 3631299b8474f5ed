package hal

// The DispatchTable type, one typed row constructor per op (row<Op>) and
// portableOps are generated from the op spec into ztable.go. This file
// holds the generic pieces they are built from.

// Entry is one op's row in the [DispatchTable]: the chosen variant, why it
// was chosen, and a func value that calls it. It is tooling (see the
// package documentation, "Tooling").
type Entry[F any] struct {
	Variant string
	Reason  string
	Func    F
}

// Table returns the dispatch table. The pointer is to the package's
// own table: read it, do not write it. It changes only under [Force]. It
// is tooling (see the package documentation, "Tooling").
func Table() *DispatchTable { return &table }

// variant is one implementation of an op as the generated archOps list
// spells it: its name, the CPU features it needs, and a func value of the
// op's Go signature F: an assembly function of package hal/direct
// (calling it as a func value pays the ABI wrapper, see DispatchTable) or
// hal's own <op>_portable. F being the op's signature, a row whose
// function does not match fails to compile.
type variant[F any] struct {
	name     string
	requires []string
	fn       F
}

// opImpl is one op as compiled into this build: its spec name, the flag
// byte its entry reads (nil when there is nothing to choose at run time)
// and its variants in order of preference. How the exported function
// reaches the chosen variant is the op's binding (see Binding).
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
	set      func(t *DispatchTable, reason string)
}

// row builds op name's opImpl from its typed variants; store writes an
// Entry into the op's field of a DispatchTable. The generated row<Op>
// functions call it with their op's signature as F.
func row[F any](name string, sel *uint8, store func(*DispatchTable, Entry[F]), vs []variant[F]) opImpl {
	op := opImpl{name: name, sel: sel}
	for _, v := range vs {
		op.variants = append(op.variants, variantImpl{
			name:     v.name,
			requires: v.requires,
			set: func(t *DispatchTable, reason string) {
				store(t, Entry[F]{Variant: v.name, Reason: reason, Func: v.fn})
			},
		})
	}
	return op
}
