package backend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/spec"
)

// suiteSource returns lab/suite's generated file of arch.
func suiteSource(t *testing.T, arch string) string {
	t.Helper()
	files, err := SuiteFiles(arch)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := files[SuiteDir+"/zdispatch_"+arch+".go"]
	if !ok || len(files) != 1 {
		t.Fatalf("%s: SuiteFiles wrote %d files, not zdispatch_%s.go alone", arch, len(files), arch)
	}
	return string(src)
}

// TestSuiteBodies: every measured op gets, on every architecture, a
// direct, flag and static body (and Contended ones where it is measured
// under contention) calling the function the spec names, or a reason in
// archAbsent, never both.
func TestSuiteBodies(t *testing.T) {
	for _, arch := range spec.Arches() {
		src := suiteSource(t, arch)
		for _, sh := range labShapes {
			op := spec.Find(sh.Op)
			if op == nil {
				t.Fatalf("labShapes: %s is not a spec op", sh.Op)
			}
			for _, mode := range archModes {
				vs, method, why := labCallees(op, arch, mode)
				reg := fmt.Sprintf("dispatch(%q, %s, ", sh.Op, modeConst[mode])
				cont := fmt.Sprintf("contended(%q, %s, ", sh.Op, modeConst[mode])
				absent := fmt.Sprintf("case %q:", sh.Op+"/"+mode)
				if got := strings.Contains(src, reg); got != (why == "") {
					t.Errorf("%s: %s/%s: body %v, absence reason %q", arch, sh.Op, mode, got, why)
				}
				if got := strings.Contains(src, cont); got != (why == "" && sh.Contended) {
					t.Errorf("%s: %s/%s: contended body %v", arch, sh.Op, mode, got)
				}
				if got := strings.Contains(src, absent); got != (why != "") {
					t.Errorf("%s: %s/%s: archAbsent case %v, absence reason %q", arch, sh.Op, mode, got, why)
				}
				for _, v := range vs {
					if !method && !strings.Contains(src, v.Callee+"(") {
						t.Errorf("%s: %s/%s: no call of %s", arch, sh.Op, mode, v.Callee)
					}
				}
			}
		}
	}
}

// TestSuiteBodiesFollowSpec: the callees are the spec's names for each
// binding: on arm64, fetchadd64's direct mode switches over lse and llsc
// (hal/direct), its flag mode is hal's function (two variants, hal reads
// the flag), cycles' flag mode is lab/probe's flag probe (one variant);
// on amd64, cas128's direct mode skips where the CPU lacks CX16 and its
// flag mode is Uint128's method.
func TestSuiteBodiesFollowSpec(t *testing.T) {
	arm := suiteSource(t, "arm64")
	for _, want := range []string{
		"switch directVariant(\"fetchadd64\") {",
		"case \"lse\":",
		"v = direct.FetchAddUint64Llsc(&c.v, 1)",
		"v = hal.FetchAddUint64(&c.v, 1)",
		"v = probe.CyclesFlagged()",
		"v = direct.StaticFetchAddUint64(&c.v, 1)",
		"direct.Store128Lse(a, uint64(i), uint64(i))",
	} {
		if !strings.Contains(arm, want) {
			t.Errorf("arm64: no %q", want)
		}
	}
	amd := suiteSource(t, "amd64")
	for _, want := range []string{
		"v = direct.FetchAddUint64Lock(&c.v, 1)",
		"v = probe.FetchAddUint64Flagged(&c.v, 1)",
		"\"cas128\":        {{\"cmpxchg16b\", []string{\"cx16\"}}}",
		"if c.u.CompareAndSwap(v, v, v+1, v+1) {",
	} {
		if !strings.Contains(amd, want) {
			t.Errorf("amd64: no %q", want)
		}
	}
	// riscv64's 128-bit ops have only hal's Go variant: no direct, flag
	// or static body, and archAbsent says why.
	rv := suiteSource(t, "riscv64")
	if strings.Contains(rv, "dispatch(\"cas128\"") || !strings.Contains(rv, "case \"cas128/direct\":") {
		t.Errorf("riscv64: cas128 has a body, or no reason for its absence")
	}
}

// TestSuiteNewOp: an op of the spec added to labShapes gets its bodies in
// every mode on every architecture, from its spec entry alone.
func TestSuiteNewOp(t *testing.T) {
	saved := labShapes
	defer func() { labShapes = saved }()
	labShapes = append(labShapes[:len(labShapes):len(labShapes)], labShape{
		Op: "fetchadd32",
		D:  labForm{Setup: "c, v := new(cell32), uint32(0)", Loop: "v = CALL(&c.v, 1)", Post: "use(uint64(v))"},
	})
	for _, arch := range spec.Arches() {
		src := suiteSource(t, arch)
		op := spec.Find("fetchadd32")
		for _, v := range op.AsmVariants(arch) {
			if !strings.Contains(src, "direct."+op.DirectName(v.Name)+"(&c.v, 1)") {
				t.Errorf("%s: fetchadd32's direct mode does not call variant %s", arch, v.Name)
			}
		}
		for _, mode := range archModes {
			if !strings.Contains(src, fmt.Sprintf("dispatch(\"fetchadd32\", %s, ", modeConst[mode])) {
				t.Errorf("%s: fetchadd32 has no %s body", arch, mode)
			}
		}
		if !strings.Contains(src, "\"fetchadd32\":") {
			t.Errorf("%s: fetchadd32 is not in asmVariants", arch)
		}
	}
}

// TestSuiteTableRows: every spec op gets tune's row of haltool.Table() and a
// loop over it, and an op whose signature has no loop fails generation.
func TestSuiteTableRows(t *testing.T) {
	w, err := zsuiteTableFile()
	if err != nil {
		t.Fatal(err)
	}
	src, err := w.format()
	if err != nil {
		t.Fatal(err)
	}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		want := fmt.Sprintf("%q: {Field: %q, ", op.Name, op.ExportName())
		if !strings.Contains(string(src), want) || !strings.Contains(string(src), "haltool.Table()."+op.ExportName()+".Func") {
			t.Errorf("%s: no row %s in ztable.go", op.Name, op.ExportName())
		}
	}
	odd := &spec.Op{Name: "odd", GoName: "Odd", Params: []spec.Param{{Name: "s", Type: "string"}}}
	if _, err := tableLoop(odd); err == nil || !strings.Contains(err.Error(), "no tune loop") {
		t.Errorf("tableLoop of func(string): err %v, want no tune loop", err)
	}
}

// TestBodyCopies: every copy of zbodies.go names a form, replaces each of
// the form's $ words, and the file is valid Go.
func TestBodyCopies(t *testing.T) {
	for _, c := range bodyCopies {
		if _, ok := bodyForms[c[0]]; !ok || len(c)%2 != 1 {
			t.Errorf("%v: no form %q, or a word without its replacement", c, c[0])
		}
	}
	src, err := zsuiteBodiesFile().format()
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(string(src), "$"); i >= 0 {
		t.Errorf("zbodies.go keeps a $ word: %.60s", src[i:])
	}
}
