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
		for _, v := range spec.Ops[i].Variants(arch) {
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
