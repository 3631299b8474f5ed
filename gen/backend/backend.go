// Package backend drives the per-architecture code generators. The driver
// owns the layout of the generated code, the same on every architecture; a
// Backend only knows how to write its instructions.
//
// For every op in spec.Ops and its variants on the backend's GOARCH the
// driver writes three assembly files and the Go beside them. Every
// generated file's name starts with z, as x/sys's do, except package hal's
// asm_<arch>.s, the name gohal's design fixes; every one starts with the
// Header line (gen's TestGeneratedFileNames holds both).
//
// Package hal/direct (direct/zdirect_<arch>.s, direct/zdirect_<arch>.go): one
// exported TEXT per variant, direct.<Export><Variant> (the direct binding,
// and the func values hal's dispatch table holds); and, per compile-time
// feature level
// (spec.Levels), direct/zstatic_<level>_<arch>.go with Static<Export>: the
// variant a gohal_static build at that level compiles in, bound by an
// inlined intrinsic when the variant is one, else by a direct call.
//
// Package lab/probe (../lab/probe/zprobe_<arch>.s,
// zprobe_<arch>.go): for ops with a single variant, a flag-probe entry
// <Export>Flagged that puts that variant behind the same one-byte flag test
// hal's multi-variant entries use, so that the test's cost can be
// measured. It is not API.
//
// Package lab/suite (../lab/suite/zdispatch_<arch>.go, and
// zdispatch_noasm.go from CommonFiles): the benchmark bodies of the
// direct, flag and static binding modes of every op in labShapes, one per
// variant where the direct mode has a choice, with the reasons a mode has
// no body on the GOARCH (labsuite.go). Also measurement only.
//
// Package hal (asm_<arch>.s, zasm_<arch>.go, zapi_<arch>.go,
// zstatic_<arch>.go): the exported API. Each op is bound one of the ways
// this module's README ("Bindings") sets out, named by the constants of
// package internal/binding; bindingOf applies those rules. An op whose
// variants are all Go (spec.Variant.Go, hal's <op>_portable) has a Go entry
// (goentry.go) instead of an assembly one; a Go variant beside assembly ones
// is a tail jump (TailJump) from the assembly entry. An op on a hal.Uint128
// (spec.Op.Uint128) also has a Uint128 entry, <op>U (ResolveUint128), and a
// Go <op>_moved.
//
// In a gohal_static build (zstatic_<arch>.go) every exported function is
// instead a Go function calling direct.Static<Export> (or, for an op with
// no hardware variant, hal's <op>_portable), so the variant is fixed at
// compile time and no flag is read.
//
// CommonFiles writes what does not depend on the GOARCH: ztable.go (a typed
// row constructor per op, and portableOps, which names every op's
// <op>_portable in every build), the DispatchTable in
// internal/tooling/ztable.go (the one hal writes) and haltool/ztable.go (the
// one tools read, documented), zportable.go (the portable build) and
// zops_test.go (the op lists hal's tests loop over).
// So an op added to the spec without its Go fallback fails to compile on
// every build, and there is no hand-written row to forget.
package backend

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohal/gohal/gen/spec"
)

// Backend writes the assembly for one architecture.
type Backend interface {
	// Arch is the GOARCH.
	Arch() string

	// Implements lists the "op/variant" pairs the backend can write, so
	// the driver can check it against the spec both ways.
	Implements() []string

	// Text starts the TEXT symbol ·name with op's signature and argument
	// frame (spec.Op.Frame), NOSPLIT, with no local frame. doc, if not
	// empty, is a comment placed before it.
	Text(name string, op *spec.Op, doc []string)

	// Select loads the byte variable sel (a Go package-level uint8) with
	// a single byte load and branches to labels[i-1] when it holds i, for
	// i = 1..len(labels); 0 falls through. The flag is read exactly once.
	Select(sel string, labels []string)

	// Label places a label in the current TEXT.
	Label(name string)

	// Comment places comment lines in the current TEXT.
	Comment(lines ...string)

	// Variant writes the body of variant v of op into the current TEXT:
	// load the arguments from the frame, do the op, store the results,
	// RET. Labels it needs start with prefix, so that several bodies can
	// share one TEXT.
	Variant(op *spec.Op, v spec.Variant, prefix string) error

	// TailJump jumps to the Go function (or assembly) ·name of the same
	// package with this function's own argument frame: the callee returns
	// to this function's caller. The entry of an op uses it for a Go
	// variant (hal's <op>_portable), so that the flag is read in assembly
	// and only the Go variant pays for Go's ABI wrapper.
	TailJump(name string)

	// ResolveUint128 starts an entry whose addr argument is the address
	// of a hal.Uint128, not of its word: it loads the Uint128's cell
	// pointer (its first word) and its key (at spec.Uint128KeyOffset),
	// and compares their XOR with addr. A mismatch (no cell, or a key
	// made at another address) tail-jumps to ·moved (which gives the Uint128 its own cell and
	// redoes the op). Otherwise it stores the cell's address (its value is
	// at offset 0) into the addr argument and tail-jumps to ·entry, which
	// runs as if called with that word. On a weakly ordered CPU the load
	// of the pointer is a load-acquire, so the cell's accesses come after.
	ResolveUint128(entry, moved string) error

	// Finish returns the assembly file written since the last Finish and
	// resets the backend: the driver writes several files with one
	// Backend. header is the "Code generated" line (without "// "); tags
	// are build tags that must all hold, in go:build form ("!purego").
	Finish(header string, tags []string) ([]byte, error)
}

// Header is the first line of every generated file.
const Header = "Code generated by github.com/gohal/gohal/gen from gen/spec. DO NOT EDIT."

// Tags are the build tags of hal's generated files that every
// assembly build needs. The race build uses hal's portable Go fallback, so
// that the race detector sees every access; purego asks for no assembly at
// all.
var Tags = []string{"!purego", "!race"}

// StaticTag is the build tag that fixes every op's variant at compile time.
const StaticTag = "gohal_static"

// DirectTags are the build tags of package hal/direct's generated files:
// its assembly is usable under the race detector (unseen by it, like any
// assembly), but not with purego.
var DirectTags = []string{"!purego"}

// DirectDir is where package hal/direct lives, relative to hal.
const DirectDir = "direct"

// DirectImport is package hal/direct's import path.
const DirectImport = "github.com/gohal/gohal/hal/direct"

// ToolingDir is where package hal/internal/tooling (the dispatch table hal
// writes, and hal's tooling functions) lives, relative to hal.
const ToolingDir = "internal/tooling"

// ToolingImport is package hal/internal/tooling's import path.
const ToolingImport = "github.com/gohal/gohal/hal/internal/tooling"

// HaltoolDir is where package hal/haltool (hal's tooling, for tools and
// benchmarks) lives, relative to hal.
const HaltoolDir = "haltool"

// HaltoolImport is package hal/haltool's import path.
const HaltoolImport = "github.com/gohal/gohal/hal/haltool"

// ProbeDir is where package lab/probe (the flag probes, for
// measurement only) lives, relative to hal.
const ProbeDir = "../lab/probe"

// BindingImport is the import path of the package of binding constants.
const BindingImport = "github.com/gohal/gohal/internal/binding"

func apiTags() []string    { return append(append([]string(nil), Tags...), "!"+StaticTag) }
func staticTags() []string { return append(append([]string(nil), Tags...), StaticTag) }

// Generate runs b over the spec and returns the generated files by path
// relative to package hal's directory: asm_<arch>.s, zasm_<arch>.go,
// zapi_<arch>.go and zstatic_<arch>.go in hal, and direct/zdirect_<arch>.s,
// direct/zdirect_<arch>.go and direct/zstatic_<level>_<arch>.go.
func Generate(b Backend) (map[string][]byte, error) {
	arch := b.Arch()
	if err := spec.Validate(arch); err != nil {
		return nil, err
	}
	if err := checkCoverage(b); err != nil {
		return nil, err
	}
	files := map[string][]byte{}

	// Package direct: the variants' own symbols.
	for i := range spec.Ops {
		op := &spec.Ops[i]
		for _, v := range op.AsmVariants(arch) {
			doc := []string{fmt.Sprintf("%s, variant %q%s: %s", op.Name, v.Name, requires(v), v.Why)}
			b.Text(op.DirectName(v.Name), op, doc)
			if err := b.Variant(op, v, v.Name+"_"); err != nil {
				return nil, fmt.Errorf("%s: %s/%s: %w", arch, op.Name, v.Name, err)
			}
		}
	}
	asm, err := b.Finish(Header, DirectTags)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arch, err)
	}
	files[DirectDir+"/zdirect_"+arch+".s"] = asm

	// Package lab/probe: the flag probes, for measurement only.
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if !op.Flagged(arch) {
			continue
		}
		v := op.Variants(arch)[0]
		b.Text(op.FlaggedName(), op, []string{
			fmt.Sprintf("%s: variant %q behind a test of %s, which is always 0;", op.FlaggedName(), v.Name, op.SelVar()),
			"both branches run the same body.",
		})
		b.Select(op.SelVar(), []string{"flagged"})
		if err := b.Variant(op, v, v.Name+"_"); err != nil {
			return nil, fmt.Errorf("%s: %s/%s: %w", arch, op.Name, v.Name, err)
		}
		b.Label("flagged")
		if err := b.Variant(op, v, "flagged_"+v.Name+"_"); err != nil {
			return nil, fmt.Errorf("%s: %s/%s: %w", arch, op.Name, v.Name, err)
		}
	}
	asm, err = b.Finish(Header, DirectTags)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arch, err)
	}
	files[ProbeDir+"/zprobe_"+arch+".s"] = asm

	// Package hal: the entries of the ops not bound inline. An op whose
	// only variants are Go has its entry in Go (zapi_<arch>.go); a Go
	// variant beside assembly ones is a tail jump from the assembly entry.
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.InlineBinding(arch) || op.PlainBinding(arch) || op.GoEntry(arch) {
			continue
		}
		vs := op.Variants(arch)
		entry := op.GoName
		if op.GuardedBinding(arch) {
			entry = op.FlagEntry()
		}
		doc := []string{fmt.Sprintf("%s: the entry of op %s.", entry, op.Name)}
		if op.GuardedBinding(arch) {
			doc = append(doc, fmt.Sprintf("%s calls it when %s is set.", op.GoName, op.GuardVar()))
		}
		if len(vs) > 1 {
			doc = append(doc, fmt.Sprintf("It runs the variant whose index hal stored in %s.", op.SelVar()))
		}
		b.Text(entry, op, doc)
		if len(vs) > 1 {
			labels := make([]string, 0, len(vs)-1)
			for _, v := range vs[1:] {
				labels = append(labels, v.Name)
			}
			b.Select(op.SelVar(), labels)
		}
		for j, v := range vs {
			if j > 0 {
				b.Label(v.Name)
			}
			if len(vs) > 1 {
				b.Comment(fmt.Sprintf("%s = %d: %s%s", op.SelVar(), j, v.Name, requires(v)))
			}
			if v.Go {
				b.Comment(fmt.Sprintf("The Go variant: a tail jump to %s.", op.Symbol(v.Name)))
				b.TailJump(op.Symbol(v.Name))
				continue
			}
			if err := b.Variant(op, v, v.Name+"_"); err != nil {
				return nil, fmt.Errorf("%s: %s/%s: %w", arch, op.Name, v.Name, err)
			}
		}
		if op.Uint128 {
			b.Text(op.UEntry(), op, []string{
				fmt.Sprintf("%s: %s on the hal.Uint128 at addr: the aligned word's", op.UEntry(), op.GoName),
				fmt.Sprintf("address replaces addr, then a tail jump to %s (or to %s when", op.GoName, op.Moved()),
				"the value must be relocated first).",
			})
			if err := b.ResolveUint128(op.GoName, op.Moved()); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", arch, op.UEntry(), err)
			}
		}
	}
	asm, err = b.Finish(Header, apiTags())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arch, err)
	}
	files["asm_"+arch+".s"] = asm

	goFiles, err := GoFiles(arch)
	if err != nil {
		return nil, err
	}
	for name, src := range goFiles {
		files[name] = src
	}
	suiteFiles, err := SuiteFiles(arch)
	if err != nil {
		return nil, err
	}
	for name, src := range suiteFiles {
		files[name] = src
	}
	return files, nil
}

func requires(v spec.Variant) string {
	if len(v.Requires) == 0 {
		return ""
	}
	return " (requires " + strings.Join(v.Requires, ", ") + ")"
}

func checkCoverage(b Backend) error {
	arch := b.Arch()
	impl := map[string]bool{}
	for _, k := range b.Implements() {
		impl[k] = true
	}
	var missing []string
	for i := range spec.Ops {
		op := &spec.Ops[i]
		for _, v := range op.AsmVariants(arch) {
			k := op.Name + "/" + v.Name
			if !impl[k] {
				missing = append(missing, k)
			}
			delete(impl, k)
		}
	}
	var extra []string
	for k := range impl {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		return fmt.Errorf("%s backend does not match the spec: missing %v, not in the spec %v", arch, missing, extra)
	}
	return nil
}
