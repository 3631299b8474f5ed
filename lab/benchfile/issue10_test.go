package benchfile

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// Issue 10 item 4: benchmarks of the same name in different packages are
// different series.
func TestParseGoBenchPackages(t *testing.T) {
	in := `goos: linux
BenchmarkX-2 10 1 ns/op
pkg: example.com/a
BenchmarkX-2 10 2 ns/op
BenchmarkX-2 10 3 ns/op
pkg: example.com/b
BenchmarkX-2 10 4 ns/op
pkg: example.com/a
BenchmarkX-2 10 5 ns/op
`
	g, err := ParseGoBench(strings.NewReader(in), "f")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		pkg    string
		values []float64
		lines  []int
	}{
		{"", []float64{1}, []int{2}},
		{"example.com/a", []float64{2, 3, 5}, []int{4, 5, 9}},
		{"example.com/b", []float64{4}, []int{7}},
	} {
		s := g.Lookup(w.pkg, "X-2", "ns/op")
		if s == nil || s.Pkg != w.pkg || !slices.Equal(s.Values, w.values) || !slices.Equal(s.Lines, w.lines) {
			t.Errorf("pkg %q: series %+v, want values %v on lines %v", w.pkg, s, w.values, w.lines)
		}
	}
	if len(g.Series) != 3 {
		t.Errorf("%d series, want 3", len(g.Series))
	}
}

// Issue 10 item 5: with Finite, NaN and ±Inf are errors at their line in
// both formats; without it the column format reads them as ministat does.
func TestLoadFinite(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"1\n2\nnan\n4\n", "in:3: NaN in column 1 is not a finite number"},
		{"1\n-inf\n", "in:2: -Inf in column 1 is not a finite number"},
		{"1\n2\n1e999\n", "in:3: +Inf in column 1 is not a finite number"},
		{"# c\n1\n\n-NAN(12)\n", "in:4: NaN in column 1 is not a finite number"},
		{"pkg: p\nBenchmarkX-2 1 5 ns/op\nBenchmarkX-2 1 NaN ns/op\n", "in:3: BenchmarkX-2: NaN ns/op is not a finite number"},
		{"BenchmarkX-2 1 5 ns/op 1 B/op\nBenchmarkX-2 1 5 ns/op +Inf B/op\nBenchmarkX-2 1 -Inf ns/op\n", "in:2: BenchmarkX-2: +Inf B/op is not a finite number"},
	} {
		_, err := LoadReader(strings.NewReader(tc.in), "in", LoadOptions{Finite: true})
		var le *LineError
		if !errors.As(err, &le) || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %s", tc.in, err, tc.want)
		}
	}
	f, err := LoadReader(strings.NewReader("1\nnan\ninf\n"), "in", LoadOptions{})
	if err != nil || len(f.Values) != 3 || !math.IsNaN(f.Values[1]) || !math.IsInf(f.Values[2], 1) {
		t.Errorf("without Finite: %+v, %v", f, err)
	}
}

// Issue 10 item 15: an error quotes at most 80 bytes of a bad line.
func TestErrorsQuoteLittle(t *testing.T) {
	huge := strings.Repeat("é", 500000) // 1 MB, and no cut inside a rune
	for _, tc := range []struct {
		name, in string
		opts     LoadOptions
		prefix   string
	}{
		{"column", "1\n2\n" + huge + "\n", LoadOptions{}, `in:3: invalid number "éééé`},
		{"column 2", "1 x\n2 " + huge + "\n", LoadOptions{Column: 2, Format: FormatColumns}, `in:1: invalid number "x" in column 2`},
		{"column 2 long", "1 2\n2 " + huge + "\n", LoadOptions{Column: 2}, `in:2: invalid number "éé`},
		{"gobench", "BenchmarkX-2 1 5 ns/op\nBenchmarkX-2 1 5" + huge[:60000] + " ns/op\n", LoadOptions{}, `in:2: parsing measurement: invalid syntax in "BenchmarkX-2 1 5éé`},
		{"gobench metadata", "Unit ns/op better=" + huge[:1000] + "\nUnit ns/op better=" + huge[:2000] + "\nBenchmarkX-2 1 5 ns/op\n", LoadOptions{}, `in:2: metadata better of unit ns/op already set to éé`},
	} {
		_, err := LoadReader(strings.NewReader(tc.in), "in", tc.opts)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, tc.prefix) || len(msg) > 300 || !strings.Contains(msg, "...") && len(msg) > 100 {
			t.Errorf("%s: error of %d bytes: %.400s", tc.name, len(msg), msg)
		}
		if strings.Contains(msg, `\x`) {
			t.Errorf("%s: a rune was cut: %.400s", tc.name, msg)
		}
	}
	if got := Quote(strings.Repeat("a", 80)); got != `"`+strings.Repeat("a", 80)+`"` {
		t.Errorf("80 bytes: %s", got)
	}
	if got := Quote(strings.Repeat("a", 81)); got != `"`+strings.Repeat("a", 77)+`..."` {
		t.Errorf("81 bytes: %s", got)
	}
}
