package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Arch is one GOARCH's part of the op spec: what its backend package (gen/<arch>) declares
// besides the assembly bodies.
type Arch struct {
	GOARCH string
	// Variants maps the Name of every op in Ops to its variants on this GOARCH, in order of
	// preference (the first whose Requires the CPU has wins). Every op must be present but
	// those with GoVariants, which must not be: their variants are the spec's own.
	Variants map[string][]Variant
	// Levels are the compile-time feature levels (GOAMD64/GOARM64 tags), lowest first; nil for one
	// implicit level that guarantees nothing.
	Levels []Level
	// Emulator says how CI runs this GOARCH's tests: the qemu-user binary and the CPU models to run
	// the tests on (each model's run must pass), and the Debian binutils package (empty if none)
	// whose as/objdump check the WORD encodings.
	Emulator Emulator
}

// Emulator says how CI runs a GOARCH's tests under qemu-user.
type Emulator struct {
	Binary   string   // "qemu-ppc64le"; empty: CI's kernel runs the binaries itself (386 on x86-64 Linux)
	CPUs     []string // "power8", "power9"; empty: qemu's default model only
	Binutils string   // "binutils-powerpc64le-linux-gnu"; empty if Debian has none
	// Packages limits the per-model `go test -short` run of .ci/run's
	// qemu loop to these packages ("./hal/", "./spin/"); empty runs
	// ./... . A GOARCH few users run hal on tests hal and the kit only, so
	// that CI stays under its time budget (every other step of the loop
	// runs whatever the list).
	Packages []string
}

// registered holds every Arch passed to Register, by GOARCH.
var registered = map[string]Arch{}

// Register adds a's variants to the ops in Ops (op.Arch[a.GOARCH]), and each op's GoVariants,
// and its levels to Levels. It panics if an op of Ops without GoVariants is missing from
// a.Variants, a.Variants names an op not in Ops or one with GoVariants, or the GOARCH is
// registered twice. Backend packages call it from init.
func Register(a Arch) {
	if a.GOARCH == "" {
		panic("spec.Register: empty GOARCH")
	}
	if _, dup := registered[a.GOARCH]; dup {
		panic("spec.Register: GOARCH " + a.GOARCH + " registered twice")
	}
	var missing, extra, own []string
	for i := range Ops {
		if _, ok := a.Variants[Ops[i].Name]; !ok && Ops[i].GoVariants == nil {
			missing = append(missing, Ops[i].Name)
		}
	}
	for name := range a.Variants {
		switch op := Find(name); {
		case op == nil:
			extra = append(extra, name)
		case op.GoVariants != nil:
			own = append(own, name)
		}
	}
	if len(missing) > 0 || len(extra) > 0 || len(own) > 0 {
		sort.Strings(extra)
		sort.Strings(own)
		panic(fmt.Sprintf("spec.Register(%s): ops missing from Variants [%s], not in spec.Ops [%s], with the spec's own GoVariants [%s]",
			a.GOARCH, strings.Join(missing, " "), strings.Join(extra, " "), strings.Join(own, " ")))
	}
	for i := range Ops {
		op := &Ops[i]
		if op.Arch == nil {
			op.Arch = map[string][]Variant{}
		}
		vs := a.Variants[op.Name]
		if op.GoVariants != nil {
			vs = op.GoVariants
		}
		op.Arch[a.GOARCH] = vs
	}
	if len(a.Levels) > 0 {
		Levels[a.GOARCH] = a.Levels
	}
	registered[a.GOARCH] = a
}

// Arches returns the registered GOARCHes, sorted.
func Arches() []string {
	out := make([]string, 0, len(registered))
	for a := range registered {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// ArchOf returns the registered Arch for goarch.
func ArchOf(goarch string) (Arch, bool) {
	a, ok := registered[goarch]
	return a, ok
}
