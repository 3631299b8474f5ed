package backend

import (
	"fmt"
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
	// A variant's own symbol: just its body.
	if !strings.Contains(log, "text fetchadd64_llsc\nbody fetchadd64/llsc llsc_\n") {
		t.Errorf("no direct symbol for fetchadd64_llsc:\n%s", log)
	}
	// An entry with two variants: select, first body inline, label,
	// second body.
	want := "text FetchAddUint64\nselect selFetchadd64 [llsc]\nbody fetchadd64/lse lse_\nlabel llsc\nbody fetchadd64/llsc llsc_\n"
	if !strings.Contains(log, want) {
		t.Errorf("entry FetchAddUint64 not laid out as\n%s\ngot:\n%s", want, log)
	}
	// An entry with one variant: no select.
	if !strings.Contains(log, "text Fence\nbody fence/dmb dmb_\n") {
		t.Errorf("single-variant entry Fence has a select:\n%s", log)
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

func TestGoFile(t *testing.T) {
	src, err := GoFile("arm64")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"//go:build !purego && !race\n",
		"uint8 // fetchadd64\n",
		`{name: "lse", requires: []string{"atomics"}, fn: fetchadd64_lse},`,
		"//go:noescape\nfunc FetchAddUint64(addr *uint64, delta uint64) (old uint64)\n",
		"func Cycles() uint64\n",
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("zasm_arm64.go lacks %q", want)
		}
	}
	if strings.Contains(s, "selFence") {
		t.Error("a flag byte for fence, which has one variant on arm64")
	}
}

// An op with a Go variant: the backend writes its assembly variants' own
// symbols but no entry, is not asked for the Go variant, and must not
// claim it.
func TestGoVariantLayout(t *testing.T) {
	r := fullRecorder("amd64")
	if _, err := Generate(r); err != nil {
		t.Fatal(err)
	}
	log := strings.Join(r.log, "\n") + "\n"
	if !strings.Contains(log, "text cas128_cmpxchg16b\nbody cas128/cmpxchg16b cmpxchg16b_\n") {
		t.Errorf("no own symbol for cas128_cmpxchg16b:\n%s", log)
	}
	for _, bad := range []string{"text cas128\n", "cas128/portable", "text cas128_portable"} {
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
	src, err := GoFile("amd64")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"selCas128 uint8 // cas128\n",
		`{name: "portable", fn: cas128_portable},`,
		// The entry reads the flag once and calls the variant directly.
		"func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {\n" +
			"\tswitch selCas128 {\n\tcase 1: // portable\n\t\treturn cas128_portable(addr, oldLo, oldHi, newLo, newHi)\n\t}\n" +
			"\treturn cas128_cmpxchg16b(addr, oldLo, oldHi, newLo, newHi)\n}\n",
		// The assembly variant keeps its declaration; the Go one has none here.
		"//go:noescape\nfunc cas128_cmpxchg16b(addr *[2]uint64",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("zasm_amd64.go lacks %q", want)
		}
	}
	if strings.Contains(s, "func cas128_portable") {
		t.Error("zasm_amd64.go declares cas128_portable, which hal/portable.go defines")
	}
}

// goEntry for shapes the spec does not have today: three variants, one
// variant, and no results.
func TestGoEntryShapes(t *testing.T) {
	op := &spec.Op{Name: "nop", GoName: "Nop", Arch: map[string][]spec.Variant{
		"x": {{Name: "a"}, {Name: "b"}, spec.Portable("")},
		"y": {spec.Portable("")},
	}}
	want := "func Nop() {\nswitch selNop {\ncase 1: // b\nnop_b()\n\treturn\ncase 2: // portable\nnop_portable()\n\treturn\n}\nnop_a()\n}"
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
