package benchfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"golang.org/x/perf/benchfmt"
)

// Series is the measurements of one benchmark of one package in one unit.
type Series struct {
	// Pkg is the value of the "pkg:" configuration line in force where
	// the results were read ("" before any). Benchmarks of the same name
	// in different packages are different series, as in benchstat.
	Pkg string
	// Name is the full benchmark name without the "Benchmark" prefix,
	// sub-benchmark keys and GOMAXPROCS suffix included
	// ("Add/impl=asm-2").
	Name string
	// Unit is the unit as written in the file ("ns/op"), not benchfmt's
	// tidied form ("sec/op"); Values are as written too.
	Unit   string
	Values []float64
	// Lines holds, for each value, the line it was read from.
	Lines []int
}

// UnitInfo is the metadata of a unit: which direction is better and, for
// benchstat, which statistical assumption holds.
type UnitInfo struct {
	Unit string
	// Better is "lower", "higher" or "" (not stated).
	Better string
	// Assume is benchstat's "assume" key: "nothing", "exact" or "".
	Assume string
}

// GoBench is the content of a Go benchmark format file.
type GoBench struct {
	// Series lists every (package, benchmark, unit) triple in order of
	// first appearance.
	Series []*Series
	// Units lists the unit metadata lines in order of appearance.
	Units []UnitInfo
}

// Lookup returns the series of the named benchmark of package pkg in unit,
// or nil.
func (g *GoBench) Lookup(pkg, name, unit string) *Series {
	for _, s := range g.Series {
		if s.Pkg == pkg && s.Name == name && s.Unit == unit {
			return s
		}
	}
	return nil
}

// maxLine is the longest line benchfmt's bufio.Scanner accepts.
const maxLine = bufio.MaxScanTokenSize

// ParseGoBench reads the Go benchmark format from r with x/perf/benchfmt
// and groups the measurements by package ("pkg:" line), benchmark name and
// unit. file names the
// input in errors. Unlike benchfmt, which skips malformed lines, any syntax
// error (a malformed result or unit line, conflicting unit metadata) is
// returned as a *LineError: benchfmt's message and the quoted line. Lines that are neither results, unit metadata
// nor configuration ("PASS", "ok pkg 1.2s") are ignored, as benchfmt and
// benchstat ignore them.
func ParseGoBench(r io.Reader, file string) (*GoBench, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", file, err)
	}
	// benchfmt's scanner fails on lines over 64 KiB without saying which;
	// find it first.
	for line, rest := 1, data; len(rest) > 0; line++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		if i >= maxLine {
			return nil, &LineError{file, line, fmt.Sprintf("line longer than %d bytes", maxLine-1)}
		}
		rest = rest[min(i+1, len(rest)):]
	}
	g := &GoBench{}
	index := map[[3]string]*Series{}
	units := map[string]int{}
	br := benchfmt.NewReader(bytes.NewReader(data), file)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			// benchfmt's messages can quote the input (a unit's
			// metadata value); keep them short too.
			return nil, &LineError{file, rec.Line, Shorten(rec.Msg, 2*maxQuote) + " in " + quoteLine(data, rec.Line)}
		case *benchfmt.UnitMetadata:
			i, ok := units[rec.OrigUnit]
			if !ok {
				i = len(g.Units)
				units[rec.OrigUnit] = i
				g.Units = append(g.Units, UnitInfo{Unit: rec.OrigUnit})
			}
			switch rec.Key {
			case "better":
				g.Units[i].Better = rec.Value
			case "assume":
				g.Units[i].Assume = rec.Value
			}
		case *benchfmt.Result:
			_, line := rec.Pos()
			name := string(rec.Name)
			pkg := rec.GetConfig("pkg")
			for _, v := range rec.Values {
				unit, val := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, val = v.OrigUnit, v.OrigValue
				}
				k := [3]string{pkg, name, unit}
				s := index[k]
				if s == nil {
					s = &Series{Pkg: pkg, Name: name, Unit: unit}
					index[k] = s
					g.Series = append(g.Series, s)
				}
				s.Values = append(s.Values, val)
				s.Lines = append(s.Lines, line)
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// quoteLine returns line n (1-based) of data, quoted and shortened by Quote
// for an error message.
func quoteLine(data []byte, n int) string {
	for ; n > 1; n-- {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return `""`
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return Quote(string(bytes.TrimRight(data, "\r")))
}
