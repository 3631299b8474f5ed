package backend

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohal/gohal/gen/spec"
)

// SuiteDir is where package lab/suite (the benchmark suite, for
// measurement only) lives, relative to hal.
const SuiteDir = "../lab/suite"

// The binding modes whose bodies depend on the GOARCH, as lab/suite names
// them (its ModeDirect, ModeFlag and ModeStatic): the generator writes
// their bodies, one per measured op, from the spec's variants.
const (
	modeDirect = "direct"
	modeFlag   = "flag"
	modeStatic = "static"
)

var archModes = []string{modeDirect, modeFlag, modeStatic}

// modeConst is each mode's constant in lab/suite.
var modeConst = map[string]string{modeDirect: "ModeDirect", modeFlag: "ModeFlag", modeStatic: "ModeStatic"}

// labForm is how one benchmark body of lab/suite is written around its
// callee. CALL in Setup or Loop stands for the function called (a
// hal/direct variant, a lab/probe flag probe, hal's exported function or
// direct.Static<Op>).
type labForm struct {
	// Setup is the code before the meter (Dispatch) or before
	// cyclebench.RunLoop (Contended): the word, and v.
	Setup string
	// Loop is, for Dispatch, the body of the b.Loop loop; for Contended,
	// the func literal RunLoop runs on each goroutine.
	Loop string
	// Post is the code after the meter stops (Dispatch only).
	Post string
}

// labShape is how lab/suite measures one op: the Dispatch (one goroutine)
// and Contended (a shared word) bodies, as forms over the callee. The
// generator writes from them the op's direct, flag and static modes on
// every GOARCH (lab/suite/zdispatch_<arch>.go) and its inline, api, table,
// closure and (through a portable function of lab/suite's) generic modes in
// every build (lab/suite/zmodes.go).
type labShape struct {
	Op string
	// D and C are the Dispatch and Contended bodies through a function
	// with the op's signature.
	D, C labForm
	// DMethod and CMethod, for a Uint128 op, are the flag mode's bodies
	// when the flag is read by hal's entry: through hal.Uint128's
	// method, which calls it.
	DMethod, CMethod *labForm
	// CStatic, if set, is the static mode's Contended body.
	CStatic *labForm
	// Contended says the op has Contended bodies.
	Contended bool
	// DirectNotFull and TableNotFull say the direct or table mode's
	// Contended body runs in the default (not only -full) selection.
	DirectNotFull, TableNotFull bool
	// Generic is the portable function of lab/suite the generic mode
	// calls in the same forms (a CAS loop it inlines); "" where lab/suite
	// writes that mode's bodies itself. GenericFull says its Contended
	// body runs only with -full.
	Generic     string
	GenericFull bool
}

// labShapes lists the ops lab/suite measures per binding mode (its
// DispatchOps, but cpu, which lab/suite/cpu.go measures per variant
// instead). A new op is measured in every mode on every GOARCH by a new
// entry here and in lab/suite's DispatchOps, with its closure and its
// portable function (or generic bodies) in lab/suite's dispatch.go: no
// per-architecture or per-mode body is written by hand.
var labShapes = []labShape{
	{
		Op:           "fetchadd64",
		D:            word64("v = CALL(&c.v, 1)"),
		C:            worker64("var v uint64", "v += CALL(&c.v, 1)"),
		Contended:    true,
		TableNotFull: true,
		Generic:      "casAdd",
	},
	{
		// A CAS from the value last written, which succeeds; under
		// contention a failed attempt reloads the word (a plain load,
		// the same in every mode).
		Op: "cas64",
		D:  word64("if CALL(&c.v, v, v+1) {\nv++\n}"),
		C: worker64("v := atomic.LoadUint64(&c.v)",
			"if CALL(&c.v, v, v+1) {\nv++\n} else {\nv = atomic.LoadUint64(&c.v)\n}"),
		Contended: true,
	},
	{
		Op:          "swap64",
		D:           word64("v = CALL(&c.v, v+1)"),
		C:           worker64("var v uint64", "v = CALL(&c.v, v+1)"),
		Contended:   true,
		Generic:     "casSwap",
		GenericFull: true,
	},
	{
		// Under contention every goroutine loads the one word, which
		// nobody writes: the line stays shared in every cache, so this
		// measures how loads scale, not a fight over the line.
		Op:        "loadacquire64",
		D:         word64("v = CALL(&c.v)"),
		C:         worker64("var v uint64", "v += CALL(&c.v)"),
		Contended: true,
	},
	{
		Op:      "pause",
		D:       labForm{Loop: "CALL()"},
		Generic: "runtime.Gosched",
	},
	{
		// A 128-bit CAS of (v, v) to (v+1, v+1) from the value last
		// written. Under contention only the assembly touches the word
		// in the direct mode: a failed CAS returns the value found, the
		// next attempt's expected value; the other modes reload it with
		// hal's Uint128.Load.
		Op:      "cas128",
		D:       word128("if _, _, ok := CALL(a, v, v, v+1, v+1); ok {\nv++\n}"),
		DMethod: method128("if c.u.CompareAndSwap(v, v, v+1, v+1) {\nv++\n}"),
		C: labForm{Setup: "c := new(cell128)\na := c.word()",
			Loop: worker("var v uint64", "if found, _, ok := CALL(a, v, v, v+1, v+1); ok {\nv++\n} else {\nv = found\n}")},
		CStatic: &labForm{Setup: "c := new(cell128)\na := c.word()",
			Loop: worker("v, _ := c.u.Load()", "if _, _, ok := CALL(a, v, v, v+1, v+1); ok {\nv++\n} else {\nv, _ = c.u.Load()\n}")},
		CMethod: &labForm{Setup: "c := new(cell128)",
			Loop: worker("v, _ := c.u.Load()", "if c.u.CompareAndSwap(v, v, v+1, v+1) {\nv++\n} else {\nv, _ = c.u.Load()\n}")},
		Contended:    true,
		TableNotFull: true,
	},
	{
		// Under contention every goroutine loads the one word. A load
		// that writes (CMPXCHG16B, CASPAL, LDAXP/STLXP) takes the line
		// exclusively, so readers fight for it; VMOVDQA leaves it shared.
		Op:      "load128",
		D:       word128("lo, _ := CALL(a)\nv += lo"),
		DMethod: method128("lo, _ := c.u.Load()\nv += lo"),
		C: labForm{Setup: "c := new(cell128)\na := c.word()",
			Loop: worker("var v uint64", "lo, _ := CALL(a)\nv += lo")},
		CMethod: &labForm{Setup: "c := new(cell128)",
			Loop: worker("var v uint64", "lo, _ := c.u.Load()\nv += lo")},
		Contended:     true,
		DirectNotFull: true,
	},
	{
		Op:      "store128",
		D:       word128("CALL(a, v, v)\nv++"),
		DMethod: method128("c.u.Store(v, v)\nv++"),
	},
	{
		Op:      "cycles",
		D:       labForm{Setup: "var v uint64", Loop: "v = CALL()", Post: "use(v)"},
		Generic: "genericCycles",
	},
	{
		// fetchor64 and fetchand64: a loop-invariant mask (orMask,
		// andMask in lab/suite/dispatch.go).
		Op:      "fetchor64",
		D:       word64("v = CALL(&c.v, orMask)"),
		Generic: "casOr",
	},
	{
		Op:      "fetchand64",
		D:       word64("v = CALL(&c.v, andMask)"),
		Generic: "casAnd",
	},
}

// cpuShape is how lab/suite measures op cpu in the modes of zmodes.go;
// its direct, flag and static modes are per variant instead (mode=<variant>,
// lab/suite/cpu.go), so it is not in labShapes.
var cpuShape = labShape{Op: "cpu", D: labForm{Setup: "v := 0", Loop: "v += CALL()", Post: "use(uint64(v))"}}

func word64(loop string) labForm {
	return labForm{Setup: "c, v := new(cell), uint64(0)", Loop: loop, Post: "use(v)"}
}

func word128(loop string) labForm {
	return labForm{Setup: "c, v := new(cell128), uint64(0)\na := c.word()", Loop: loop, Post: "use(v)"}
}

func method128(loop string) *labForm {
	return &labForm{Setup: "c, v := new(cell128), uint64(0)", Loop: loop, Post: "use(v)"}
}

func worker64(init, body string) labForm {
	return labForm{Setup: "c := new(cell)", Loop: worker(init, body)}
}

// worker is a RunLoop func literal: init, body n times, use(v).
func worker(init, body string) string {
	return "func(_, n int) {\n" + init + "\nfor range n {\n" + body + "\n}\nuse(v)\n}"
}

// mixedOp is lab/suite's Contended case of goroutine 0 storing the
// 128-bit word while the others load it, in the direct mode: the load
// and store variants of one kind.
const mixedOp = "load128mixed"

// labVariant is one way a mode reaches an op: the case of the direct
// mode's switch (empty for no switch) and the callee.
type labVariant struct {
	Case, Callee string
}

// labCallees returns how mode reaches op on arch: the callees (several,
// one per case of a switch on directVariant, for the direct mode of an op
// with a choice), whether the body goes through hal.Uint128's method, and
// why there is no body when there is none.
func labCallees(op *spec.Op, arch, mode string) (vs []labVariant, method bool, absent string) {
	switch mode {
	case modeDirect:
		asm := op.AsmVariants(arch)
		if len(asm) == 0 {
			return nil, false, fmt.Sprintf("no assembly variant on %s (hal's Go variant only: mode=generic)", arch)
		}
		if len(asm) == 1 && len(op.Variants(arch)) == 1 && len(asm[0].Requires) == 0 {
			return []labVariant{{Callee: "direct." + op.DirectName(asm[0].Name)}}, false, ""
		}
		for _, v := range asm {
			vs = append(vs, labVariant{Case: v.Name, Callee: "direct." + op.DirectName(v.Name)})
		}
		return vs, false, ""
	case modeFlag:
		switch {
		case op.Flagged(arch):
			return []labVariant{{Callee: "probe." + op.FlaggedName()}}, false, ""
		case len(op.Variants(arch)) > 1 && op.Uint128:
			return []labVariant{{}}, true, ""
		case len(op.Variants(arch)) > 1:
			return []labVariant{{Callee: "hal." + op.GoName}}, false, ""
		}
		return nil, false, fmt.Sprintf("one variant on %s, in Go: no flag to test", arch)
	case modeStatic:
		if op.StaticDirect(arch) {
			return []labVariant{{Callee: "direct." + op.StaticName()}}, false, ""
		}
		return nil, false, fmt.Sprintf("a gohal_static build on %s binds hal's Go variant (mode=generic)", arch)
	}
	panic("labCallees: mode " + mode)
}

// SuiteFiles returns package lab/suite's generated file of arch, by path
// relative to package hal: zdispatch_<arch>.go, the direct, flag and
// static modes of every op in labShapes, with archAbsent (why a mode has
// no body) and asmVariants (what directVariant chooses from).
func SuiteFiles(arch string) (map[string][]byte, error) {
	w := zsuiteFile(arch)
	src, err := w.format()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{w.name: src}, nil
}

func zsuiteFile(arch string) *goWriter {
	var body strings.Builder
	absent := map[string]string{}
	imports := map[string]bool{"testing": true, "github.com/gohal/gohal/lab/cyclebench": true}
	emit := func(s string) {
		body.WriteString(s)
		body.WriteString("\n")
	}
	for _, sh := range labShapes {
		op := spec.Find(sh.Op)
		for _, mode := range archModes {
			vs, method, why := labCallees(op, arch, mode)
			if why != "" {
				absent[sh.Op+"/"+mode] = why
				continue
			}
			d := sh.D
			if method {
				d = *sh.DMethod
			}
			emit(fmt.Sprintf("dispatch(%q, %s, func(b *testing.B) {", sh.Op, modeConst[mode]))
			emit(dispatchBody(op, d, vs))
			emit("})")
			if !sh.Contended {
				continue
			}
			c := sh.C
			switch {
			case method:
				c = *sh.CMethod
			case mode == modeStatic && sh.CStatic != nil:
				c = *sh.CStatic
			}
			full := !(mode == modeDirect && sh.DirectNotFull)
			emit(fmt.Sprintf("contended(%q, %s, %v, func(b *testing.B, threads int) {", sh.Op, modeConst[mode], full))
			emit(contendedBody(op, c, vs))
			emit("})")
		}
	}
	if s, ok := mixedBody(arch); ok {
		emit(s)
	} else {
		absent[mixedOp+"/"+modeDirect] = fmt.Sprintf("no assembly variant of load128 and store128 on %s", arch)
	}
	src := body.String()
	for _, im := range []struct{ use, path string }{
		{"atomic.", "sync/atomic"},
		{"hal.", "github.com/gohal/gohal/hal"},
		{"direct.", DirectImport},
		{"probe.", "github.com/gohal/gohal/lab/probe"},
	} {
		if strings.Contains(src, im.use) {
			imports[im.path] = true
		}
	}
	var std, mod []string
	for p := range imports {
		if strings.Contains(p, ".") {
			mod = append(mod, p)
		} else {
			std = append(std, p)
		}
	}
	sort.Strings(std)
	sort.Strings(mod)

	w := &goWriter{name: SuiteDir + "/zdispatch_" + arch + ".go"}
	w.header(DirectTags, "suite")
	w.p("import (\n")
	for _, p := range std {
		w.p("\t%q\n", p)
	}
	w.p("\n")
	for _, p := range mod {
		w.p("\t%q\n", p)
	}
	w.p(")\n\n")
	w.wrapped(fmt.Sprintf("haveAsm reports whether this build has hal/direct's assembly, and with it the direct, flag and static modes (on %s: every op's variants but hal's Go ones).", arch))
	w.p("const haveAsm = true\n\n")
	w.wrapped("asmVariants lists each measured op's assembly variants on " + arch + ", in the spec's order of preference, with the CPU features each requires: what directVariant chooses from.")
	w.p("var asmVariants = map[string][]asmVariant{\n")
	for _, sh := range labShapes {
		op := spec.Find(sh.Op)
		var items []string
		for _, v := range op.AsmVariants(arch) {
			items = append(items, fmt.Sprintf("{%q, %s}", v.Name, quotedList(v.Requires)))
		}
		if len(items) > 0 {
			w.p("%q: {%s},\n", sh.Op, strings.Join(items, ", "))
		}
	}
	w.p("}\n\n")
	w.wrapped("archAbsent returns why op has no body in mode (direct, flag or static) on " + arch + ", or \"\" if it has one.")
	w.p("func archAbsent(op, mode string) string {\n")
	if len(absent) > 0 {
		w.p("switch op + \"/\" + mode {\n")
		keys := make([]string, 0, len(absent))
		for k := range absent {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.p("case %q:\nreturn %q\n", k, absent[k])
		}
		w.p("}\n")
	}
	w.p("return \"\"\n}\n\n")
	w.wrapped("addArchModes registers the direct, flag and static modes of every op lab/suite measures on " + arch + ": the direct mode calls the variant directVariant names (the one hal chose), the flag mode a flag test in front of the variant (hal's entry where the op has several variants, else lab/probe's flag probe), the static mode hal/direct's Static<Op>.")
	w.p("func addArchModes() {\n%s}\n", src)
	return w
}

func quotedList(ss []string) string {
	if len(ss) == 0 {
		return "nil"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// withSwitch writes one body per callee: bare when there is one without a
// case, else as the cases of a switch on directVariant(op), whose default
// skips the benchmark.
func withSwitch(op *spec.Op, vs []labVariant, one func(callee string) string) string {
	if len(vs) == 1 && vs[0].Case == "" {
		return one(vs[0].Callee)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "switch directVariant(%q) {\n", op.Name)
	for _, v := range vs {
		fmt.Fprintf(&b, "case %q:\n%s\n", v.Case, one(v.Callee))
	}
	fmt.Fprintf(&b, "default:\nb.Skip(%q)\n}", "this CPU runs no assembly variant of "+op.Name)
	return b.String()
}

func dispatchBody(op *spec.Op, f labForm, vs []labVariant) string {
	var b strings.Builder
	if f.Setup != "" {
		b.WriteString(f.Setup + "\n")
	}
	b.WriteString(withSwitch(op, vs, func(callee string) string {
		return "m := cyclebench.Start(b)\nfor b.Loop() {\n" + strings.ReplaceAll(f.Loop, "CALL", callee) + "\n}\nm.Stop()"
	}))
	if f.Post != "" {
		b.WriteString("\n" + f.Post)
	}
	return b.String()
}

func contendedBody(op *spec.Op, f labForm, vs []labVariant) string {
	var b strings.Builder
	if f.Setup != "" {
		b.WriteString(f.Setup + "\n")
	}
	b.WriteString(withSwitch(op, vs, func(callee string) string {
		return "cyclebench.RunLoop(b, threads, " + strings.ReplaceAll(f.Loop, "CALL", callee) + ")"
	}))
	return b.String()
}

// mixedBody is load128mixed's direct mode: one case per variant name that
// load128 and store128 share on arch.
func mixedBody(arch string) (string, bool) {
	load, store := spec.Find("load128"), spec.Find("store128")
	stores := map[string]bool{}
	for _, v := range store.AsmVariants(arch) {
		stores[v.Name] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "contended(%q, %s, false, func(b *testing.B, threads int) {\n", mixedOp, modeConst[modeDirect])
	b.WriteString("c := new(cell128)\na := c.word()\n")
	b.WriteString("switch directVariant(\"load128\") + \"/\" + directVariant(\"store128\") {\n")
	n := 0
	for _, v := range load.AsmVariants(arch) {
		if !stores[v.Name] {
			continue
		}
		n++
		fmt.Fprintf(&b, "case %q:\n", v.Name+"/"+v.Name)
		fmt.Fprintf(&b, "cyclebench.RunLoop(b, threads, func(w, n int) {\nvar v uint64\nif w == 0 {\nfor i := range n {\n%s(a, uint64(i), uint64(i))\n}\nreturn\n}\nfor range n {\nlo, _ := %s(a)\nv += lo\n}\nuse(v)\n})\n",
			"direct."+store.DirectName(v.Name), "direct."+load.DirectName(v.Name))
	}
	b.WriteString("default:\nb.Skip(\"this CPU runs no assembly variant of load128 and store128 of one kind\")\n}\n})")
	return b.String(), n > 0
}

// neutralModes are the binding modes whose bodies do not depend on the
// GOARCH, as lab/suite names them: zsuiteModesFile writes them in every
// build (the generic mode for the ops with a labShape.Generic).
var neutralModes = []string{"ModeInline", "ModeAPI", "ModeTable", "ModeClosure", "ModeGeneric"}

// neutralForms returns how mode reaches op: the Dispatch and Contended
// forms with CALL replaced by the callee, whether the Contended body runs
// only with -full, and ok false when op has no body in mode. The inline
// mode calls the sync/atomic function of the spec's Inline expression;
// the api mode hal's exported function (a Uint128 op: its method); the
// table mode the func value of haltool.Table()'s row; the closure mode
// lab/suite's closures, Go closures over the intrinsic or hal's function
// (a Uint128 op's take the hal.Uint128); the generic mode the shape's
// Generic.
func neutralForms(sh labShape, mode string) (d, c labForm, full, ok bool) {
	op := spec.Find(sh.Op)
	d, c = sh.D, sh.C
	if sh.CStatic != nil {
		c = *sh.CStatic
	}
	callee := ""
	switch mode {
	case "ModeInline":
		callee, _, ok = strings.Cut(op.Inline, "(")
		if !ok || op.Uint128 {
			return d, c, false, false
		}
	case "ModeAPI":
		callee = "hal." + op.GoName
		if op.Uint128 {
			d, c = methodForms(sh)
		}
	case "ModeTable":
		callee, full = "t."+op.ExportName()+".Func", !sh.TableNotFull
		d.Setup, c.Setup = "t := haltool.Table()\n"+d.Setup, "t := haltool.Table()\n"+c.Setup
	case "ModeGeneric":
		callee, full = sh.Generic, sh.GenericFull
		if callee == "" {
			return d, c, false, false
		}
	case "ModeClosure":
		callee, full = "closures."+op.ExportName(), true
		if op.Uint128 {
			m := "c.u." + strings.TrimSuffix(op.ExportName(), "128") + "("
			d, c = methodForms(sh)
			for _, f := range []*labForm{&d, &c} {
				f.Loop = strings.ReplaceAll(strings.ReplaceAll(f.Loop, m+")", "CALL(&c.u)"), m, "CALL(&c.u, ")
			}
		}
	}
	for _, f := range []*labForm{&d, &c} {
		f.Loop = strings.ReplaceAll(f.Loop, "CALL", callee)
	}
	return d, c, full, true
}

// methodForms are a Uint128 op's forms through hal.Uint128's method.
func methodForms(sh labShape) (d, c labForm) {
	if sh.CMethod != nil {
		c = *sh.CMethod
	}
	return *sh.DMethod, c
}

// zsuiteModesFile: lab/suite/zmodes.go, the inline, api, table, closure
// and generic modes of every op in labShapes and of cpu, in every build.
func zsuiteModesFile() *goWriter {
	var body strings.Builder
	for _, sh := range append(labShapes[:len(labShapes):len(labShapes)], cpuShape) {
		op := spec.Find(sh.Op)
		for _, mode := range neutralModes {
			d, c, full, ok := neutralForms(sh, mode)
			if !ok {
				continue
			}
			one := []labVariant{{}}
			fmt.Fprintf(&body, "dispatch(%q, %s, func(b *testing.B) {\n%s\n})\n", sh.Op, mode, dispatchBody(op, d, one))
			if sh.Contended {
				fmt.Fprintf(&body, "contended(%q, %s, %v, func(b *testing.B, threads int) {\n%s\n})\n", sh.Op, mode, full, contendedBody(op, c, one))
			}
		}
	}
	w := &goWriter{name: SuiteDir + "/zmodes.go"}
	w.p("// %s\n\npackage suite\n\n", Header)
	w.p("import (\n\t\"runtime\"\n\t\"sync/atomic\"\n\t\"testing\"\n\n\t\"github.com/gohal/gohal/hal\"\n\t%q\n\t\"github.com/gohal/gohal/lab/cyclebench\"\n)\n\n", HaltoolImport)
	w.wrapped("addModes registers the inline, api, table, closure and generic modes of every op lab/suite measures per binding mode: the same forms as the direct, flag and static modes of zdispatch_<arch>.go, around the sync/atomic function, hal's exported function (a Uint128 op's method), haltool.Table()'s func value, lab/suite's closure or its portable function (where labShapes names one).")
	w.p("func addModes() {\n%s}\n", body.String())
	return w
}

// zsuiteNoAsmFile: lab/suite's build without hal/direct's assembly
// (purego, or a GOARCH gen has no backend for).
func zsuiteNoAsmFile(arches []string) *goWriter {
	w := &goWriter{name: SuiteDir + "/zdispatch_noasm.go"}
	w.header([]string{"purego || !(" + strings.Join(arches, " || ") + ")"}, "suite")
	w.p("// haveAsm is false: this build has no hal/direct assembly, so the direct,\n")
	w.p("// flag and static modes are absent (see Absent).\n")
	w.p("const haveAsm = false\n\n")
	w.p("// asmVariants is empty: no assembly variant in this build.\n")
	w.p("var asmVariants = map[string][]asmVariant{}\n\n")
	w.p("// archAbsent returns why op has no body in mode (direct, flag or static).\n")
	w.p("func archAbsent(op, mode string) string {\n")
	w.p("return \"not measured in this build (purego, or a GOARCH without a gen backend)\"\n}\n\n")
	w.p("func addArchModes() {}\n")
	return w
}

// tableLoops maps an op's signature (its parameter types, then its result
// types) to the body of halbench tune's loop over the op's row of
// haltool.Table(): F is the row's func value, W the shared word of the
// pointer's type, A the 16-byte-aligned 128-bit word, T the value type. A
// signature not listed here fails go generate, so a new op cannot reach
// tune without a loop.
var tableLoops = map[string]string{
	"()":                     "func(_, n int) {\nfor range n {\nF()\n}\n}",
	"() uint64":              "func(_, n int) {\nvar s uint64\nfor range n {\ns += F()\n}\ntableSink.Add(s)\n}",
	"() uint32":              "func(_, n int) {\nvar s uint32\nfor range n {\ns += F()\n}\ntableSink.Add(uint64(s))\n}",
	"() int":                 "func(_, n int) {\ns := 0\nfor range n {\ns += F()\n}\ntableSink.Add(uint64(s))\n}",
	"(*T, T) T":              "func(_, n int) {\nfor range n {\nF(W, 1)\n}\n}",
	"(*T, T, T) bool":        "func(_, n int) {\nfor range n {\no := atomic.LoadT(W)\nF(W, o, o+1)\n}\n}",
	"(*T) T":                 "func(_, n int) {\nvar s T\nfor range n {\ns += F(W)\n}\ntableSink.Add(uint64(s))\n}",
	"(*uint64, uint64)":      "func(w, n int) {\nfor i := range n {\nF(W, uint64(w)<<32|uint64(i))\n}\n}",
	"(*uint32, uint32)":      "func(w, n int) {\nfor i := range n {\nF(W, uint32(w<<24|i))\n}\n}",
	"(*uintptr, uintptr)":    "func(w, n int) {\nfor i := range n {\nF(W, uintptr(w<<24|i))\n}\n}",
	"(*uint32, uint32) bool": "func(_, n int) {\nfor range n {\nif F(W, 1<<10) {\natomic.StoreUint32(W, 0)\n}\n}\n}",
	"(*A, uint64, uint64, uint64, uint64) (uint64, uint64, bool)": "func(_, n int) {\nvar lo, hi uint64\nfor range n {\nlo, hi, _ = F(A, lo, hi, lo+1, hi)\n}\n}",
	"(*A) (uint64, uint64)": "func(_, n int) {\nvar s uint64\nfor range n {\nlo, hi := F(A)\ns += lo ^ hi\n}\ntableSink.Add(s)\n}",
	"(*A, uint64, uint64)":  "func(w, n int) {\nfor i := range n {\nF(A, uint64(i), uint64(w))\n}\n}",
}

// tableLoop returns op's loop body for tune, with F the row's func value.
func tableLoop(op *spec.Op) (string, error) {
	types := func(ps []spec.Param) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Type)
		}
		return out
	}
	params, results := types(op.Params), types(op.Results)
	sig := func(generic bool) string {
		subst := func(t string) string {
			if t == "*[2]uint64" {
				return "*A"
			}
			if generic && len(params) > 0 && strings.TrimPrefix(params[0], "*") == t {
				return "T"
			}
			if generic && len(params) > 0 && params[0] == "*"+strings.TrimPrefix(t, "*") && strings.HasPrefix(t, "*") {
				return "*T"
			}
			return t
		}
		var ps, rs []string
		for _, p := range params {
			ps = append(ps, subst(p))
		}
		for _, r := range results {
			rs = append(rs, subst(r))
		}
		s := "(" + strings.Join(ps, ", ") + ")"
		switch len(rs) {
		case 0:
		case 1:
			s += " " + rs[0]
		default:
			s += " (" + strings.Join(rs, ", ") + ")"
		}
		return s
	}
	body, ok := tableLoops[sig(false)]
	if !ok {
		body, ok = tableLoops[sig(true)]
	}
	if !ok {
		return "", fmt.Errorf("lab/suite: no tune loop for op %s's signature %s (add one to tableLoops in gen/backend/labsuite.go)", op.Name, op.Signature())
	}
	if len(params) > 0 && params[0] != "*[2]uint64" && strings.HasPrefix(params[0], "*") {
		t := strings.TrimPrefix(params[0], "*")
		word := map[string]string{"uint64": "&x.U64", "uint32": "&x.U32", "uintptr": "&x.Uptr"}[t]
		body = strings.ReplaceAll(body, "LoadT", "Load"+strings.ToUpper(t[:1])+t[1:])
		body = strings.ReplaceAll(body, "W", word)
		body = strings.ReplaceAll(body, "var s T", "var s "+t)
	}
	body = strings.ReplaceAll(body, "F(", "f(")
	body = strings.ReplaceAll(body, "(A", "(a")
	body = strings.ReplaceAll(body, ", A,", ", a,")
	return body, nil
}

// zsuiteTableFile: lab/suite/ztable.go, tune's row of haltool.Table() and its loop
// for every op, in every build.
func zsuiteTableFile() (*goWriter, error) {
	w := &goWriter{name: SuiteDir + "/ztable.go"}
	w.p("// %s\n\npackage suite\n\n", Header)
	w.p("import (\n\t\"sync/atomic\"\n\n\t%q\n)\n\n", HaltoolImport)
	w.wrapped("TableRows maps every op to its row of haltool.Table() and a cyclebench.RunLoop body calling the row's func value on the words of x: what halbench tune times for an op the suite has no body of hal's exported function for. Loop reads the row when it is called, so a variant forced before runs.")
	w.p("var TableRows = map[string]TableRow{\n")
	for i := range spec.Ops {
		op := &spec.Ops[i]
		body, err := tableLoop(op)
		if err != nil {
			return nil, err
		}
		pre := ""
		if strings.Contains(body, "(a") || strings.Contains(body, ", a,") {
			pre = "a := x.Word128()\n"
		}
		w.p("%q: {Field: %q, Loop: func(x *TableWord) func(w, n int) {\n%sf := haltool.Table().%s.Func\nreturn %s\n}},\n", op.Name, op.ExportName(), pre, op.ExportName(), body)
	}
	w.p("}\n")
	return w, nil
}
