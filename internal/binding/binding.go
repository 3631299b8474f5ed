// Package binding names the ways hal's exported function for an op reaches
// its variant.
//
// The generator (module github.com/gohal/gohal/gen, which imports this
// package through its replace directive: the module path is under
// github.com/gohal/gohal, so Go's internal rule lets it) and package hal
// use them, so the names cannot drift apart. Users see them as package
// hal/haltool's BindingKind constants, the values of haltool.Binding,
// which are these converted (a test there holds the two lists equal).
//
// The rules that decide an op's binding are written once, in the
// generator's documentation ("Bindings"); the comments here only say what
// each one is.
package binding

// Kind is how an op's exported function reaches its variant.
type Kind string

const (
	// Inline: a Go function over the sync/atomic intrinsic that is the
	// op's only variant; the compiler inlines it into the caller.
	Inline Kind = "inline"
	// Plain: a Go function that is the op's plain (non-atomic) access,
	// where that access is the op's only variant (amd64's MOV as the
	// release store); the compiler inlines it into the caller.
	Plain Kind = "plain"
	// Guarded: a Go function that runs the op's sync/atomic intrinsic
	// inline while the op's one-byte guard is 0, and otherwise calls the
	// op's flag entry (as Flag). hal sets the guard, at init and under
	// Force, only when the chosen variant is not what the intrinsic runs
	// on this CPU, so the default path has no call and an override
	// (GOHAL, haltool.Force) still reaches its variant.
	Guarded Kind = "guarded"
	// Flag: an entry that reads the op's one-byte flag, set at init, and
	// branches to (assembly) or calls (Go entry) the chosen variant.
	Flag Kind = "flag"
	// Single: an entry that is, or calls, the op's one variant.
	Single Kind = "single"
	// Static: a gohal_static build's compile-time choice, hal/direct's
	// Static<Op> function.
	Static Kind = "static"
	// Portable: the portable build (purego, race, or a GOARCH without a
	// backend), where every op is hal's Go fallback <op>_portable.
	Portable Kind = "portable"
)

// All lists every Kind, in the order above.
var All = []Kind{Inline, Plain, Guarded, Flag, Single, Static, Portable}
