package backend

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/spec"
)

// recorder is a Backend that logs the driver's calls.
type recorder struct {
	arch string
	impl []string
	log  []string
}

func (r *recorder) Arch() string         { return r.arch }
func (r *recorder) Implements() []string { return r.impl }
func (r *recorder) Label(name string)    { r.log = append(r.log, "label "+name) }
func (r *recorder) Comment(...string)    {}
func (r *recorder) Text(name string, _ *spec.Op, _ []string) {
	r.log = append(r.log, "text "+name)
}
func (r *recorder) Select(sel string, labels []string) {
	r.log = append(r.log, fmt.Sprintf("select %s %v", sel, labels))
}
func (r *recorder) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	r.log = append(r.log, "body "+op.Name+"/"+v.Name+" "+prefix)
	return nil
}
func (r *recorder) Finish(string, []string) ([]byte, error) { return nil, nil }
func (r *recorder) TailJump(name string)                    { r.log = append(r.log, "jmp "+name) }
func (r *recorder) ResolveUint128(entry, moved string) error {
	r.log = append(r.log, "resolve128 "+entry+" "+moved)
	return nil
}

func fullRecorder(arch string) *recorder {
	r := &recorder{arch: arch}
	for i := range spec.Ops {
		for _, v := range spec.Ops[i].AsmVariants(arch) {
			r.impl = append(r.impl, spec.Ops[i].Name+"/"+v.Name)
		}
	}
	return r
}

func TestDriverLayout(t *testing.T) {
	r := fullRecorder("arm64")
	if _, err := Generate(r); err != nil {
		t.Fatal(err)
	}
	log := strings.Join(r.log, "\n")
	// A variant's own symbol in package direct: just its body.
	if !strings.Contains(log, "text FetchAddUint64Llsc\nbody fetchadd64/llsc llsc_\n") {
		t.Errorf("no direct symbol for fetchadd64/llsc:\n%s", log)
	}
	// An entry with two variants: select, first body inline, label,
	// second body. fetchadd64 is bound guarded on arm64, so its entry is
	// the flag entry its Go function calls when the guard is set.
	want := "text fetchadd64Flag\nselect selFetchadd64 [llsc]\nbody fetchadd64/lse lse_\nlabel llsc\nbody fetchadd64/llsc llsc_\n"
	if !strings.Contains(log, want) {
		t.Errorf("entry FetchAddUint64 not laid out as\n%s\ngot:\n%s", want, log)
	}
	// An entry with one variant: no select.
	if !strings.Contains(log, "text Fence\nbody fence/dmb dmb_\n") {
		t.Errorf("single-variant entry Fence has a select:\n%s", log)
	}
	// Its flag probe: a select over two copies of the body.
	want = "text FenceFlagged\nselect selFence [flagged]\nbody fence/dmb dmb_\nlabel flagged\nbody fence/dmb flagged_dmb_\n"
	if !strings.Contains(log, want) {
		t.Errorf("flag probe FenceFlagged not laid out as\n%s\ngot:\n%s", want, log)
	}
	// No probe for an op with several variants.
	if strings.Contains(log, "text FetchAddUint64Flagged") {
		t.Error("flag probe for fetchadd64, which has two variants on arm64")
	}
}

// On amd64 the ops whose one variant is the intrinsic have no entry.
func TestInlineOpsHaveNoEntry(t *testing.T) {
	r := fullRecorder("amd64")
	if _, err := Generate(r); err != nil {
		t.Fatal(err)
	}
	log := strings.Join(r.log, "\n") + "\n"
	for _, name := range []string{"FetchAddUint64", "CompareAndSwapUint64", "SwapUint64", "LoadAcquireUint64", "StoreReleaseUint64"} {
		if strings.Contains(log, "text "+name+"\n") {
			t.Errorf("amd64 has an assembly entry for %s, which is bound inline or plain", name)
		}
		if !strings.Contains(log, "text "+name+"Lock\n") && !strings.Contains(log, "text "+name+"Mov\n") {
			t.Errorf("amd64 has no direct symbol for %s", name)
		}
	}
	for _, name := range []string{"Pause", "Fence", "Cycles"} {
		if !strings.Contains(log, "text "+name+"\n") {
			t.Errorf("amd64 has no assembly entry for %s", name)
		}
	}
}

func TestCoverageChecked(t *testing.T) {
	r := fullRecorder("amd64")
	r.impl = r.impl[1:]
	if _, err := Generate(r); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing variant not reported: %v", err)
	}
	r = fullRecorder("amd64")
	r.impl = append(r.impl, "fetchadd64/bogus")
	if _, err := Generate(r); err == nil || !strings.Contains(err.Error(), "fetchadd64/bogus") {
		t.Errorf("extra variant not reported: %v", err)
	}
}

func TestGoFiles(t *testing.T) {
	files, err := GoFiles("arm64")
	if err != nil {
		t.Fatal(err)
	}
	// Lines whose column alignment gofmt sets by the longest op name.
	for _, re := range []string{`\tguardFetchadd64\s+uint8 // fetchadd64\n`, `"fetchadd64":\s+binding\.Guarded,`, `"cas128":\s+binding\.Flag,`} {
		if !regexp.MustCompile(re).Match(files["zapi_arm64.go"]) {
			t.Errorf("zapi_arm64.go lacks %s", re)
		}
	}
	check := func(name string, wants ...string) {
		t.Helper()
		s, ok := files[name]
		if !ok {
			t.Fatalf("no %s", name)
		}
		for _, want := range wants {
			if !strings.Contains(string(s), want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	check("zasm_arm64.go",
		"//go:build !purego && !race\n",
		"uint8 // fetchadd64\n",
		`{name: "lse", requires: []string{"atomics"}, fn: direct.FetchAddUint64Lse},`)
	check("zapi_arm64.go",
		"//go:build !purego && !race && !gohal_static\n",
		"const staticBuild = false\n",
		// Guarded: the intrinsic behind the guard byte, else the flag entry.
		"func FetchAddUint64(addr *uint64, delta uint64) (old uint64) {\n\tif guardFetchadd64 == 0 {\n\t\treturn atomic.AddUint64(addr, delta) - delta\n\t}\n\treturn fetchadd64Flag(addr, delta)\n}\n",
		"//go:noescape\nfunc fetchadd64Flag(addr *uint64, delta uint64) (old uint64)\n",
		`{op: "fetchadd64", flag: &guardFetchadd64, intrinsic: "lse", requires: []string{"atomics"}, fallback: "llsc"},`,
		`{op: "loadacquire64", flag: &guardLoadacquire64, intrinsic: "ldar"},`,
		"func Cycles() uint64\n",
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)\n")
	check("zstatic_arm64.go",
		"//go:build !purego && !race && gohal_static\n",
		"const staticBuild = true\n",
		"func FetchAddUint64(addr *uint64, delta uint64) (old uint64) {\n\treturn direct.StaticFetchAddUint64(addr, delta)\n}\n",
		"func Pause() {\n\tdirect.StaticPause()\n}\n")
	check("direct/zdirect_arm64.go",
		"//go:build !purego\n",
		"//go:noescape\nfunc FetchAddUint64Lse(addr *uint64, delta uint64) (old uint64)\n",
		"func CompareAndSwap128Llsc(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)\n")
	check("../lab/probe/zprobe_arm64.go",
		"//go:build !purego\n",
		"package probe\n",
		"func FenceFlagged()\n")
	// The levels: each its own constraint, the static variant and binding
	// following the features the level guarantees.
	check("direct/zstatic_v80_arm64.go",
		"//go:build !purego && arm64.v8.0 && !arm64.v8.1\n",
		"const StaticLevel = \"arm64.v8.0\"\n",
		"func StaticFetchAddUint64(addr *uint64, delta uint64) (old uint64) {\n\treturn FetchAddUint64Llsc(addr, delta)\n}\n",
		"func StaticLoadAcquireUint64(addr *uint64) uint64 {\n\treturn atomic.LoadUint64(addr)\n}\n")
	check("direct/zstatic_v81_arm64.go",
		"//go:build !purego && arm64.v8.1 && !arm64.v8.3\n",
		"func StaticFetchAddUint64(addr *uint64, delta uint64) (old uint64) {\n\treturn atomic.AddUint64(addr, delta) - delta\n}\n",
		"func StaticCompareAndSwap128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n\treturn CompareAndSwap128Lse(addr, oldLo, oldHi, newLo, newHi)\n}\n")
	check("direct/zstatic_v83_arm64.go",
		"//go:build !purego && arm64.v8.3\n",
		"func StaticLoadAcquireUint64(addr *uint64) uint64 {\n\treturn LoadAcquireUint64Ldapr(addr)\n}\n")
	if strings.Contains(string(files["zasm_arm64.go"]), "selFence ") {
		t.Error("a flag byte for fence, which has one variant on arm64")
	}

	amd, err := GoFiles("amd64")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"func FetchAddUint64(addr *uint64, delta uint64) (old uint64) {\n\treturn atomic.AddUint64(addr, delta) - delta\n}\n",
		"func LoadAcquireUint64(addr *uint64) uint64 {\n\treturn atomic.LoadUint64(addr)\n}\n",
		// x86's atomic.StoreUint64 is an XCHG, not the MOV variant;
		// the MOV is Go's plain store (binding "plain").
		"func StoreReleaseUint64(addr *uint64, val uint64) {\n\t*addr = val\n}\n",
		"\t\"storerelease64\":      binding.Plain,\n",
	} {
		if !strings.Contains(string(amd["zapi_amd64.go"]), want) {
			t.Errorf("zapi_amd64.go lacks %q", want)
		}
	}
	// No op has two variants and an intrinsic on amd64: nothing guarded.
	if z := string(amd["zapi_amd64.go"]); strings.Contains(z, "binding.Guarded") || !strings.Contains(z, "var guards []guard\n") {
		t.Error("zapi_amd64.go has a guarded op")
	}
	// amd64.v1 does not guarantee CMPXCHG16B: the doc says hal checks.
	if !strings.Contains(string(amd["direct/zstatic_v1_amd64.go"]), "does not\n// guarantee cx16") {
		t.Error("direct/zstatic_v1_amd64.go does not say cx16 is checked at init")
	}
}

// An architecture without declared levels gets one static file, named
// after it, with a constraint that needs nothing but !purego.
func TestImplicitLevel(t *testing.T) {
	spec.Levels["fakearch"] = nil
	defer delete(spec.Levels, "fakearch")
	ls := spec.LevelsOf("fakearch")
	if len(ls) != 1 || ls[0].Tag != "fakearch" || ls[0].ID() != "" {
		t.Fatalf("LevelsOf(fakearch) = %+v", ls)
	}
}

// An op with a Go variant beside assembly ones: the backend writes its
// assembly variants' own symbols and an entry whose Go variant is a tail
// jump to hal's <op>_portable; it is never asked for the Go variant's
// body, and must not claim it. A Uint128 op also gets its U entry.
func TestGoVariantLayout(t *testing.T) {
	r := fullRecorder("amd64")
	if _, err := Generate(r); err != nil {
		t.Fatal(err)
	}
	log := strings.Join(r.log, "\n") + "\n"
	if !strings.Contains(log, "text CompareAndSwap128Cmpxchg16b\nbody cas128/cmpxchg16b cmpxchg16b_\n") {
		t.Errorf("no direct symbol for cas128/cmpxchg16b:\n%s", log)
	}
	for _, want := range []string{
		"text cas128\nselect selCas128 [portable]\nbody cas128/cmpxchg16b cmpxchg16b_\nlabel portable\njmp cas128_portable\n",
		"text cas128U\nresolve128 cas128 cas128_moved\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("driver did not write %q:\n%s", want, log)
		}
	}
	for _, bad := range []string{"body cas128/portable", "text CompareAndSwap128Portable", "text CompareAndSwap128Flagged"} {
		if strings.Contains(log, bad) {
			t.Errorf("driver asked the backend for %q:\n%s", bad, log)
		}
	}
	r = fullRecorder("amd64")
	r.impl = append(r.impl, "cas128/portable")
	if _, err := Generate(r); err == nil || !strings.Contains(err.Error(), "cas128/portable") {
		t.Errorf("a backend claiming the Go variant was not reported: %v", err)
	}
}

func TestGoEntry(t *testing.T) {
	files, err := GoFiles("amd64")
	if err != nil {
		t.Fatal(err)
	}
	zasm, zapi, zdirect := string(files["zasm_amd64.go"]), string(files["zapi_amd64.go"]), string(files["direct/zdirect_amd64.go"])
	for _, c := range []struct{ file, name, want string }{
		{zasm, "zasm_amd64.go", "selCas128 "},
		{zasm, "zasm_amd64.go", "uint8 // cas128\n"},
		{zasm, "zasm_amd64.go", `{name: "portable", fn: cas128_portable},`},
		{zasm, "zasm_amd64.go", `{name: "cmpxchg16b", requires: []string{"cx16"}, fn: direct.CompareAndSwap128Cmpxchg16b},`},
		// The entry is assembly (it reads the flag and tail-jumps to the
		// Go variant when chosen): declared here, not written in Go.
		{zapi, "zapi_amd64.go", "//go:noescape\nfunc cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)\n"},
		// The Uint128 entry, and the Go function it jumps to after a move.
		{zapi, "zapi_amd64.go", "//go:noescape\nfunc cas128U(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)\n"},
		{zapi, "zapi_amd64.go", "func cas128_moved(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n" +
			"\treturn cas128(resolve128(addr), oldLo, oldHi, newLo, newHi)\n}\n"},
		// The assembly variant is declared in direct; the Go one nowhere.
		{zdirect, "direct/zdirect_amd64.go", "//go:noescape\nfunc CompareAndSwap128Cmpxchg16b(addr *[2]uint64"},
		// An op whose variants are all Go, several of them (the spec's
		// own GoVariants): a Go entry that switches on its flag byte,
		// each case a direct call of hal's <op>_<variant>.
		{zasm, "zasm_amd64.go", `{name: "membarrier", requires: []string{"membarrier"}, fn: fenceheavy_membarrier},`},
		{zasm, "zasm_amd64.go", `{name: "portable", fn: fenceheavy_portable},`},
		{zapi, "zapi_amd64.go", "func FenceHeavy() {\n\tswitch selFenceheavy {\n"},
		{zapi, "zapi_amd64.go", "\tcase 1: // portable\n\t\tfenceheavy_portable()\n\t\treturn\n\t}\n\tfenceheavy_membarrier()\n}\n"},
		{zapi, "zapi_amd64.go", `"fenceheavy":          binding.Flag,`},
		// A static build binds the Go variant that needs nothing: one
		// that needs a system call a kernel may refuse would exit.
		{string(files["zstatic_amd64.go"]), "zstatic_amd64.go", "func FenceHeavy() {\n\tfenceheavy_portable()\n}\n"},
		{string(files["zstatic_amd64.go"]), "zstatic_amd64.go", "case \"fenceheavy\":\n\t\treturn \"portable\"\n"},
	} {
		if !strings.Contains(c.file, c.want) {
			t.Errorf("%s lacks %q", c.name, c.want)
		}
	}
	for name, src := range files {
		if strings.Contains(string(src), "func cas128_portable") || strings.Contains(string(src), "Portable(") {
			t.Errorf("%s declares a Go variant, which hal/portable.go defines", name)
		}
	}
	// A static build never picks the Go fallback while there is an
	// assembly variant.
	if !strings.Contains(string(files["direct/zstatic_v1_amd64.go"]), "return CompareAndSwap128Cmpxchg16b(addr, oldLo, oldHi, newLo, newHi)") {
		t.Error("direct/zstatic_v1_amd64.go does not bind cas128 to CMPXCHG16B")
	}
}

// goEntry for shapes the spec does not have today: three variants, one
// variant, and no results.
func TestGoEntryShapes(t *testing.T) {
	op := &spec.Op{Name: "nop", GoName: "Nop", Arch: map[string][]spec.Variant{
		"x": {{Name: "a"}, {Name: "b"}, spec.Portable("")},
		"y": {spec.Portable("")},
	}}
	want := "func Nop() {\nswitch selNop {\ncase 1: // b\ndirect.NopB()\n\treturn\ncase 2: // portable\nnop_portable()\n\treturn\n}\ndirect.NopA()\n}"
	if got := goEntry(op, "x"); got != want {
		t.Errorf("three variants:\n%s\nwant:\n%s", got, want)
	}
	if got, want := goEntry(op, "y"), "func Nop() {\nnop_portable()\n}"; got != want {
		t.Errorf("one variant, no result:\n%s\nwant:\n%s", got, want)
	}
	op.Results = []spec.Param{{Type: "uint64"}}
	if got, want := goEntry(op, "y"), "func Nop() uint64 {\nreturn nop_portable()\n}"; got != want {
		t.Errorf("one variant:\n%s\nwant:\n%s", got, want)
	}
}

func TestMoves(t *testing.T) {
	op := Moves("MOVB", "MOVW", "MOVD")
	for size, want := range map[int]string{1: "MOVB", 4: "MOVW", 8: "MOVD"} {
		if got := op(size); got != want {
			t.Errorf("Moves(...)(%d) = %q, want %q", size, got, want)
		}
	}
}
