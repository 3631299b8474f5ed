package benchfile

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var lineErrRE = regexp.MustCompile(`^in\.txt:([1-9][0-9]*): `)

// checkLineError requires err to name in.txt and a line of input.
func checkLineError(t *testing.T, err error, input string) {
	t.Helper()
	m := lineErrRE.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %q carries no line number", err)
	}
	n, _ := strconv.Atoi(m[1])
	if lines := strings.Count(input, "\n") + 1; n > lines {
		t.Fatalf("error %q names line %d of %d", err, n, lines)
	}
}

// refFields splits line at the delimiter bytes like strtok, written
// differently from field: replace every delimiter by NUL (a line holds no
// NUL by now) and drop the empty pieces.
func refFields(line, delims string) []string {
	b := []byte(line)
	for i := range b {
		if strings.IndexByte(delims, b[i]) >= 0 {
			b[i] = 0
		}
	}
	var out []string
	for _, f := range strings.Split(string(b), "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

func FuzzParseColumns(f *testing.F) {
	f.Add("1\n2\n3\n", uint8(1), "")
	f.Add("# c\n a 1.5e3\t\r\nb 0x1p4 # x\n\nc inf\n", uint8(2), "")
	f.Add("1,2,,3\n4 ,5\n-nan(x),0X.8P+1\n", uint8(3), ",")
	f.Add("5#\n", uint8(1), " \t")
	f.Add("1\x002\n3", uint8(1), "")
	f.Fuzz(func(t *testing.T, in string, col uint8, delims string) {
		column := int(col%5) + 1
		pts, err := parseColumns(strings.NewReader(in), "in.txt", column, delims)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			checkLineError(t, err, in)
			return
		}
		if delims == "" {
			delims = DefaultDelims
		}
		// Replay ministat's reading of every line with the reference
		// tokenizer and compare the whole outcome.
		lines := strings.Split(in, "\n")
		if strings.HasSuffix(in, "\n") {
			lines = lines[:len(lines)-1]
		}
		k := 0
		for i, line := range lines {
			if j := strings.IndexByte(line, 0); j >= 0 {
				line = line[:j]
			}
			line = strings.TrimRight(line, " \t\n\v\f\r")
			fields := refFields(line, delims)
			skip := len(fields) < column
			for _, fl := range fields[:min(column, len(fields))] {
				if fl[0] == '#' {
					skip = true
				}
			}
			if skip {
				continue
			}
			if k >= len(pts) || pts[k].line != i+1 {
				t.Fatalf("line %d (%q): expected a value, got points %v", i+1, line, pts)
			}
			tok := fields[column-1]
			v, n := strtod(tok)
			if n != len(tok) {
				t.Fatalf("line %d: %q accepted", i+1, tok)
			}
			if !sameFloat(v, pts[k].value) {
				t.Fatalf("line %d: %q read as %v, strtod says %v", i+1, tok, pts[k].value, v)
			}
			// Where Go's syntax agrees, so must the value: the
			// number really was parsed from the input.
			if g, err := strconv.ParseFloat(strings.TrimLeft(tok, " \t\n\v\f\r"), 64); err == nil && !sameFloat(g, pts[k].value) {
				t.Fatalf("line %d: %q read as %v, strconv says %v", i+1, tok, pts[k].value, g)
			}
			k++
		}
		if k != len(pts) {
			t.Fatalf("%d values, expected %d", len(pts), k)
		}
	})
}

func FuzzParseGoBench(f *testing.F) {
	f.Add(goTestOutput)
	f.Add("BenchmarkA 10 5 ns/op 3 B/op\nBenchmarkA 1 NaN x\n")
	f.Add("Unit ns/op better=lower assume=exact\nBenchmarkA-2 1 1e3 ns/op\n")
	f.Add("key: value\nBenchmarkA 10 abc ns/op\n")
	f.Add("BenchmarkB\t1\t2.5\tMB/s\r\nok\n")
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ParseGoBench(strings.NewReader(in), "in.txt")
		if err != nil {
			checkLineError(t, err, in)
			return
		}
		lines := strings.Split(in, "\n")
		seen := map[[2]string]bool{}
		for _, s := range g.Series {
			key := [2]string{s.Name, s.Unit}
			if seen[key] {
				t.Fatalf("series %s %s twice", s.Name, s.Unit)
			}
			seen[key] = true
			if len(s.Values) == 0 || len(s.Values) != len(s.Lines) {
				t.Fatalf("series %s %s: %d values, %d lines", s.Name, s.Unit, len(s.Values), len(s.Lines))
			}
			for i, v := range s.Values {
				ln := s.Lines[i]
				if ln < 1 || ln > len(lines) {
					t.Fatalf("series %s %s: line %d out of range", s.Name, s.Unit, ln)
				}
				if i > 0 && ln < s.Lines[i-1] { // a unit may repeat on one line
					t.Fatalf("series %s %s: lines %v go backwards", s.Name, s.Unit, s.Lines)
				}
				fields := strings.Fields(lines[ln-1])
				if len(fields) < 4 || fields[0] != "Benchmark"+s.Name {
					t.Fatalf("series %s %s: value %v from line %d %q", s.Name, s.Unit, v, ln, lines[ln-1])
				}
				// The value must be one of the line's value/unit
				// pairs.
				found := false
				for j := 2; j+1 < len(fields); j += 2 {
					x, err := strconv.ParseFloat(fields[j], 64)
					if err == nil && fields[j+1] == s.Unit && sameFloat(x, v) {
						found = true
					}
				}
				if !found {
					t.Fatalf("series %s %s: value %v not on line %d %q", s.Name, s.Unit, v, ln, lines[ln-1])
				}
			}
		}
	})
}
