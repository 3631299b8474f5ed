package backend

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/gohal/gohal/gen/spec"
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
// gohal_static build keeps them for Selected and Table; nothing reads the
// flags there).
func zasmFile(arch string) *goWriter {
	w := &goWriter{name: "zasm_" + arch + ".go"}
	w.header(Tags, "hal", DirectImport)
	w.p("// Flag bytes: hal sets each, at init and under Force, to the index of\n")
	w.p("// the chosen variant in its op's archOps row; the op's assembly entry\n")
	w.p("// reads it with one byte load and branches to that variant's body. A\n")
	w.p("// gohal_static build has no entries, and nothing reads them.\n")
	w.p("var (\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if len(op.Variants(arch)) > 1 {
			w.p("\t%s uint8 // %s\n", op.SelVar(), op.Name)
		}
	}
	w.p(")\n\n")
	w.p("// archOps lists the %s ops in spec order, each with its variants in\n", arch)
	w.p("// order of preference, as func values: the assembly in hal/direct, or\n")
	w.p("// hal's <op>_portable for a Go variant.\n")
	w.p("var archOps = []opImpl{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		vs := op.Variants(arch)
		sel := "nil"
		if len(vs) > 1 {
			sel = "&" + op.SelVar()
		}
		w.p("\t{name: %q, sel: %s, variants: []variantImpl{\n", op.Name, sel)
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
		w.p("\t}},\n")
	}
	w.p("}\n")
	return w
}

// binding names how hal binds op outside gohal_static builds.
func binding(op *spec.Op, arch string) string {
	switch {
	case op.InlineBinding(arch):
		return "inline"
	case len(op.Variants(arch)) > 1:
		return "flag"
	}
	return "single"
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
	var imports []string
	if anyInline(spec.Ops, func(op *spec.Op) bool { return op.InlineBinding(arch) }) {
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
	w.p("// bindings says how each op's exported function reaches its variant\n")
	w.p("// in this build: \"inline\" (the sync/atomic intrinsic, inlined into\n")
	w.p("// the caller), \"flag\" (an entry that reads the op's flag byte:\n")
	w.p("// assembly, or Go for an op with a Go variant) or \"single\" (an entry\n")
	w.p("// that is, or calls, the op's one variant).\n")
	w.p("var bindings = map[string]string{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\t%q: %q,\n", op.Name, binding(op, arch))
	}
	w.p("}\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n")
		w.doc(op.Doc)
		if op.InlineBinding(arch) {
			w.p("func %s {\n\t%s\n}\n", op.Decl(op.GoName)[len("func "):], inlineBody(op))
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

// zstaticFile: the exported API of gohal_static builds.
func zstaticFile(arch string) *goWriter {
	w := &goWriter{name: "zstatic_" + arch + ".go"}
	w.header(staticTags(), "hal", DirectImport)
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
			goOnly = append(goOnly, fmt.Sprintf("\tcase %q:\n\t\treturn %q\n", op.Name, op.Variants(arch)[0].Name))
		}
	}
	if len(goOnly) > 0 {
		w.p("\tswitch op {\n%s\t}\n", strings.Join(goOnly, ""))
	}
	w.p("\treturn direct.StaticVariant(op)\n}\n\n")
	w.p("// bindings says how each op's exported function reaches its variant:\n")
	w.p("// in a gohal_static build, always through direct's Static function.\n")
	w.p("var bindings = map[string]string{\n")
	for i := range spec.Ops {
		w.p("\t%q: \"static\",\n", spec.Ops[i].Name)
	}
	w.p("}\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		w.p("\n")
		w.doc(op.Doc)
		fn := "direct." + op.StaticName()
		if !op.StaticDirect(arch) {
			// No hardware variant: the Go one, the same at every level.
			fn = op.Symbol(op.Variants(arch)[0].Name)
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
		if op.Flagged(arch) {
			w.p("\n")
			w.wrapped(fmt.Sprintf("%s is %s's only variant on %s, %q, behind the one-byte flag\n"+
				"test that hal's entries for ops with several variants start with (a\n"+
				"load of %s, which is never written, a compare and a branch that is\n"+
				"never taken). It exists to measure what that test costs: compare it\n"+
				"with %s.%s",
				op.FlaggedName(), op.Name, arch, vs[0].Name, op.SelVar(), op.DirectName(vs[0].Name),
				directCaveatSuffix(vs[0])))
			if op.HasPointer() {
				w.p("//\n//go:noescape\n")
			}
			w.p("%s\n", op.Decl(op.FlaggedName()))
		}
	}
	return w
}

func directCaveat(v spec.Variant) string {
	if len(v.Requires) == 0 {
		return "It is the variant's assembly, called with no dispatch."
	}
	return "It is the variant's assembly, called with no dispatch and no check: the\n" +
		"caller must make sure the CPU has " + strings.Join(v.Requires, ", ") + " (see hal.Runnable)."
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
		w.p("func %s {\n\t%s\n}\n", op.Decl(op.StaticName())[len("func "):], body)
	}
	return w
}
