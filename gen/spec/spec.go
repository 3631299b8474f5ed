// Package spec is the single description of gohal's hardware ops, which
// every code generator backend reads.
//
// It gives per op its spec name, the exported Go name, the Go signature and
// doc comment, and, per architecture, the variants in order of preference
// with the CPU features each requires.
//
// Nothing here says how a variant is implemented: that is the backend's
// business (gen/amd64, gen/arm64, ...). A backend must implement exactly the
// variants listed for its GOARCH, no more and no fewer; the driver checks.
// The one exception is a Go variant (see [Variant].Go): package hal
// implements it in Go, on every architecture alike, and no backend sees it.
// An op that the operating system does rather than the CPU (the heavy
// side of the asymmetric fence pair) has only Go variants, the same on
// every architecture, listed here in [Op].GoVariants rather than by the
// backends.
package spec

import (
	"fmt"
	"strings"

	"github.com/gohal/gohal/dispatch"
)

// Param is one parameter or result of an op's Go signature.
type Param struct {
	Name string // empty for an unnamed result
	Type string // Go type: int (64-bit frames only), uint32, uint64, uintptr, bool, *uint32, *uint64, *uintptr, *[2]uint64
}

// Variant is one implementation of an op on one architecture.
type Variant struct {
	Name     string   // lower case, [a-z0-9_]; the symbol is <op>_<name>
	Requires []string // dispatch.Feature* constants the CPU must have
	Why      string   // one line on what it is and when it wins; a comment in the generated code

	// Brief is the variant's text in the variants table (docs/variants.md), shown
	// after its name in parentheses ("CASAL"); the generator adds "needs
	// <feature>, ..." from Requires. Empty means the name alone.
	Brief string

	// Go marks a variant written in Go rather than by the backend: package
	// hal's function <op>_<name>, compiled into every build. The usual
	// one is named [PortableName], requires no feature and is
	// hal/portable.go's fallback; make it with [Portable]. Any other Go
	// variant reaches what the operating system offers (a system call,
	// as membarrier(2) for fenceheavy): it requires at least one of
	// [OSFeatures], which dispatch finds by a probe at init, and is
	// written by hand in hal beside the code that uses it. An op whose
	// variants on an architecture are all Go gets a Go entry instead of
	// an assembly one: it reads the op's flag byte and calls the chosen
	// variant; a Go variant beside assembly ones is a tail jump from the
	// assembly entry. hal/direct has no Go variants.
	Go bool

	// Intrinsic says that the Go compiler's intrinsic for the op's Inline
	// expression compiles to exactly this variant's instructions once the
	// features in Requires are known at compile time (amd64's LOCK XADDQ
	// for atomic.AddUint64; arm64's LDADDALD only under arm64.v8.1, since
	// below it the compiler emits a flag test of its own). hal then binds
	// the variant by inlining the intrinsic instead of calling assembly:
	// see Op.InlineBinding and Op.StaticVariant.
	Intrinsic bool

	// IntrinsicFallback says that the compiler's intrinsic for the op's
	// Inline expression runs exactly this variant's instructions when the
	// features of the op's Intrinsic variant are neither guaranteed at
	// compile time nor set in the Go runtime's own flag (arm64's
	// LDAXR/STLXR loop at GOARM64=v8.0 on a CPU without LSE, checked
	// against the disassembly). A guarded op keeps its guard clear for it
	// then (see Op.GuardedBinding).
	IntrinsicFallback bool

	// Plain says that this variant is the plain Go access of the op's
	// Plain statement: the gc compiler emits exactly its one instruction
	// for it (amd64's MOV for *addr = val, checked in hal's
	// TestPlainDisassembly). Only an op with a Plain statement may have
	// such a variant, and it requires no feature. hal then binds the op
	// by that statement (see Op.PlainBinding).
	Plain bool
}

// PortableName is the name of every Go variant: hal's <op>_portable.
const PortableName = "portable"

// Portable returns the Go variant, hal's <op>_portable, with why as its
// comment. It is the fallback for an op that some CPUs of an architecture
// cannot do in hardware (cas128 on amd64 without CX16), or the only
// variant where no instruction does the op (cas128 on riscv64 without
// Zacas).
func Portable(why string) Variant { return Variant{Name: PortableName, Go: true, Why: why} }

// Uint128KeyOffset is the byte offset, inside a hal.Uint128 on a 64-bit
// platform, of its key: the Uint128's own address XOR its cell pointer
// (the Uint128's first word; the cell's value is the cell's first 16
// bytes, 16-byte aligned). The Uint128 entries (Op.Uint128) XOR the two
// words they load from the Uint128 and compare the result with the
// Uint128's address: a zero value (no cell, key 0) or a moved or copied
// Uint128 (a key made at another address) goes to the Go function
// <op>_moved, which gives the Uint128 a cell of its own. The check reads
// only the Uint128, which no access writes, never the cell, so it adds
// no traffic on the line a contended Store or CAS pulls between cores.
// hal's tests check the layout.
const Uint128KeyOffset = 8

// Misaligned128 is the Go function, in hal and in hal/direct alike, that
// the 128-bit variants jump to when addr is not 16-byte aligned.
const Misaligned128 = "misaligned128"

// Misaligned64 is the Go function, in hal and in hal/direct alike, that a
// 32-bit architecture's 64-bit variants jump to when addr is not 8-byte
// aligned (LDREXD faults there; sync/atomic panics on every 32-bit
// architecture, and hal does the same).
const Misaligned64 = "misaligned64"

// UEntry is the name of hal's entry of a Uint128 op that takes the
// address of the hal.Uint128 itself: "load128U".
func (op *Op) UEntry() string { return op.GoName + "U" }

// Moved is the name of hal's Go function that a Uint128 entry jumps to
// when the value must be relocated first: "load128_moved".
func (op *Op) Moved() string { return op.GoName + "_moved" }

// Op is one hardware op.
type Op struct {
	Name    string  // spec name: what GOHAL and dispatch call the op
	GoName  string  // exported Go function (or an unexported one, like cas128)
	Params  []Param // in order
	Results []Param // in order
	Doc     string  // doc comment of GoName, without the leading "// "; lines separated by \n

	// Export is the exported base name of the op's functions in package
	// hal/direct when GoName is unexported (cas128: CompareAndSwap128).
	// Empty means GoName.
	Export string

	// Inline is the op as one Go expression over sync/atomic, in the
	// parameter names, when the Go compiler has an intrinsic for it
	// ("atomic.AddUint64(addr, delta) - delta"); empty when it has none
	// (pause, fences, the 128-bit CAS, the cycle counter).
	Inline string

	// Plain is the op as one Go statement of plain (non-atomic) accesses,
	// in the parameter names ("*addr = val"), where some architecture's
	// instruction for the op is the plain access (x86-TSO: a plain store
	// is a release store); empty otherwise. It binds the op only where a
	// variant is marked Variant.Plain.
	Plain string

	// Uint128 marks a 128-bit op on the word of a hal.Uint128. Its
	// variants check that addr is 16-byte aligned and jump to hal's (or
	// hal/direct's) misaligned128, which panics, when it is not. And hal
	// gets, besides the entry GoName, an entry GoName+"U" whose addr is
	// the address of a hal.Uint128 itself: it loads the Uint128's cell
	// pointer, checks the cell is the Uint128's own (see
	// Uint128KeyOffset) and jumps to GoName with addr replaced by
	// the cell's word, or to hal's GoName+"_moved" when the Uint128 has no
	// cell of its own yet.
	// Uint128's methods are then one call, which the compiler inlines.
	Uint128 bool

	// PortableDoc, if set, is a sentence appended to Doc in the portable
	// build (purego, race, a GOARCH without a backend), where the op is
	// hal's <op>_portable and behaves unlike Doc says of the hardware
	// (Pause yields the goroutine there).
	PortableDoc string

	// TableDoc, if set, is the doc comment of the op's field in package
	// hal/haltool's DispatchTable (without "// "), so its doc links name
	// hal's API as [hal.Name]; the default names the op and links GoName.
	TableDoc string

	// PortableBrief is the variants table's text for the op in
	// the portable build (other GOARCH, purego, -race), shown after
	// "portable" in parentheses ("runtime.Gosched"). Empty means the
	// name alone.
	PortableBrief string

	// GoVariants, if set, are the op's variants on every architecture,
	// in order of preference: all Go ([Variant].Go), the last one
	// [Portable]. It is for an op the operating system does rather than
	// the CPU, the same wherever hal runs (fenceheavy): Register copies
	// it into Arch, and a backend's Arch must not list the op.
	GoVariants []Variant

	// Arch maps a GOARCH to the op's variants there, in order of
	// preference. It is not written here but filled by Register from
	// each backend package's Arch (gen/<arch>/spec.go), or from
	// GoVariants; an op has a variant list on every registered
	// architecture.
	Arch map[string][]Variant
}

// Signature returns the op's Go signature as a function type,
// "func(addr *uint64, delta uint64) (old uint64)".
func (op *Op) Signature() string {
	return "func" + op.sigTail()
}

// Decl returns the Go declaration of a function called name with the
// op's signature (without body).
func (op *Op) Decl(name string) string { return "func " + name + op.sigTail() }

func (op *Op) sigTail() string {
	var b strings.Builder
	b.WriteString("(" + paramList(op.Params) + ")")
	switch {
	case len(op.Results) == 0:
	case len(op.Results) == 1 && op.Results[0].Name == "":
		b.WriteString(" " + op.Results[0].Type)
	default:
		b.WriteString(" (" + paramList(op.Results) + ")")
	}
	return b.String()
}

// paramList writes named parameters as gofmt'd Go would, with runs of one
// type grouped: "addr *uint32, old, new uint32".
func paramList(ps []Param) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name)
		if i+1 == len(ps) || ps[i+1].Type != p.Type {
			b.WriteString(" " + p.Type)
		}
	}
	return b.String()
}

// HasPointer reports whether a parameter is a pointer (the declarations
// then carry //go:noescape).
func (op *Op) HasPointer() bool {
	for _, p := range op.Params {
		if strings.HasPrefix(p.Type, "*") {
			return true
		}
	}
	return false
}

// Symbol is the Go name of one variant's own function: "fetchadd64_lse".
func (op *Op) Symbol(variant string) string { return op.Name + "_" + variant }

// SelVar is the Go name of the op's flag byte: "selFetchadd64". It exists
// only for ops with more than one variant on an architecture.
func (op *Op) SelVar() string { return "sel" + strings.ToUpper(op.Name[:1]) + op.Name[1:] }

// Variants returns the op's variants on goarch, Go variants included.
func (op *Op) Variants(goarch string) []Variant { return op.Arch[goarch] }

// AsmVariants returns the op's variants on goarch that the backend writes:
// all but the Go variants.
func (op *Op) AsmVariants(goarch string) []Variant {
	var out []Variant
	for _, v := range op.Arch[goarch] {
		if !v.Go {
			out = append(out, v)
		}
	}
	return out
}

// GoEntry reports whether hal's entry of the op on goarch is a Go function:
// when all its variants there are Go. (A Go variant beside assembly ones is
// reached by a tail jump from the assembly entry.)
func (op *Op) GoEntry(goarch string) bool {
	return len(op.AsmVariants(goarch)) == 0
}

// HasGoVariant reports whether one of the op's variants on goarch is
// written in Go; the op's entry is then a Go function.
func (op *Op) HasGoVariant(goarch string) bool {
	return len(op.AsmVariants(goarch)) != len(op.Arch[goarch])
}

// ExportName is the op's exported base name: GoName, or Export when GoName
// is unexported.
func (op *Op) ExportName() string {
	if op.Export != "" {
		return op.Export
	}
	return op.GoName
}

// DirectName is the exported name of one variant's function in package
// hal/direct: the export name and the variant in mixed caps,
// "FetchAddUint64Lse", "CyclesLfenceRdtsc".
func (op *Op) DirectName(variant string) string {
	var b strings.Builder
	b.WriteString(op.ExportName())
	for _, part := range strings.Split(variant, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// FlaggedName is the name in lab/probe of the op's flag-probe entry
// (see Flagged): "FetchAddUint64Flagged".
func (op *Op) FlaggedName() string { return op.ExportName() + "Flagged" }

// StaticName is the name in hal/direct of the op's compile-time binding:
// "StaticFetchAddUint64".
func (op *Op) StaticName() string { return "Static" + op.ExportName() }

// Flagged reports whether lab/probe carries a flag-probe entry for the op
// on goarch: the op's one variant behind the same one-byte flag test that
// hal's entries for ops with several variants use, so that the cost of the
// test can be measured on ops that do not otherwise pay it.
func (op *Op) Flagged(goarch string) bool {
	vs := op.Variants(goarch)
	return len(vs) == 1 && !vs[0].Go
}

// StaticDirect reports whether hal/direct has the op's Static function on
// goarch: whenever the op has a variant the backend writes. (An op whose
// only variants are Go, like cas128 on riscv64, is bound statically by
// hal itself, to its <op>_portable.)
//
// It is also false when no level's static choice is a hardware variant:
// when every hardware variant needs an operating-system feature (see
// [OSFeatures]; cpu on every GOARCH), the static binding is the Go
// variant at every level.
func (op *Op) StaticDirect(goarch string) bool {
	for _, l := range LevelsOf(goarch) {
		if !op.StaticVariant(goarch, l).Go {
			return true
		}
	}
	return false
}

// GoVariant returns the Go variant a static build binds on goarch when
// StaticDirect is false: the op's first Go variant that requires no
// feature (its portable one), failing that its first Go variant. A Go
// variant that needs an operating-system feature (fenceheavy's
// membarrier) is not the static choice, for the reason StaticVariant
// gives.
func (op *Op) GoVariant(goarch string) Variant {
	for _, v := range op.Variants(goarch) {
		if v.Go && len(v.Requires) == 0 {
			return v
		}
	}
	for _, v := range op.Variants(goarch) {
		if v.Go {
			return v
		}
	}
	return op.Variants(goarch)[0]
}

// InlineBinding reports whether hal binds the op on goarch by inlining its
// sync/atomic intrinsic instead of calling assembly: when the op has
// exactly one variant, that variant needs no run-time feature, and the
// compiler's intrinsic is that variant (Variant.Intrinsic). There is then
// nothing to choose at run time, and the intrinsic costs no call.
// BenchmarkDispatch measures why (halbench results writes its figures).
func (op *Op) InlineBinding(goarch string) bool {
	vs := op.Variants(goarch)
	return op.Inline != "" && len(vs) == 1 && vs[0].Intrinsic && !vs[0].Go && len(vs[0].Requires) == 0
}

// PlainBinding reports whether hal binds the op on goarch by its Plain
// statement, a plain Go access the compiler inlines: when the op has
// exactly one variant, it needs no feature, and it is marked
// Variant.Plain. The rule, and what the compiler keeps of the
// statement's order, are in this module's README, "Bindings".
func (op *Op) PlainBinding(goarch string) bool {
	vs := op.Variants(goarch)
	return op.Plain != "" && len(vs) == 1 && vs[0].Plain && !vs[0].Go && len(vs[0].Requires) == 0
}

// GuardedBinding reports whether hal binds the op on goarch by inlining
// its sync/atomic intrinsic behind a one-byte guard: when the op has an
// Inline expression, several variants, all of them written by the backend,
// and one of them is the intrinsic (Variant.Intrinsic). The exported
// function runs the intrinsic while the guard (GuardVar) is 0 and calls
// the op's flag entry (FlagEntry) otherwise; hal sets the guard only when
// the chosen variant is not what the intrinsic runs on this CPU (the
// Intrinsic variant when its features are there, else the
// IntrinsicFallback variant, if any). The rule is in this module's README,
// "Bindings".
func (op *Op) GuardedBinding(goarch string) bool {
	if op.Inline == "" || len(op.Variants(goarch)) < 2 || op.HasGoVariant(goarch) {
		return false
	}
	_, ok := op.IntrinsicVariant(goarch)
	return ok
}

// IntrinsicFallbackVariant returns the op's variant on goarch marked
// IntrinsicFallback, if any.
func (op *Op) IntrinsicFallbackVariant(goarch string) (Variant, bool) {
	for _, v := range op.Variants(goarch) {
		if v.IntrinsicFallback {
			return v, true
		}
	}
	return Variant{}, false
}

// IntrinsicVariant returns the op's variant on goarch marked Intrinsic,
// if any.
func (op *Op) IntrinsicVariant(goarch string) (Variant, bool) {
	for _, v := range op.Variants(goarch) {
		if v.Intrinsic {
			return v, true
		}
	}
	return Variant{}, false
}

// GuardVar is the Go name of a guarded op's guard byte: "guardFetchadd64".
func (op *Op) GuardVar() string { return "guard" + strings.ToUpper(op.Name[:1]) + op.Name[1:] }

// FlagEntry is the name of a guarded op's assembly entry, the flag test
// and every variant's body, that the exported function calls when the
// guard is set: "fetchadd64Flag".
func (op *Op) FlagEntry() string { return op.Name + "Flag" }

// Level is a compile-time CPU feature level: a Go build tag that GOAMD64
// or GOARM64 sets at that level and every higher one, and the features
// every CPU of the level has. gohal_static builds choose each op's variant
// from the level they were compiled for.
type Level struct {
	Tag     string   // "arm64.v8.1"
	Implies []string // dispatch.Feature* constants guaranteed at this level
	Why     string   // where the guarantee comes from
}

// ID is the level's short name for file names: the tag without the
// architecture and dots, "v81".
func (l Level) ID() string {
	_, v, _ := strings.Cut(l.Tag, ".")
	return strings.ReplaceAll(v, ".", "")
}

// Has reports whether the level guarantees feature f.
func (l Level) Has(f string) bool {
	for _, g := range l.Implies {
		if g == f {
			return true
		}
	}
	return false
}

// Levels lists, per GOARCH, the feature levels that change a static
// choice, lowest first. The first needs no feature; a build is at the
// highest level whose tag it has. An architecture without an entry has one
// implicit level, named after the GOARCH, that guarantees nothing.
var Levels = map[string][]Level{}

// LevelsOf returns goarch's levels, or the one implicit level.
func LevelsOf(goarch string) []Level {
	if ls := Levels[goarch]; len(ls) > 0 {
		return ls
	}
	return []Level{{Tag: goarch, Why: "no feature levels declared for " + goarch}}
}

// StaticVariant is the variant a gohal_static build at level l compiles
// in: the first hardware (non-Go) variant, in order of preference, whose
// required features the level guarantees; failing that, the last hardware
// variant, whose features hal then checks when the program starts (cas128
// at amd64.v1, which does not guarantee CMPXCHG16B: a static build is for
// speed, so it does not fall back to the striped-lock Go variant, and a
// CPU without CMPXCHG16B gets a clear exit at init); and only for an op
// with no hardware variant at all, its Go variant (GoVariant: the one
// that requires nothing, as no level implies an operating-system feature)
// — or for an op whose last hardware variant needs an operating-system
// feature (OSFeatures: a static build must not exit on every OS but
// Linux, nor where a kernel or sandbox refuses a system call), its Go
// variant.
func (op *Op) StaticVariant(goarch string, l Level) Variant {
	vs := op.AsmVariants(goarch)
	if len(vs) == 0 {
		return op.GoVariant(goarch)
	}
	for _, v := range vs {
		ok := true
		for _, r := range v.Requires {
			if !l.Has(r) {
				ok = false
			}
		}
		if ok {
			return v
		}
	}
	// A hardware variant that needs an operating-system feature (the CPU
	// number from Linux) would make a static build exit on every other
	// OS; where the op has a Go variant, that is the static choice.
	if last := vs[len(vs)-1]; needsOS(last) && op.HasGoVariant(goarch) {
		return op.GoVariant(goarch)
	}
	return vs[len(vs)-1]
}

// OSFeatures are the features that depend on the operating system rather
// than on the CPU: no level implies them, and a static build does not fall
// back to a variant that needs one when the op has a Go variant. A Go
// variant other than portable needs one of them (see [Variant].Go).
var OSFeatures = []string{dispatch.FeatureLinux, dispatch.FeatureRDPID, dispatch.FeatureTSCAux, dispatch.FeatureCPUNodeSeg,
	dispatch.FeatureMembarrier}

func needsOS(v Variant) bool {
	for _, r := range v.Requires {
		for _, f := range OSFeatures {
			if r == f {
				return true
			}
		}
	}
	return false
}

// StaticPlain reports whether the static binding of the op at level l is
// its Plain statement: the chosen variant is marked Variant.Plain.
func (op *Op) StaticPlain(goarch string, l Level) bool {
	v := op.StaticVariant(goarch, l)
	return op.Plain != "" && v.Plain && len(v.Requires) == 0
}

// StaticInline reports whether the static binding of the op at level l is
// its inlined intrinsic: the chosen variant is the intrinsic and the level
// guarantees every feature it needs.
func (op *Op) StaticInline(goarch string, l Level) bool {
	v := op.StaticVariant(goarch, l)
	if op.Inline == "" || !v.Intrinsic {
		return false
	}
	for _, r := range v.Requires {
		if !l.Has(r) {
			return false
		}
	}
	return true
}

// Common parameter lists.
var (
	addr32  = Param{"addr", "*uint32"}
	addr64  = Param{"addr", "*uint64"}
	addrPtr = Param{"addr", "*uintptr"}
)

// Ops lists every op, in the order of hal's API (and of Selected).
var Ops = []Op{
	{
		Name: "pause", GoName: "Pause",
		Doc: `Pause tells the CPU that the caller is spinning on a shared word, with
the architecture's spin-loop hint (PAUSE on amd64; Selected names the
variant, and docs/variants.md every GOARCH's instruction). It
does not yield the goroutine.`,
		PortableDoc:   "In the portable build it yields the processor with runtime.Gosched.",
		PortableBrief: "runtime.Gosched",
	},
	{
		Name: "cas32", GoName: "CompareAndSwapUint32",
		PortableBrief: "sync/atomic",
		Inline:        `atomic.CompareAndSwapUint32(addr, old, new)`,
		Params:        []Param{addr32, {"old", "uint32"}, {"new", "uint32"}},
		Results:       []Param{{"swapped", "bool"}},
		Doc: `CompareAndSwapUint32 executes the compare-and-swap operation for a uint32
value, sequentially consistent like sync/atomic.`,
	},
	{
		Name: "cas64", GoName: "CompareAndSwapUint64",
		PortableBrief: "sync/atomic",
		Inline:        `atomic.CompareAndSwapUint64(addr, old, new)`,
		Params:        []Param{addr64, {"old", "uint64"}, {"new", "uint64"}},
		Results:       []Param{{"swapped", "bool"}},
		Doc: `CompareAndSwapUint64 executes the compare-and-swap operation for a uint64
value, sequentially consistent like sync/atomic.`,
	},
	{
		Name: "casuintptr", GoName: "CompareAndSwapUintptr",
		PortableBrief: "sync/atomic",
		Inline:        `atomic.CompareAndSwapUintptr(addr, old, new)`,
		Params:        []Param{{"addr", "*uintptr"}, {"old", "uintptr"}, {"new", "uintptr"}},
		Results:       []Param{{"swapped", "bool"}},
		Doc: `CompareAndSwapUintptr executes the compare-and-swap operation for a
uintptr value, sequentially consistent like sync/atomic.`,
	},
	{
		Name: "fetchadd32", GoName: "FetchAddUint32",
		Inline:  `atomic.AddUint32(addr, delta) - delta`,
		Params:  []Param{addr32, {"delta", "uint32"}},
		Results: []Param{{"old", "uint32"}},
		Doc: `FetchAddUint32 atomically adds delta to *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "fetchadd64", GoName: "FetchAddUint64",
		Inline:  `atomic.AddUint64(addr, delta) - delta`,
		Params:  []Param{addr64, {"delta", "uint64"}},
		Results: []Param{{"old", "uint64"}},
		Doc: `FetchAddUint64 atomically adds delta to *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "swap32", GoName: "SwapUint32",
		Inline:  `atomic.SwapUint32(addr, new)`,
		Params:  []Param{addr32, {"new", "uint32"}},
		Results: []Param{{"old", "uint32"}},
		Doc: `SwapUint32 atomically stores new into *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "swap64", GoName: "SwapUint64",
		Inline:  `atomic.SwapUint64(addr, new)`,
		Params:  []Param{addr64, {"new", "uint64"}},
		Results: []Param{{"old", "uint64"}},
		Doc: `SwapUint64 atomically stores new into *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "fetchor32", GoName: "FetchOrUint32",
		PortableBrief: "atomic.Or/And",
		Inline:        `atomic.OrUint32(addr, mask)`,
		Params:        []Param{addr32, {"mask", "uint32"}},
		Results:       []Param{{"old", "uint32"}},
		Doc: `FetchOrUint32 atomically sets the bits of mask in *addr (*addr |= mask) and
returns the old value, sequentially consistent like sync/atomic.OrUint32.`,
	},
	{
		Name: "fetchor64", GoName: "FetchOrUint64",
		PortableBrief: "atomic.Or/And",
		Inline:        `atomic.OrUint64(addr, mask)`,
		Params:        []Param{addr64, {"mask", "uint64"}},
		Results:       []Param{{"old", "uint64"}},
		Doc: `FetchOrUint64 atomically sets the bits of mask in *addr (*addr |= mask) and
returns the old value, sequentially consistent like sync/atomic.OrUint64.`,
	},
	{
		Name: "fetchand32", GoName: "FetchAndUint32",
		PortableBrief: "atomic.Or/And",
		Inline:        `atomic.AndUint32(addr, mask)`,
		Params:        []Param{addr32, {"mask", "uint32"}},
		Results:       []Param{{"old", "uint32"}},
		Doc: `FetchAndUint32 atomically clears the bits of *addr that are clear in mask
(*addr &= mask) and returns the old value, sequentially consistent like
sync/atomic.AndUint32.`,
	},
	{
		Name: "fetchand64", GoName: "FetchAndUint64",
		PortableBrief: "atomic.Or/And",
		Inline:        `atomic.AndUint64(addr, mask)`,
		Params:        []Param{addr64, {"mask", "uint64"}},
		Results:       []Param{{"old", "uint64"}},
		Doc: `FetchAndUint64 atomically clears the bits of *addr that are clear in mask
(*addr &= mask) and returns the old value, sequentially consistent like
sync/atomic.AndUint64.`,
	},
	{
		Name: "fetchadduintptr", GoName: "FetchAddUintptr",
		Inline:  `atomic.AddUintptr(addr, delta) - delta`,
		Params:  []Param{addrPtr, {"delta", "uintptr"}},
		Results: []Param{{"old", "uintptr"}},
		Doc: `FetchAddUintptr atomically adds delta to *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "swapuintptr", GoName: "SwapUintptr",
		Inline:  `atomic.SwapUintptr(addr, new)`,
		Params:  []Param{addrPtr, {"new", "uintptr"}},
		Results: []Param{{"old", "uintptr"}},
		Doc: `SwapUintptr atomically stores new into *addr and returns the old value,
sequentially consistent.`,
	},
	{
		Name: "loadacquireuintptr", GoName: "LoadAcquireUintptr",
		PortableBrief: "atomic.Load",
		Inline:        `atomic.LoadUintptr(addr)`,
		Params:        []Param{addrPtr},
		Results:       []Param{{"", "uintptr"}},
		Doc: `LoadAcquireUintptr atomically loads *addr with acquire ordering: no later
load or store moves before it.`,
	},
	{
		Name: "storereleaseuintptr", GoName: "StoreReleaseUintptr",
		PortableBrief: "atomic.Store",
		Inline:        `atomic.StoreUintptr(addr, val)`,
		Plain:         `*addr = val`,
		Params:        []Param{addrPtr, {"val", "uintptr"}},
		Doc: `StoreReleaseUintptr atomically stores val into *addr with release
ordering: no earlier load or store moves after it.`,
	},
	{
		Name: "loadacquire32", GoName: "LoadAcquireUint32",
		PortableBrief: "atomic.Load",
		Inline:        `atomic.LoadUint32(addr)`,
		Params:        []Param{addr32},
		Results:       []Param{{"", "uint32"}},
		Doc: `LoadAcquireUint32 atomically loads *addr with acquire ordering: no later
load or store moves before it.`,
	},
	{
		Name: "loadacquire64", GoName: "LoadAcquireUint64",
		PortableBrief: "atomic.Load",
		Inline:        `atomic.LoadUint64(addr)`,
		Params:        []Param{addr64},
		Results:       []Param{{"", "uint64"}},
		Doc: `LoadAcquireUint64 atomically loads *addr with acquire ordering: no later
load or store moves before it.`,
	},
	{
		Name: "storerelease32", GoName: "StoreReleaseUint32",
		PortableBrief: "atomic.Store",
		Inline:        `atomic.StoreUint32(addr, val)`,
		Plain:         `*addr = val`,
		Params:        []Param{addr32, {"val", "uint32"}},
		Doc: `StoreReleaseUint32 atomically stores val into *addr with release
ordering: no earlier load or store moves after it.`,
	},
	{
		Name: "storerelease64", GoName: "StoreReleaseUint64",
		PortableBrief: "atomic.Store",
		Inline:        `atomic.StoreUint64(addr, val)`,
		Plain:         `*addr = val`,
		Params:        []Param{addr64, {"val", "uint64"}},
		Doc: `StoreReleaseUint64 atomically stores val into *addr with release
ordering: no earlier load or store moves after it.`,
	},
	{
		Name: "fence", GoName: "Fence",
		PortableBrief: "an RMW",
		Doc: `Fence is a full memory barrier: no load or store moves across it in
either direction.`,
	},
	{
		// The heavy side of the asymmetric fence pair. The light side,
		// hal.FenceLight, is written by hand (hal/asymfence.go): it must
		// inline into its caller, and it is the same for every variant
		// but portable: a compiler barrier, and a test of a byte hal
		// sets from this op's choice, whose branch runs Fence.
		//
		// Not variants: Windows' FlushProcessWriteBuffers, which folly
		// and .NET use as the heavy side. It would be a few lines, but a
		// DLL call goes through the Go runtime's system-call path
		// (syscall.SyscallN: cgocall, entersyscall), where the P may be
		// handed off, and percpu's writer calls FenceHeavy with
		// preemption disabled: a P taken away then is a fatal
		// "stopm holding locks". membarrier is a raw system call. And no
		// machine or emulator here runs Windows, so it would ship
		// untested.
		//
		// And the mprotect-induced TLB shootdown (folly's
		// fallback where membarrier is missing: change the protection of
		// a locked dummy page so that the kernel interrupts every CPU
		// that runs the process to flush its TLB). No kernel documents
		// that as a barrier; it holds only while TLB invalidation is
		// done by interrupts. arm64 invalidates by broadcast (TLBI ...IS)
		// and interrupts no CPU, and x86 CPUs with broadcast
		// invalidation (AMD's INVLPGB) can do the same; on Linux,
		// membarrier(2) (4.14+) is the documented way, and a kernel or
		// sandbox that refuses it gets the portable variant, which is
		// correct everywhere.
		Name: "fenceheavy", GoName: "FenceHeavy",
		PortableBrief: "Fence on both sides",
		GoVariants: []Variant{
			{Name: "membarrier", Go: true, Requires: []string{dispatch.FeatureMembarrier}, Brief: "Linux",
				Why: "membarrier(2) MEMBARRIER_CMD_PRIVATE_EXPEDITED: the kernel makes every running thread of the process execute a full barrier (an interrupt to each CPU running one); FenceLight is a compiler barrier"},
			func() Variant {
				v := Portable("Fence on the heavy side, and FenceLight is Fence too: correct on every system, at a full fence on the light side")
				v.Brief = "Fence on both sides"
				return v
			}(),
		},
		Doc: `FenceHeavy is the expensive side of an asymmetric fence pair, whose cheap
side is FenceLight.

With FenceLight on another thread it orders as two Fences would: after
a store then FenceHeavy then a load on one thread, and a store then
FenceLight then a load on another, at least one of the two loads sees
the other thread's store. Under the membarrier variant (Linux)
FenceHeavy makes every thread of the process that is running execute a
full barrier, at the cost of a system call that interrupts each CPU
running one (microseconds), so that FenceLight can be a compiler
barrier; under the portable variant (other systems, and a kernel,
seccomp profile or sandbox that refuses membarrier: Selected names the
errno) both sides are Fence. A refusal after init (a seccomp filter
installed by main) neither panics nor breaks the pair: the call that
meets it fences every CPU another way, once, and the pair is portable
from then on, as Selected then says with the errno. Use it where the
light side runs often and the heavy side rarely. It makes only raw
system calls, so a goroutine that has disabled preemption may call it
(unless the kernel refuses sched_setaffinity as well as membarrier:
the degradation then stops the world, fatal for such a goroutine).`,
		PortableDoc: "In the portable build it is Fence, and so is FenceLight.",
	},
	{
		Name: "cas128", GoName: "cas128", Export: "CompareAndSwap128",
		PortableBrief: "striped locks",
		Params: []Param{{"addr", "*[2]uint64"}, {"oldLo", "uint64"}, {"oldHi", "uint64"},
			{"newLo", "uint64"}, {"newHi", "uint64"}},
		Uint128: true,
		Results: []Param{{"lo", "uint64"}, {"hi", "uint64"}, {"swapped", "bool"}},
		Doc: `cas128 atomically compares the 16-byte-aligned word at addr with
oldLo, oldHi and, if equal, replaces it with newLo, newHi. It returns the
value found (which equals old when it swapped) and whether it swapped.
Sequentially consistent.`,
		TableDoc: `CompareAndSwap128 is the raw 128-bit CAS on a 16-byte-aligned word:
it returns the value found and whether it swapped. Use it on a
16-byte-aligned word of your own, or the one [hal.Uint128.Addr] returns
while the 128-bit ops run hardware variants.`,
	},
	{
		Name: "load128", GoName: "load128", Export: "Load128",
		Params:  []Param{{"addr", "*[2]uint64"}},
		Results: []Param{{"lo", "uint64"}, {"hi", "uint64"}},
		Uint128: true,
		Doc: `load128 atomically loads the 16-byte-aligned word at addr,
sequentially consistent. Where the CPU allows (VMOVDQA) it writes nothing.`,
	},
	{
		Name: "store128", GoName: "store128", Export: "Store128",
		Params:  []Param{{"addr", "*[2]uint64"}, {"lo", "uint64"}, {"hi", "uint64"}},
		Uint128: true,
		Doc: `store128 atomically stores lo, hi into the 16-byte-aligned word at
addr, sequentially consistent.`,
	},
	{
		Name: "cycles", GoName: "Cycles",
		Results: []Param{{"", "uint64"}},
		Doc: `Cycles returns the CPU's cycle or tick counter (the TSC on amd64; the
docs/variants.md names every GOARCH's). It is monotonic per core,
not a wall clock; see CycleFrequency for its rate.`,
		PortableDoc:   "In the portable build it counts nanoseconds on the monotonic clock.",
		PortableBrief: "monotonic ns",
	},
	{
		// One call per acquisition attempt instead of one per pause
		// and per CAS: the whole test-and-test-and-set loop of
		// spin.TTAS in one assembly function. The budget bounds the
		// time spent inside it, so that the caller (Go) can yield
		// with runtime.Gosched between calls: oversubscription stays
		// Go's business, as the assembly cannot yield.
		// The exported SpinLockUint32 (hal/spinlock.go) is Go: it calls
		// this entry with at most spinLockCap pauses at a time and yields
		// between calls, so the unpreemptible assembly never runs long.
		Name: "spinlock32", GoName: "spinLockUint32", Export: "SpinLockUint32",
		Params:  []Param{addr32, {"spins", "uint32"}},
		Results: []Param{{"acquired", "bool"}},
		Doc: `spinLockUint32 is the acquire loop of SpinLockUint32 in one call, with
no cap on spins: it reads *addr; while the word is held it pauses (the
architecture's spin hint, as Pause), spending one unit of spins, and reads
it again; when it reads 0 it tries a compare-and-swap from 0 to 1
(sequentially consistent), and a CAS that loses counts as one more pause.
It returns true once the CAS has taken the lock, and false, without having
changed *addr, when spins runs out first. The Go scheduler cannot preempt
the assembly: SpinLockUint32 calls it with at most spinLockCap spins.`,
		PortableDoc:   "In the portable build it is a Go loop over sync/atomic whose pause is runtime.Gosched.",
		PortableBrief: "a Go loop, Gosched as pause",
		TableDoc: `SpinLockUint32 is the acquire loop of [hal.SpinLockUint32] in one call of
the chosen variant, without its cap: the assembly cannot be preempted, so
keep spins as small as [hal.SpinLockUint32] does (it splits a larger budget
into calls of at most a fixed number of spins).`,
	},
	{
		// The CPU number, for per-CPU sharding (percpu's fallback build):
		// a user-mode instruction where the architecture has one that
		// reads what Linux stores per CPU, else the system call.
		Name: "cpu", GoName: "CPU",
		Results: []Param{{"", "int"}},
		Doc: `CPU returns the number of the CPU the calling goroutine is running on, as
the kernel numbers them (from 0; getcpu(2), sched_getcpu(3)). The goroutine
may move to another CPU at any moment, even before CPU returns: use the
number as a hint for spreading work or data (per-CPU shards), never for
exclusion. On an OS where gohal knows no way to ask, it returns 0.

The range is the kernel's, not runtime.NumCPU's: the result is in [0, the
number of CPU ids the kernel has), and under an affinity mask (taskset,
cpusets) NumCPU counts only the CPUs the process may use, so CPU can
return a number >= NumCPU (taskset -c 5 with NumCPU 1: CPU returns 5).
On amd64, the rdpid, rdtscp and lsl variants read a per-CPU value in
which Linux keeps 12 bits of the CPU number, so on a machine with 4096
CPUs or more they return the number modulo 4096; the syscall and
portable variants return it in full. Reduce the number into the range of
whatever it indexes (percpu's fallback build reduces it modulo
runtime.NumCPU).`,
		PortableDoc:   "In the portable build it asks Linux with the getcpu system call, and returns 0 on other systems.",
		PortableBrief: "getcpu via x/sys/unix on Linux, 0 elsewhere",
	},
}

// Features lists the feature names a variant may require: the dispatch
// package's constants, which dispatch.FeatureNames lists.
var Features = dispatch.FeatureNames

// Find returns the op called name, or nil.
func Find(name string) *Op {
	for i := range Ops {
		if Ops[i].Name == name {
			return &Ops[i]
		}
	}
	return nil
}

// Validate checks the spec for goarch: names well formed and unique,
// features known, every op with at least one variant.
func Validate(goarch string) error {
	seen := map[string]bool{}
	for i := range Ops {
		op := &Ops[i]
		if !ident(op.Name) || seen[op.Name] {
			return fmt.Errorf("spec: bad or duplicate op name %q", op.Name)
		}
		seen[op.Name] = true
		if op.GoName == "" || op.Doc == "" || !strings.HasPrefix(op.Doc, op.GoName+" ") {
			return fmt.Errorf("spec: op %s: doc must start with %q", op.Name, op.GoName+" ")
		}
		if e := op.ExportName(); e[0] < 'A' || e[0] > 'Z' {
			return fmt.Errorf("spec: op %s: unexported Go name %q needs an Export name", op.Name, op.GoName)
		}
		vs := op.Variants(goarch)
		if len(vs) == 0 {
			return fmt.Errorf("spec: op %s has no variant on %s", op.Name, goarch)
		}
		if gv := op.GoVariants; len(gv) > 0 {
			for _, v := range gv {
				if !v.Go {
					return fmt.Errorf("spec: op %s: GoVariants lists %q, which is not a Go variant", op.Name, v.Name)
				}
			}
			if last := gv[len(gv)-1]; last.Name != PortableName {
				return fmt.Errorf("spec: op %s: GoVariants must end with spec.Portable, the variant every build can run", op.Name)
			}
		}
		vseen := map[string]bool{}
		vseenIntrinsic := false
		for _, v := range vs {
			if !ident(v.Name) || vseen[v.Name] {
				return fmt.Errorf("spec: op %s on %s: bad or duplicate variant %q", op.Name, goarch, v.Name)
			}
			vseen[v.Name] = true
			if v.Go && v.Name == PortableName && len(v.Requires) > 0 {
				return fmt.Errorf("spec: op %s on %s: Go variant %q must require nothing (use spec.Portable)", op.Name, goarch, v.Name)
			}
			if v.Go && v.Name != PortableName && !needsOS(v) {
				return fmt.Errorf("spec: op %s on %s: Go variant %q must be named %q (use spec.Portable), or require an operating-system feature (spec.OSFeatures) that a Go function of hal's reaches", op.Name, goarch, v.Name, PortableName)
			}
			if !v.Go && v.Name == PortableName {
				return fmt.Errorf("spec: op %s on %s: variant name %q is reserved for hal's Go variant (use spec.Portable)", op.Name, goarch, PortableName)
			}
			for _, r := range v.Requires {
				if !known(r) {
					return fmt.Errorf("spec: op %s variant %s requires unknown feature %q", op.Name, v.Name, r)
				}
			}
			if v.Intrinsic && vseenIntrinsic {
				return fmt.Errorf("spec: op %s on %s: more than one variant is marked Intrinsic", op.Name, goarch)
			}
			vseenIntrinsic = vseenIntrinsic || v.Intrinsic
			if v.IntrinsicFallback {
				iv, ok := op.IntrinsicVariant(goarch)
				if !ok || len(iv.Requires) == 0 || v.Intrinsic || v.Go {
					return fmt.Errorf("spec: op %s variant %s is marked IntrinsicFallback without an Intrinsic variant that requires a feature", op.Name, v.Name)
				}
			}
			if v.Plain && (op.Plain == "" || v.Go || v.Intrinsic || len(v.Requires) > 0) {
				return fmt.Errorf("spec: op %s variant %s is marked Plain but the op has no Plain statement, or the variant is Go, Intrinsic or requires a feature", op.Name, v.Name)
			}
			if v.Intrinsic && (op.Inline == "" || v.Go) {
				return fmt.Errorf("spec: op %s variant %s is marked Intrinsic but the op has no Inline expression", op.Name, v.Name)
			}
		}
	}
	for i, l := range Levels[goarch] {
		if !strings.HasPrefix(l.Tag, goarch+".") {
			return fmt.Errorf("spec: level %q of %s is not a %s feature tag", l.Tag, goarch, goarch)
		}
		if i == 0 && len(l.Implies) > 0 {
			return fmt.Errorf("spec: the lowest level of %s, %s, must imply no feature", goarch, l.Tag)
		}
		for _, f := range l.Implies {
			if !known(f) {
				return fmt.Errorf("spec: level %s implies unknown feature %q", l.Tag, f)
			}
		}
		if i > 0 {
			for _, f := range Levels[goarch][i-1].Implies {
				if !l.Has(f) {
					return fmt.Errorf("spec: level %s drops feature %q of the level below", l.Tag, f)
				}
			}
		}
	}
	return nil
}

func known(f string) bool {
	for _, k := range Features {
		if k == f {
			return true
		}
	}
	return false
}

func ident(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
