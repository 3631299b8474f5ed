package backend

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohal/gohal/gen/spec"
)

// This file writes what follows from the set of registered architectures
// (spec.Arches) rather than from one backend: hal's per-GOARCH test
// tables, the list of architectures CI loops over, and the variants table
// of docs/variants.md. Nothing here names a GOARCH, so a new architecture is
// its backend package and gen/main.go's line, not edits here.

// ArchesFile is the file, relative to hal's directory, that .ci/run reads
// to loop over the architectures gen has a backend for.
const ArchesFile = "../.ci/zarches"

// direct128Fields maps each Uint128 op to its field of hal's test type
// direct128Funcs (hal/uint128_addr_test.go).
var direct128Fields = map[string]string{"load128": "loads", "store128": "stores", "cas128": "cases"}

// has128Asm reports whether hal/direct has a 128-bit assembly variant on
// arch.
func has128Asm(arch string) bool {
	for i := range spec.Ops {
		if op := &spec.Ops[i]; op.Uint128 && len(op.AsmVariants(arch)) > 0 {
			return true
		}
	}
	return false
}

// ArchFiles returns the files that follow from the list of architectures:
// hal's zdirect128_<arch>_test.go (hal/direct's 128-bit functions, for the
// Uint128.Addr and misalignment tests) for each with 128-bit assembly,
// zdirect128_other_test.go for every other build, and .ci/zarches.
func ArchFiles(arches []string) (map[string][]byte, error) {
	arches = sorted(arches)
	out := map[string][]byte{}
	var with []string
	for _, arch := range arches {
		if !has128Asm(arch) {
			continue
		}
		with = append(with, arch)
		w := &goWriter{name: "zdirect128_" + arch + "_test.go"}
		w.header(DirectTags, "hal_test", DirectImport)
		w.p("// direct128 lists hal/direct's 128-bit functions on %s, by op and variant.\n", arch)
		w.p("var direct128 = direct128Funcs{\n")
		for i := range spec.Ops {
			op := &spec.Ops[i]
			if !op.Uint128 {
				continue
			}
			field, ok := direct128Fields[op.Name]
			if !ok {
				return nil, fmt.Errorf("Uint128 op %s has no field in hal's direct128Funcs: add one there and to direct128Fields", op.Name)
			}
			w.p("%s: map[string]%s{", field, op.Signature())
			for j, v := range op.AsmVariants(arch) {
				if j > 0 {
					w.p(", ")
				}
				w.p("%q: direct.%s", v.Name, op.DirectName(v.Name))
			}
			w.p("},\n")
		}
		w.p("}\n")
		src, err := w.format()
		if err != nil {
			return nil, err
		}
		out[w.name] = src
	}
	w := &goWriter{name: "zdirect128_other_test.go"}
	w.p("// %s\n\n", Header)
	if len(with) > 0 {
		w.p("//go:build purego || !(%s)\n\n", strings.Join(with, " || "))
	}
	w.p("package hal_test\n\n")
	w.p("// direct128: hal/direct has no 128-bit functions in this build.\n")
	w.p("var direct128 direct128Funcs\n")
	src, err := w.format()
	if err != nil {
		return nil, err
	}
	out[w.name] = src
	for _, g := range arches {
		a, _ := spec.ArchOf(g)
		for _, cpu := range a.Emulator.CPUs {
			if cpu == "" || strings.ContainsAny(cpu, "; \t\n") {
				return nil, fmt.Errorf("%s: CPU model %q: .ci/zarches separates models by ';' and fields by spaces", g, cpu)
			}
		}
		for _, pkg := range a.Emulator.Packages {
			if !strings.HasPrefix(pkg, "./") || strings.ContainsAny(pkg, "; \t\n") {
				return nil, fmt.Errorf("%s: package %q: .ci/zarches wants ./-relative patterns, separated by ';'", g, pkg)
			}
		}
	}
	out[ArchesFile] = []byte(archesList(arches))
	return out, nil
}

// archesList is .ci/zarches: one line per architecture, its fields
// separated by spaces, "-" for an empty one.
func archesList(arches []string) string {
	var b strings.Builder
	b.WriteString("# " + Header + "\n")
	b.WriteString(`#
# The GOARCHes gen has a backend for (spec.Arches), one per line, for
# .ci/run's loops (install, vet, and the qemu runs of every one but the
# host's). Fields, "-" when empty:
#   GOARCH  qemu-user binary  CPU models (separated by ';', as a model
#   may carry qemu's ",feature=off" properties; "-": qemu's default)
#   Debian binutils package  GOHAL (every op's least preferred
#   variant that needs no CPU feature, the 128-bit ops all hardware or all
#   portable: the non-preferred variants CI forces)  packages the
#   per-model go test -short runs (separated by ';'; "-": ./...)
`)
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, g := range arches {
		a, ok := spec.ArchOf(g)
		if !ok {
			a = spec.Arch{GOARCH: g}
		}
		fmt.Fprintf(&b, "%s %s %s %s %s %s\n", g, dash(a.Emulator.Binary), dash(strings.Join(a.Emulator.CPUs, ";")),
			dash(a.Emulator.Binutils), dash(ForcedGOHAL(g)), dash(strings.Join(a.Emulator.Packages, ";")))
	}
	return b.String()
}

// ForcedGOHAL returns the GOHAL value that forces, on arch, every op's
// least preferred variant other than its first that requires no feature
// (so that it runs on any CPU of the architecture): the variants a default
// run does not reach. An op without one is left out. The 128-bit ops
// (Op.Uint128), which share their words, are forced together: each to its
// least preferred hardware variant that requires no feature, if every one
// has one and one of them is not the op's first (an op whose only such
// variant is its first, as s390x's cas128, is left out: it runs anyway),
// else all to "portable" if every one has that variant and it is not
// already what runs.
func ForcedGOHAL(arch string) string {
	pick := func(op *spec.Op, hardware bool, from int) (string, bool) {
		vs := op.Variants(arch)
		for i := len(vs) - 1; i >= from; i-- {
			if len(vs[i].Requires) == 0 && (!hardware || !vs[i].Go) {
				return vs[i].Name, true
			}
		}
		return "", false
	}
	var pairs []string
	var group []*spec.Op
	for i := range spec.Ops {
		op := &spec.Ops[i]
		if op.Uint128 {
			group = append(group, op)
			continue
		}
		if v, ok := pick(op, false, 1); ok {
			pairs = append(pairs, op.Name+"="+v)
		}
	}
	hw, hwMoves, portable, moves := true, false, true, false
	for _, op := range group {
		if v, ok := pick(op, true, 0); !ok {
			hw = false
		} else if v != op.Variants(arch)[0].Name {
			hwMoves = true
		}
		if !op.HasGoVariant(arch) {
			portable = false
		}
		if !op.Variants(arch)[0].Go {
			moves = true
		}
	}
	for _, op := range group {
		switch {
		case hw && hwMoves:
			if v, _ := pick(op, true, 0); v != op.Variants(arch)[0].Name {
				pairs = append(pairs, op.Name+"="+v)
			}
		case portable && moves:
			pairs = append(pairs, op.Name+"="+spec.PortableName)
		}
	}
	return strings.Join(pairs, ",")
}

// A Splice is generated text that gen writes between two marker comments
// of a hand-written file (the README, docs/variants.md), leaving the rest
// alone.
type Splice struct {
	Begin, End string // the markers, kept
	Text       string // what goes between them
}

// Splices returns the generated parts of hand-written files, by file
// name relative to hal's directory: the README's list of GOARCHes with
// assembly, and docs/variants.md's list and table (the README, for users,
// links to the table rather than carrying it).
func Splices(arches []string) map[string][]Splice {
	arches = sorted(arches)
	list := Splice{Begin: "<!-- gen:arches -->", End: "<!-- /gen:arches -->", Text: proseList(arches)}
	return map[string][]Splice{
		"../README.md": {list},
		"../docs/variants.md": {
			list,
			{Begin: "<!-- gen:variants: the table below is written by go generate from gen/spec; do not edit -->",
				End: "<!-- /gen:variants -->", Text: "\n" + VariantsTable(arches)},
		},
	}
}

// Apply returns data with the text between each splice's markers
// replaced by its Text, or an error naming a marker it lacks.
func Apply(data []byte, splices []Splice) ([]byte, error) {
	s := string(data)
	for _, sp := range splices {
		i := strings.Index(s, sp.Begin)
		if i < 0 {
			return nil, fmt.Errorf("marker %q not found", sp.Begin)
		}
		i += len(sp.Begin)
		j := strings.Index(s[i:], sp.End)
		if j < 0 {
			return nil, fmt.Errorf("marker %q not found after %q", sp.End, sp.Begin)
		}
		s = s[:i] + sp.Text + s[i+j:]
	}
	return []byte(s), nil
}

// sorted returns a sorted copy of xs.
func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// proseList writes "a, b and c".
func proseList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// VariantsTable is docs/variants.md's Markdown table of every op's variants: a
// column per architecture, each variant as its name and, in parentheses,
// its Brief and the features it needs, and a last column for the
// portable build. Ops whose cells are all alike share a row, named
// "fetchadd32/64/uintptr".
func VariantsTable(arches []string) string {
	var b strings.Builder
	b.WriteString("| op | " + strings.Join(arches, " | ") + " | other GOARCH, purego, -race |\n")
	b.WriteString("|" + strings.Repeat(" --- |", len(arches)+2) + "\n")
	type row struct {
		names []string
		cells []string
	}
	var rows []*row
	byKey := map[string]*row{}
	for i := range spec.Ops {
		op := &spec.Ops[i]
		var cells []string
		for _, a := range arches {
			cells = append(cells, variantsCell(op.Variants(a)))
		}
		cells = append(cells, "`"+spec.PortableName+"`"+paren(op.PortableBrief))
		key := strings.Join(cells, "\x00")
		r := byKey[key]
		if r == nil {
			r = &row{cells: cells}
			byKey[key] = r
			rows = append(rows, r)
		}
		r.names = append(r.names, op.Name)
	}
	for _, r := range rows {
		b.WriteString("| " + opsLabel(r.names) + " | " + strings.Join(r.cells, " | ") + " |\n")
	}
	return b.String()
}

// variantsCell is one op's variants on one architecture, for the table.
func variantsCell(vs []spec.Variant) string {
	var parts []string
	for _, v := range vs {
		var in []string
		if v.Brief != "" {
			in = append(in, v.Brief)
		}
		if len(v.Requires) > 0 {
			in = append(in, "needs "+strings.Join(v.Requires, ", "))
		}
		parts = append(parts, "`"+v.Name+"`"+paren(strings.Join(in, "; ")))
	}
	return strings.Join(parts, ", ")
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// widths are the op-name suffixes opsLabel folds, in the order it lists
// them.
var widths = []string{"32", "64", "uintptr"}

// opsLabel names a row's ops, folding the widths of one base name:
// "fetchor32/64, fetchand32/64".
func opsLabel(names []string) string {
	var bases []string
	suffixes := map[string][]string{}
	for _, n := range names {
		base, suf := n, ""
		for _, w := range widths {
			if strings.HasSuffix(n, w) && len(n) > len(w) {
				base, suf = strings.TrimSuffix(n, w), w
				break
			}
		}
		if _, seen := suffixes[base]; !seen {
			bases = append(bases, base)
		}
		suffixes[base] = append(suffixes[base], suf)
	}
	var out []string
	for _, base := range bases {
		sufs := suffixes[base]
		sort.Slice(sufs, func(i, j int) bool { return widthRank(sufs[i]) < widthRank(sufs[j]) })
		out = append(out, base+strings.Join(sufs, "/"))
	}
	return strings.Join(out, ", ")
}

func widthRank(s string) int {
	for i, w := range widths {
		if w == s {
			return i
		}
	}
	return -1
}
