// Package tooling is what package hal hands to package hal/haltool
// without exporting it: the dispatch table and hal's tooling functions.
//
// Package hal writes [Table] (at init and under Force) and sets [Hal] in
// its init; hal/haltool, which imports hal and so runs after that init,
// reads both. Nothing here is on an op's call path: hal's exported
// functions read hal's own flag and guard bytes, never the table.
//
// DispatchTable (ztable.go) is generated from the op spec, as is
// haltool.DispatchTable, a struct with the same fields, which haltool's
// Table converts a pointer to Table into; the conversion fails to compile
// if the two ever differ.
package tooling

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/binding"
)

// Entry is one op's row in a DispatchTable: the chosen variant, why it
// was chosen, and a func value that calls it.
type Entry[F any] struct {
	Variant string
	Reason  string
	Func    F
}

// Table is hal's live dispatch table.
var Table DispatchTable

// Hal holds hal's tooling functions, set by hal's init; haltool's
// functions of the same names call them.
var Hal struct {
	Force    func(op, variant string) (restore func(), err error)
	Binding  func(op string) binding.Kind
	Inlined  func(op string) bool
	Ops      func() []string
	Variants func(op string) ([]dispatch.Variant, bool)
	Runnable func(op, variant string) (ok bool, missing string)
}
