package haltool

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/internal/tooling"
	"github.com/gohal/gohal/internal/binding"
)

// Force makes variant the live implementation of op, as GOHAL=op=variant
// would have at init, and returns a function that restores the previous
// choice. It is for tests and benchmarks that compare variants in one
// process: call it only while no other goroutine is using op. Every
// variant of an op keeps the same memory layout, so values written under
// one are valid under another. A 128-bit op takes the others of its group
// along ([dispatch.Group]), as GOHAL does, and the restore function brings
// all of them back. [hal.Selected] and [Table] report the forced choice.
//
// Force returns an *dispatch.OverrideError for an unknown op or variant or
// a variant this CPU cannot run, and in a gohal_static build for any
// variant but the one compiled in; nothing changes then. (Forcing the
// compiled-in variant of a static build changes nothing and succeeds.)
func Force(op, variant string) (restore func(), err error) {
	return tooling.Hal.Force(op, variant)
}

// Ops returns the names of the ops in this build, in spec order (as
// [hal.Selected] lists them, without the asymmetric fence pair's
// "fenceheavy", which [Variants] and [Force] also take).
func Ops() []string { return tooling.Hal.Ops() }

// Variants returns the variants of op compiled into this build, in order of
// preference, whether or not this CPU can run them, and false for an
// unknown op.
func Variants(op string) ([]dispatch.Variant, bool) { return tooling.Hal.Variants(op) }

// Runnable reports whether this CPU can run the named variant of op, and if
// not, the first missing feature. An unknown op or variant reports false
// with an empty feature.
func Runnable(op, variant string) (ok bool, missing string) {
	return tooling.Hal.Runnable(op, variant)
}

// A BindingKind is how hal's exported function for an op reaches the op's
// variant in this build, as [Binding] reports it. The generator decides it
// from the op spec; module github.com/gohal/gohal/gen documents the rules
// ("Bindings").
type BindingKind string

// The bindings, in the order gen's rules try them.
const (
	// Inline: a Go function over the sync/atomic intrinsic that is the
	// op's only variant; the compiler inlines it into the caller.
	Inline = BindingKind(binding.Inline)
	// Plain: a Go function that is the op's plain access (amd64's MOV as
	// the release store), its only variant; inlined into the caller.
	Plain = BindingKind(binding.Plain)
	// Guarded: a Go function that runs the op's sync/atomic intrinsic
	// inline while the op's one-byte guard is clear, and otherwise calls
	// the op's flag entry; [Inlined] says which, now.
	Guarded = BindingKind(binding.Guarded)
	// Flag: an entry that reads the op's one-byte flag, set at init and
	// by [Force], and branches to (assembly) or calls (Go) the chosen
	// variant.
	Flag = BindingKind(binding.Flag)
	// Single: an entry that is, or calls, the op's one variant.
	Single = BindingKind(binding.Single)
	// Static: a gohal_static build's compile-time choice, hal/direct's
	// Static<Op> function.
	Static = BindingKind(binding.Static)
	// Portable: the portable build (purego, race, or a GOARCH without a
	// backend), where every op is hal's Go fallback.
	Portable = BindingKind(binding.Portable)
)

// Binding reports how the exported function of op reaches its variant in
// this build, and "" for an unknown op. An op bound [Guarded] runs
// sync/atomic's inlined intrinsic while its variant is the one the
// intrinsic runs on this CPU, and calls its flag entry once GOHAL or
// [Force] chooses another; [Inlined] says which, now.
func Binding(op string) BindingKind { return BindingKind(tooling.Hal.Binding(op)) }

// Inlined reports whether op's exported function runs, now, the compiler's
// inlined sync/atomic intrinsic with no call: always for an op bound
// [Inline] or [Plain] (a plain access, inlined the same way), and for one
// bound [Guarded] while its guard is clear (the chosen variant is what the
// intrinsic runs on this CPU). Otherwise it reports false: for an op bound
// in assembly, for the static and portable builds, and for an unknown op.
func Inlined(op string) bool { return tooling.Hal.Inlined(op) }

// Entry is one op's row in a [DispatchTable]: Variant, the name of the
// chosen variant; Reason, why it was chosen (as in [hal.Choice]); and
// Func, a func value that calls it, of the type of hal's function for the
// op.
type Entry[F any] = tooling.Entry[F]

// Table returns hal's dispatch table. The pointer is to hal's own table:
// read it, do not write it. It changes only under [Force].
func Table() *DispatchTable { return (*DispatchTable)(&tooling.Table) }

// hal is imported for its init, which fills the table and the functions
// above, and for the doc links.
var _ = hal.Selected
