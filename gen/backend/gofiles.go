package backend

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"strings"

	"github.com/gohal/gohal/gen/spec"
	"github.com/gohal/gohal/internal/binding"
)

// goWriter builds one Go source file.
type goWriter struct {
	bytes.Buffer
	name string
}

func (w *goWriter) p(format string, args ...any) { fmt.Fprintf(w, format, args...) }

// header writes the generated-code line, the build constraint, the
// package clause and the imports.
func (w *goWriter) header(tags []string, pkg string, imports ...string) {
	w.p("// %s\n\n", Header)
	w.p("//go:build %s\n\n", strings.Join(tags, " && "))
	w.p("package %s\n\n", pkg)
	if len(imports) > 0 {
		w.p("import (\n")
		for _, im := range imports {
			w.p("\t%q\n", im)
		}
		w.p(")\n\n")
	}
}

// doc writes a doc comment, one "// " line per line of text.
func (w *goWriter) doc(text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			w.p("//\n")
		} else {
			w.p("// %s\n", line)
		}
	}
}

// wrapped writes a doc comment from prose: paragraphs separated by blank
// lines, each filled to 76 columns.
func (w *goWriter) wrapped(text string) {
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			w.p("//\n")
		}
		line := ""
		for _, word := range strings.Fields(para) {
			if line != "" && len(line)+1+len(word) > 76 {
				w.p("// %s\n", line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		if line != "" {
			w.p("// %s\n", line)
		}
	}
}

func (w *goWriter) format() ([]byte, error) {
	out, err := format.Source(w.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", w.name, err, w.Bytes())
	}
	return out, nil
}

// args returns the op's parameter names as a call's argument list.
func args(op *spec.Op) string {
	names := make([]string, len(op.Params))
	for i, p := range op.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// call returns a statement that calls fn with the op's arguments and
// returns its results, if any.
func call(op *spec.Op, fn string) string {
	if len(op.Results) == 0 {
		return fn + "(" + args(op) + ")"
	}
	return "return " + fn + "(" + args(op) + ")"
}

// inlineBody returns the statement of a Go function that is the op's
// sync/atomic intrinsic.
func inlineBody(op *spec.Op) string {
	if len(op.Results) == 0 {
		return op.Inline
	}
	return "return " + op.Inline
}

// plainBody returns the statement of a Go function that is the op's plain
// access.
func plainBody(op *spec.Op) string {
	if len(op.Results) == 0 {
		return op.Plain
	}
	return "return " + op.Plain
}

func anyInline(ops []spec.Op, f func(*spec.Op) bool) bool {
	for i := range ops {
		if f(&ops[i]) {
			return true
		}
	}
	return false
}

// GoFiles returns the Go files of arch by path relative to package hal:
// zasm_<arch>.go (flag bytes and archOps), zapi_<arch>.go (the exported
// API outside gohal_static builds), zstatic_<arch>.go (the API of
// gohal_static builds), direct/zdirect_<arch>.go (the declarations of
// package direct's assembly) and direct/zstatic_<level>_<arch>.go (one per
// feature level).
func GoFiles(arch string) (map[string][]byte, error) {
	ws := []*goWriter{
		zasmFile(arch),
		zapiFile(arch),
		zstaticFile(arch),
		zdirectFile(arch),
		zprobeFile(arch),
	}
	ls := spec.LevelsOf(arch)
	for i := range ls {
		ws = append(ws, zlevelFile(arch, ls, i))
	}
	out := map[string][]byte{}
	for _, w := range ws {
		src, err := w.format()
		if err != nil {
			return nil, err
		}
		out[w.name] = src
	}
	return out, nil
}

// zasmFile: the flag bytes and archOps, in every assembly build (a
// gohal_static build keeps them for Selected and haltool.Table; nothing
// reads the flags there).
func zasmFile(arch string) *goWriter {
	w := &goWriter{name: "zasm_" + arch + ".go"}
	w.header(Tags, "hal", DirectImport)
	w.p("// Flag bytes: hal sets each, at init and under haltool.Force, to the\n")
	w.p("// index of the chosen variant in its op's archOps row; the op's assembly\n")
	w.p("// entry reads it with one byte load and branches to that variant's body.\n")
	w.p("// A gohal_static build has no entries, and nothing reads them.\n")
	w.p("var (\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if len(op.Variants(arch)) > 1 {
			w.p("\t%s uint8 // %s\n", op.SelVar(), op.Name)
		}
	}
	w.p(")\n\n")
	w.p("// archOps lists the %s ops in spec order, each with its variants in\n", arch)
	w.p("// order of preference, as typed func values: the assembly in hal/direct,\n")
	w.p("// or hal's <op>_portable for a Go variant.\n")
	w.p("var archOps = []opImpl{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		vs := op.Variants(arch)
		sel := "nil"
		if len(vs) > 1 {
			sel = "&" + op.SelVar()
		}
		w.p("\t%s(%s, []variant[%s]{\n", rowFunc(op), sel, fnType(op))
		for _, v := range vs {
			req := ""
			if len(v.Requires) > 0 {
				q := make([]string, len(v.Requires))
				for j, r := range v.Requires {
					q[j] = fmt.Sprintf("%q", r)
				}
				req = " requires: []string{" + strings.Join(q, ", ") + "},"
			}
			w.p("\t\t{name: %q,%s fn: %s},\n", v.Name, req, variantFunc(op, v))
		}
		w.p("\t}),\n")
	}
	w.p("}\n")
	return w
}

// bindingOf names how hal binds op outside gohal_static builds (the
// rules are in gen/README.md, "Bindings").
func bindingOf(op *spec.Op, arch string) binding.Kind {
	switch {
	case op.PlainBinding(arch):
		return binding.Plain
	case op.InlineBinding(arch):
		return binding.Inline
	case op.GuardedBinding(arch):
		return binding.Guarded
	case len(op.Variants(arch)) > 1:
		return binding.Flag
	}
	return binding.Single
}

// bindingExpr is the Go expression of k in generated code: binding.Inline.
func bindingExpr(k binding.Kind) string {
	for _, c := range []struct {
		k    binding.Kind
		name string
	}{{binding.Inline, "Inline"}, {binding.Plain, "Plain"}, {binding.Guarded, "Guarded"}, {binding.Flag, "Flag"}, {binding.Single, "Single"}, {binding.Static, "Static"}, {binding.Portable, "Portable"}} {
		if c.k == k {
			return "binding." + c.name
		}
	}
	panic("backend: unknown binding " + string(k))
}

// bindingsMap writes the bindings variable: each op's binding in this
// build.
func (w *goWriter) bindingsMap(kind func(op *spec.Op) binding.Kind) {
	w.p("// bindings says how each op's exported function reaches its variant\n")
	w.p("// in this build (haltool.Binding reports it).\n")
	w.p("var bindings = map[string]binding.Kind{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\t%q: %s,\n", op.Name, bindingExpr(kind(op)))
	}
	w.p("}\n")
}

// needsDirect reports whether hal's zapi file refers to package direct:
// a Go entry would call the assembly variants there. (Today a Go entry
// exists only for an op whose variants are all Go.)
func needsDirect(arch string) bool {
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.GoEntry(arch) && len(op.AsmVariants(arch)) > 0 {
			return true
		}
	}
	return false
}

// uCall returns a statement that calls fn with the op's arguments, the
// first, the address of a hal.Uint128, replaced by its aligned word
// (hal's resolve128, which relocates the value if it must), and returns
// its results.
func uCall(op *spec.Op, fn string) string {
	a := strings.Replace(args(op), op.Params[0].Name, "resolve128("+op.Params[0].Name+")", 1)
	if len(op.Results) == 0 {
		return fn + "(" + a + ")"
	}
	return "return " + fn + "(" + a + ")"
}

// uEntry writes the Uint128 entry of op (spec.Op.Uint128) where it is Go:
// a call of the op's entry on the resolved word.
func uEntry(w *goWriter, op *spec.Op) {
	w.p("\n// %s is %s on the hal.Uint128 at addr (see spec.Op.Uint128).\n", op.UEntry(), op.GoName)
	w.p("func %s {\n\t%s\n}\n", op.Decl(op.UEntry())[len("func "):], uCall(op, op.GoName))
}

// zapiFile: the exported API outside gohal_static builds: inlined
// intrinsics and the declarations of the assembly entries.
func zapiFile(arch string) *goWriter {
	w := &goWriter{name: "zapi_" + arch + ".go"}
	imports := []string{BindingImport}
	if anyInline(spec.Ops, func(op *spec.Op) bool { return op.InlineBinding(arch) || op.GuardedBinding(arch) }) {
		imports = append(imports, "sync/atomic")
	}
	if needsDirect(arch) {
		imports = append(imports, DirectImport)
	}
	w.header(apiTags(), "hal", imports...)
	w.p("// staticBuild is false: the variants are chosen at init.\n")
	w.p("const staticBuild = false\n\n")
	w.p("// staticLevel and staticVariant have meaning only in a gohal_static build.\n")
	w.p("const staticLevel = \"\"\n\n")
	w.p("func staticVariant(op string) string { return \"\" }\n\n")
	w.bindingsMap(func(op *spec.Op) binding.Kind { return bindingOf(op, arch) })
	w.guards(arch)
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n")
		w.doc(op.Doc)
		if op.PlainBinding(arch) {
			w.p("func %s {\n\t%s\n}\n", op.Decl(op.GoName)[len("func "):], plainBody(op))
			continue
		}
		if op.InlineBinding(arch) {
			w.p("func %s {\n\t%s\n}\n", op.Decl(op.GoName)[len("func "):], inlineBody(op))
			continue
		}
		if op.GuardedBinding(arch) {
			w.p("func %s {\n\tif %s == 0 {\n\t\t%s\n\t}\n\t%s\n}\n\n",
				op.Decl(op.GoName)[len("func "):], op.GuardVar(), inlineBody(op), call(op, op.FlagEntry()))
			w.p("// %s is the assembly entry of op %s that %s calls while\n", op.FlagEntry(), op.Name, op.GoName)
			w.p("// %s is set: a test of %s and every variant's body.\n", op.GuardVar(), op.SelVar())
			if op.HasPointer() {
				w.p("//\n//go:noescape\n")
			}
			w.p("%s\n", op.Decl(op.FlagEntry()))
			continue
		}
		if op.GoEntry(arch) {
			w.p("%s\n", goEntry(op, arch))
			if op.Uint128 {
				uEntry(w, op)
			}
			continue
		}
		if op.HasPointer() {
			w.p("//\n//go:noescape\n")
		}
		w.p("%s\n", op.Decl(op.GoName))
		if op.Uint128 {
			w.p("\n// %s is %s on the hal.Uint128 at addr: assembly that finds the\n", op.UEntry(), op.GoName)
			w.p("// aligned word and jumps to %s, or to %s when the value must be\n", op.GoName, op.Moved())
			w.p("// relocated first.\n//\n//go:noescape\n")
			w.p("%s\n", op.Decl(op.UEntry()))
			w.p("\n// %s is where %s jumps when the Uint128 at addr moved (or was never\n", op.Moved(), op.UEntry())
			w.p("// placed): it relocates the value and runs %s on the word.\n", op.GoName)
			w.p("func %s {\n\t%s\n}\n", op.Decl(op.Moved())[len("func "):], uCall(op, op.GoName))
		}
	}
	return w
}

// guards writes the guard bytes of the ops bound binding.Guarded on arch
// and the guards list hal's apply sets them from.
func (w *goWriter) guards(arch string) {
	var ops []*spec.Op
	for i := range spec.Ops {
		if spec.Ops[i].GuardedBinding(arch) {
			ops = append(ops, &spec.Ops[i])
		}
	}
	if len(ops) == 0 {
		w.p("\n// guards is empty: no op is bound %q on %s.\n", binding.Guarded, arch)
		w.p("var guards []guard\n")
		return
	}
	w.p("\n// Guard bytes of the ops bound %q: while an op's byte is 0 its exported\n", binding.Guarded)
	w.p("// function runs the inlined sync/atomic intrinsic; hal sets it, at init\n")
	w.p("// and under haltool.Force, only when the chosen variant is not what the\n")
	w.p("// intrinsic runs on this CPU (see guard).\n")
	w.p("var (\n")
	for _, op := range ops {
		w.p("\t%s uint8 // %s\n", op.GuardVar(), op.Name)
	}
	w.p(")\n\n")
	w.p("// guards lists the guarded ops with the variant their intrinsic is and\n")
	w.p("// the one it falls back to when that variant's features are missing.\n")
	w.p("var guards = []guard{\n")
	for _, op := range ops {
		v, _ := op.IntrinsicVariant(arch)
		req := ""
		if len(v.Requires) > 0 {
			q := make([]string, len(v.Requires))
			for j, r := range v.Requires {
				q[j] = fmt.Sprintf("%q", r)
			}
			req = " requires: []string{" + strings.Join(q, ", ") + "},"
		}
		fb := ""
		if f, ok := op.IntrinsicFallbackVariant(arch); ok {
			fb = fmt.Sprintf(" fallback: %q,", f.Name)
		}
		w.p("\t{op: %q, flag: &%s, intrinsic: %q,%s%s},\n", op.Name, op.GuardVar(), v.Name, req, fb)
	}
	w.p("}\n")
}

// zstaticFile: the exported API of gohal_static builds.
func zstaticFile(arch string) *goWriter {
	w := &goWriter{name: "zstatic_" + arch + ".go"}
	w.header(staticTags(), "hal", BindingImport, DirectImport)
	w.p("// staticBuild is true: every op's variant was fixed when the program\n")
	w.p("// was compiled (package direct's Static functions), and no flag is read.\n")
	w.p("const staticBuild = true\n\n")
	w.p("// staticLevel is the feature level the static choices were made for.\n")
	w.p("const staticLevel = direct.StaticLevel\n\n")
	w.p("// staticVariant returns the variant of op compiled into this build.\n")
	w.p("func staticVariant(op string) string {\n")
	var goOnly []string
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if !op.StaticDirect(arch) {
			goOnly = append(goOnly, fmt.Sprintf("\tcase %q:\n\t\treturn %q\n", op.Name, op.GoVariant(arch).Name))
		}
	}
	if len(goOnly) > 0 {
		w.p("\tswitch op {\n%s\t}\n", strings.Join(goOnly, ""))
	}
	w.p("\treturn direct.StaticVariant(op)\n}\n\n")
	w.bindingsMap(func(*spec.Op) binding.Kind { return binding.Static })
	w.p("\n// guards is empty: a static build reads no flag.\n")
	w.p("var guards []guard\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n")
		w.doc(op.Doc)
		fn := "direct." + op.StaticName()
		if !op.StaticDirect(arch) {
			// No hardware variant a static build binds: the Go one,
			// the same at every level.
			fn = op.Symbol(op.GoVariant(arch).Name)
		}
		w.p("func %s {\n\t%s\n}\n", op.Decl(op.GoName)[len("func "):], call(op, fn))
		if op.Uint128 {
			uEntry(w, op)
		}
	}
	return w
}

// zdirectFile: package direct's declarations of its assembly.
func zdirectFile(arch string) *goWriter {
	w := &goWriter{name: DirectDir + "/zdirect_" + arch + ".go"}
	w.header(DirectTags, "direct")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		vs := op.AsmVariants(arch)
		for _, v := range vs {
			w.p("\n")
			w.wrapped(fmt.Sprintf("%s is variant %q of %s%s: %s.\n\n%s",
				op.DirectName(v.Name), v.Name, op.Name, requires(v), v.Why, directCaveat(v)))
			if op.HasPointer() {
				w.p("//\n//go:noescape\n")
			}
			w.p("%s\n", op.Decl(op.DirectName(v.Name)))
		}
	}
	return w
}

func directCaveat(v spec.Variant) string {
	if len(v.Requires) == 0 {
		return "It is the variant's assembly, called with no dispatch."
	}
	return "It is the variant's assembly, called with no dispatch and no check: the\n" +
		"caller must make sure the CPU has " + strings.Join(v.Requires, ", ") + " (see haltool.Runnable)."
}

func directCaveatSuffix(v spec.Variant) string {
	if len(v.Requires) == 0 {
		return ""
	}
	return " The CPU must have " + strings.Join(v.Requires, ", ") + "."
}

// zlevelFile: the static bindings at level ls[i].
func zlevelFile(arch string, ls []spec.Level, i int) *goWriter {
	l := ls[i]
	name := DirectDir + "/zstatic_" + arch + ".go"
	if id := l.ID(); id != "" {
		name = DirectDir + "/zstatic_" + id + "_" + arch + ".go"
	}
	w := &goWriter{name: name}
	tags := append(append([]string(nil), DirectTags...), l.Tag)
	if i+1 < len(ls) {
		tags = append(tags, "!"+ls[i+1].Tag)
	}
	var imports []string
	if anyInline(spec.Ops, func(op *spec.Op) bool { return op.StaticInline(arch, l) }) {
		imports = append(imports, "sync/atomic")
	}
	w.header(tags, "direct", imports...)
	w.wrapped(fmt.Sprintf("StaticLevel is the feature level this build was compiled for, as far as\n"+
		"the static choices go: %s (%s).", l.Tag, l.Why))
	w.p("const StaticLevel = %q\n\n", l.Tag)
	w.wrapped("StaticVariant returns the variant of op that the Static functions call\n" +
		"in this build, and \"\" for an unknown op or one without a Static function.")
	w.p("func StaticVariant(op string) string {\n\tswitch op {\n")
	for j := range spec.Ops {
		op := &spec.Ops[j]
		if op.StaticDirect(arch) {
			w.p("\tcase %q:\n\t\treturn %q\n", op.Name, op.StaticVariant(arch, l).Name)
		}
	}
	w.p("\t}\n\treturn \"\"\n}\n")
	for j := range spec.Ops {
		op := &spec.Ops[j]
		if !op.StaticDirect(arch) {
			continue
		}
		v := op.StaticVariant(arch, l)
		w.p("\n")
		how := fmt.Sprintf("a direct call to %s", op.DirectName(v.Name))
		if op.StaticInline(arch, l) {
			how = "the inlined sync/atomic intrinsic, which is that variant"
		}
		if op.StaticPlain(arch, l) {
			how = "its plain Go access, which is that variant"
		}
		text := fmt.Sprintf("%s is %s with its variant fixed at compile time, as hal's\n"+
			"%s is in a gohal_static build: at %s, variant %q, bound by\n%s.",
			op.StaticName(), op.Name, op.GoName, l.Tag, v.Name, how)
		var unsure []string
		for _, r := range v.Requires {
			if !l.Has(r) {
				unsure = append(unsure, r)
			}
		}
		if len(unsure) > 0 {
			text += fmt.Sprintf("\nThe level does not guarantee %s: a gohal_static build of hal\n"+
				"checks for it at init; called directly, nothing checks.", strings.Join(unsure, ", "))
		}
		w.wrapped(text)
		body := call(op, op.DirectName(v.Name))
		if op.StaticInline(arch, l) {
			body = inlineBody(op)
		}
		if op.StaticPlain(arch, l) {
			body = plainBody(op)
		}
		w.p("func %s {\n\t%s\n}\n", op.Decl(op.StaticName())[len("func "):], body)
	}
	return w
}

// zprobeFile: package lab/probe's declarations of the flag probes.
func zprobeFile(arch string) *goWriter {
	w := &goWriter{name: ProbeDir + "/zprobe_" + arch + ".go"}
	// A 128-bit op with one variant (cas128 on s390x) has a probe, whose
	// alignment check tail-jumps to this package's misaligned128.
	uint128 := false
	for i := range spec.Ops {
		uint128 = uint128 || spec.Ops[i].Uint128 && spec.Ops[i].Flagged(arch)
	}
	// On a 32-bit architecture a 64-bit op's probe checks the word's
	// alignment and tail-jumps to this package's misaligned64.
	word64 := false
	for i := range spec.Ops {
		op := &spec.Ops[i]
		word64 = word64 || spec.PtrSize(arch) == 4 && op.Flagged(arch) && len(op.Params) > 0 && op.Params[0].Type == "*uint64"
	}
	switch {
	case uint128:
		w.header(DirectTags, "probe", "unsafe", DirectImport)
	case word64:
		w.header(DirectTags, "probe", DirectImport)
	default:
		w.header(DirectTags, "probe")
	}
	w.p("// The flag-probe bytes: never written, so each Flagged entry's test\n")
	w.p("// always falls through.\n")
	w.p("var (\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.Flagged(arch) {
			w.p("\t%s uint8 // %s\n", op.SelVar(), op.Name)
		}
	}
	w.p(")\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if !op.Flagged(arch) {
			continue
		}
		v := op.Variants(arch)[0]
		w.p("\n")
		w.wrapped(fmt.Sprintf("%s is %s's only variant on %s, %q, behind the one-byte flag\n"+
			"test that hal's entries for ops with several variants start with (a\n"+
			"load of %s, which is never written, a compare and a branch that is\n"+
			"never taken). It exists to measure what that test costs: compare it\n"+
			"with direct.%s.%s",
			op.FlaggedName(), op.Name, arch, v.Name, op.SelVar(), op.DirectName(v.Name),
			directCaveatSuffix(v)))
		if op.HasPointer() {
			w.p("//\n//go:noescape\n")
		}
		w.p("%s\n", op.Decl(op.FlaggedName()))
	}
	if uint128 {
		w.p("\n// %s is where a 128-bit probe jumps when addr is not 16-byte\n", spec.Misaligned128)
		w.p("// aligned, as hal/direct's variants do: it panics with direct.AlignmentError.\n")
		w.p("func %s(addr *[2]uint64) {\n", spec.Misaligned128)
		w.p("\tpanic(&direct.AlignmentError{Addr: uintptr(unsafe.Pointer(addr))})\n}\n")
	}
	if word64 {
		w.p("\n// %s is where a 64-bit probe jumps when addr is not 8-byte aligned,\n", spec.Misaligned64)
		w.p("// as hal/direct's variants do: it panics as sync/atomic does.\n")
		w.p("func %s(addr *uint64) { panic(direct.Unaligned64) }\n", spec.Misaligned64)
	}
	return w
}

// rowFunc is the name of hal's generated row constructor of op (ztable.go).
func rowFunc(op *spec.Op) string { return "row" + op.ExportName() }

// fnType is the Go type of op's functions, as hal's generated code spells
// it: an alias declared in ztable.go.
func fnType(op *spec.Op) string { return "fn" + op.ExportName() }

// CommonFiles returns the Go files of package hal that do not depend on
// the GOARCH, by path relative to package hal: ztable.go (its typed row
// constructors and portableOps, in every build),
// internal/tooling/ztable.go and haltool/ztable.go (the DispatchTable hal
// writes, and the one tools read), zportable.go (the portable build: every GOARCH not in arches,
// and purego or race everywhere), zops_test.go (the op lists and
// bindings hal's tests loop over), ../lab/suite/zdispatch_noasm.go
// (lab/suite's build without hal/direct's assembly) and
// ../lab/suite/zmodes.go (its modes that do not depend on the GOARCH).
func CommonFiles(arches []string) (map[string][]byte, error) {
	tw, err := zsuiteTableFile()
	if err != nil {
		return nil, err
	}
	ws := []*goWriter{ztableFile(arches), ztoolingFile(), zhaltoolFile(), zportableFile(arches), zopsTestFile(), zsuiteNoAsmFile(arches), zsuiteModesFile(), zsuiteBodiesFile(), tw}
	out, err := ArchFiles(arches)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		src, err := w.format()
		if err != nil {
			return nil, err
		}
		out[w.name] = src
	}
	return out, nil
}

// ztableFile: what builds hal's dispatch table rows, in every build. The
// table itself is hal/internal/tooling's DispatchTable (ztoolingFile),
// shown to tools as hal/haltool's (zhaltoolFile).
func ztableFile(arches []string) *goWriter {
	w := &goWriter{name: "ztable.go"}
	w.p("// %s\n\n", Header)
	w.p("package hal\n\n")
	w.p("import %q\n\n", ToolingImport)
	w.p("// The Go type of each op's functions.\n")
	w.p("type (\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\t%s = %s\n", fnType(op), op.Signature())
	}
	w.p(")\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n// %s builds op %s's archOps row from its variants, in order of\n", rowFunc(op), op.Name)
		w.p("// preference; sel is the op's flag byte, nil when there is one variant.\n")
		w.p("func %s(sel *uint8, vs []variant[%s]) opImpl {\n", rowFunc(op), fnType(op))
		w.p("\treturn row(%q, sel, func(t *tooling.DispatchTable, e tooling.Entry[%s]) { t.%s = e }, vs)\n}\n", op.Name, fnType(op), op.ExportName())
	}
	w.p("\n// specVariants returns op's variants on goarch in a build with\n")
	w.p("// assembly (not purego, not race), in order of preference, and nil\n")
	w.p("// for an op or GOARCH without any: what the portable build's override\n")
	w.p("// errors point to.\n")
	w.p("func specVariants(goarch, op string) []string {\n\tswitch goarch + \"/\" + op {\n")
	for _, arch := range arches {
		for i := range spec.Ops {
			op := &spec.Ops[i]
			var q []string
			for _, v := range op.Variants(arch) {
				q = append(q, fmt.Sprintf("%q", v.Name))
			}
			if len(q) > 0 {
				w.p("\tcase %q:\n\t\treturn []string{%s}\n", arch+"/"+op.Name, strings.Join(q, ", "))
			}
		}
	}
	w.p("\t}\n\treturn nil\n}\n")
	w.p("\n// portableOps is every op with its one Go variant, hal's <op>_portable\n")
	w.p("// (portable.go): the archOps of the portable build, and, being compiled\n")
	w.p("// into every build, the proof that no op lacks its fallback.\n")
	w.p("var portableOps = []opImpl{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\t%s(nil, []variant[%s]{{name: %q, fn: %s}}),\n", rowFunc(op), fnType(op), spec.PortableName, op.Symbol(spec.PortableName))
	}
	w.p("}\n")
	return w
}

// tableDoc is the doc comment of op's DispatchTable field, in package
// haltool: the spec's TableDoc, else a line that names the op and links
// hal's function (or, for an op whose Go function is unexported, such as
// the 128-bit ops behind Uint128's methods, the type that exports it: a
// doc link must name something exported).
func tableDoc(op *spec.Op) string {
	switch {
	case op.TableDoc != "":
		return op.TableDoc
	case token.IsExported(op.GoName):
		return fmt.Sprintf("%s is the row of op %q (see [hal.%s]).", op.ExportName(), op.Name, op.GoName)
	case op.Uint128:
		return fmt.Sprintf("%s is the row of op %q (see [hal.Uint128]).", op.ExportName(), op.Name)
	}
	return fmt.Sprintf("%s is the row of op %q.", op.ExportName(), op.Name)
}

// ztoolingFile: hal/internal/tooling's DispatchTable, the table hal
// writes, a field per op named by its ExportName.
func ztoolingFile() *goWriter {
	w := &goWriter{name: ToolingDir + "/ztable.go"}
	w.p("// %s\n\n", Header)
	w.p("package tooling\n\n")
	w.p("// DispatchTable is hal's dispatch table: per op, the variant chosen and\n")
	w.p("// a func value bound to it. haltool.DispatchTable has the same fields,\n")
	w.p("// with their documentation.\n")
	w.p("type DispatchTable struct {\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\t%s Entry[%s]\n", op.ExportName(), op.Signature())
	}
	w.p("}\n")
	return w
}

// zhaltoolFile: hal/haltool's DispatchTable, with the fields of
// tooling.DispatchTable (haltool.Table converts a pointer to hal's table
// into one to this type, which compiles only while the two agree) and a
// doc comment per field.
func zhaltoolFile() *goWriter {
	w := &goWriter{name: HaltoolDir + "/ztable.go"}
	w.p("// %s\n\n", Header)
	w.p("package haltool\n\n")
	w.p(`// DispatchTable holds, per op, the variant chosen at init and a func value
// bound to it; [Table] returns hal's. Calling through it is an indirect
// call; when the variant is assembly it also passes through the ABI wrapper
// the Go toolchain puts in front of every assembly function used as a func
// value. It exists to measure that cost and for callers that store
// operations in data; hal's exported functions are the cheaper binding.
// Each field is the row of one op, named as hal's function for it.
`)
	w.p("type DispatchTable struct {\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.doc(tableDoc(op))
		w.p("%s Entry[%s]\n", op.ExportName(), op.Signature())
	}
	w.p("}\n")
	return w
}

// zportableFile: the portable build's constants, bindings, archOps and
// exported functions.
func zportableFile(arches []string) *goWriter {
	w := &goWriter{name: "zportable.go"}
	tags := "purego || race"
	if len(arches) > 0 {
		tags += " || !(" + strings.Join(arches, " || ") + ")"
	}
	var imports []string
	imports = append(imports, BindingImport)
	if anyInline(spec.Ops, func(op *spec.Op) bool { return op.Inline != "" }) {
		imports = append(imports, "sync/atomic")
	}
	w.p("// %s\n\n", Header)
	w.p("//go:build %s\n\n", tags)
	w.p("package hal\n\n")
	w.p("import (\n")
	for _, im := range imports {
		w.p("\t%q\n", im)
	}
	w.p(")\n\n")
	w.p("// In the portable build every op has one variant, %q: hal's Go\n", spec.PortableName)
	w.p("// fallback <op>_portable. The exported functions are the op's sync/atomic\n")
	w.p("// expression where it has one, else a call of the fallback, so the\n")
	w.p("// compiler can inline them.\n\n")
	w.p("// The portable build chooses nothing at compile time, even with the\n")
	w.p("// gohal_static tag: it has nothing to choose.\n")
	w.p("const (\n\tstaticBuild = false\n\tstaticLevel = \"\"\n)\n\n")
	w.p("func staticVariant(op string) string { return \"\" }\n\n")
	w.p("var archOps = portableOps\n\n")
	w.bindingsMap(func(*spec.Op) binding.Kind { return binding.Portable })
	w.p("\n// guards is empty: the portable build reads no flag.\n")
	w.p("var guards []guard\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n")
		doc := op.Doc
		if op.PortableDoc != "" {
			doc += " " + op.PortableDoc
		}
		w.doc(doc)
		body := call(op, op.Symbol(spec.PortableName))
		if op.Inline != "" {
			body = inlineBody(op)
		}
		w.p("func %s {\n\t%s\n}\n", op.Decl(op.GoName)[len("func "):], body)
		if op.Uint128 {
			uEntry(w, op)
		}
	}
	return w
}

// zopsTestFile: the op lists and bindings hal's external tests loop over.
func zopsTestFile() *goWriter {
	w := &goWriter{name: "zops_test.go"}
	w.p("// %s\n\n", Header)
	w.p("package hal_test\n\n")
	w.p("import (\n\t\"github.com/gohal/gohal/hal\"\n\t%q\n)\n\n", HaltoolImport)
	w.p("// allOps is the spec's op list, in spec order: every build has exactly\n")
	w.p("// these ops.\n")
	w.p("var allOps = []string{\n")
	for i := range spec.Ops {
		w.p("\t%q,\n", spec.Ops[i].Name)
	}
	w.p("}\n\n")
	w.p("// tableVariant returns the variant that op's row of haltool.Table() names.\n")
	w.p("func tableVariant(op string) string {\n\tt := haltool.Table()\n\tswitch op {\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\tcase %q:\n\t\treturn t.%s.Variant\n", op.Name, op.ExportName())
	}
	w.p("\t}\n\treturn \"\"\n}\n\n")
	exported := func(op *spec.Op) bool { return op.GoName[0] >= 'A' && op.GoName[0] <= 'Z' }
	w.p("// opFuncs holds one function per op with an exported function, under\n")
	w.p("// the op's name: the two ways tests call a variant (apiFuncs, tableFuncs).\n")
	w.p("type opFuncs struct {\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if exported(op) {
			w.p("\t%s %s\n", op.Name, op.Signature())
		}
	}
	w.p("}\n\n")
	w.p("// apiFuncs calls the exported functions (inside closures, so each call\n")
	w.p("// is the direct call a user's code makes).\n")
	w.p("func apiFuncs() opFuncs {\n\treturn opFuncs{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if exported(op) {
			w.p("\t\t%s: %s { %s },\n", op.Name, op.Signature(), call(op, "hal."+op.GoName))
		}
	}
	w.p("\t}\n}\n\n")
	w.p("// tableFuncs calls the func values of haltool.Table() as they are now\n")
	w.p("// (after any haltool.Force).\n")
	w.p("func tableFuncs() opFuncs {\n\tt := haltool.Table()\n\treturn opFuncs{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if exported(op) {
			w.p("\t\t%s: t.%s.Func,\n", op.Name, op.ExportName())
		}
	}
	w.p("\t}\n}\n")
	return w
}
