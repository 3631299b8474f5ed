package benchfile

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestStrtod(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		in   string
		want float64
		n    int
	}{
		{"1", 1, 1},
		{"12.5", 12.5, 4},
		{"-2e3", -2000, 4},
		{"+.5", 0.5, 3},
		{"5.", 5, 2},
		{"1e", 1, 1},  // the exponent needs a digit
		{"1e+", 1, 1}, // likewise
		{"1E-2x", 0.01, 4},
		{"  \t7", 7, 4}, // leading white space is skipped
		{"0x10", 16, 4}, // no "p" exponent needed, unlike strconv
		{"0x1.8p1", 3, 7},
		{"-0X.8P-1", -0.25, 8},
		{"0x", 0, 1}, // just the zero
		{"0xg", 0, 1},
		{"0x1p", 1, 3},
		{"inf", inf, 3},
		{"-Infinity", -inf, 9},
		{"infinit", inf, 3},
		{"nan", nan, 3},
		{"NaN(chars_1)", nan, 12},
		{"nan(", nan, 3},
		{"1e400", inf, 5},
		{"-1e400", -inf, 6},
		{"1e-400", 0, 6},
		{"4.9e-324", 5e-324, 8},
		{"1_000", 1, 1},
		{"", 0, 0},
		{"-", 0, 0},
		{".", 0, 0},
		{"e5", 0, 0},
		{"x", 0, 0},
		{"  ", 0, 0},
	} {
		v, n := strtod(tc.in)
		if n != tc.n || !(v == tc.want || math.IsNaN(v) && math.IsNaN(tc.want)) {
			t.Errorf("strtod(%q) = %v, %d; want %v, %d", tc.in, v, n, tc.want, tc.n)
		}
	}
	if v, _ := strtod("-0"); !math.Signbit(v) {
		t.Error("strtod(-0) lost the sign")
	}
	if v, _ := strtod("-nan"); !math.Signbit(v) {
		t.Error("strtod(-nan) lost the sign")
	}
}

func TestParseColumns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     string
		col    int
		delims string
		want   []float64
	}{
		{"plain", "1\n2\n3\n", 0, "", []float64{1, 2, 3}},
		{"no final newline", "1\n2\n3", 0, "", []float64{1, 2, 3}},
		{"blank lines", "\n1\n\n  \n2\n", 0, "", []float64{1, 2}},
		{"crlf and trailing blanks", "1\r\n2 \t\r\n3\v\f\n", 0, "", []float64{1, 2, 3}},
		{"comments", "# head\n1\n  #x\n2 # tail\n#3\n", 0, "", []float64{1, 2}},
		{"column 2", "a 1\nb 2 extra\nc\n", 2, "", []float64{1, 2}},
		{"comment before column", "x #y 5\nz 3\n", 3, "", nil},
		{"comment after column", "7 #y\n", 1, "", []float64{7}},
		{"runs of delimiters", "  a \t\t 4\n", 2, "", []float64{4}},
		{"csv", "1,2,3\n4,,5\n", 2, ",", []float64{2, 5}},
		{"csv with leading blank", "1, 2\n", 2, ",", []float64{2}},
		{"nul ends the line", "1\x00junk\n2\n", 0, "", []float64{1, 2}},
		{"hex and inf", "0x10\ninf\n-1e400\n", 0, "", []float64{16, math.Inf(1), math.Inf(-1)}},
	} {
		got, err := ParseColumns(strings.NewReader(tc.in), "f", tc.col, tc.delims)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestParseColumnsErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		col    int
		delims string
		want   string
	}{
		{"1\n2\nfoo\n", 0, "", `data.txt:3: invalid number "foo" in column 1`},
		{"1\n5#x\n", 0, "", `data.txt:2: invalid number "5#x" in column 1`},
		{"1.5ms\n", 0, "", `data.txt:1: invalid number "1.5ms" in column 1`},
		{"a 1\nb 2x\n", 2, "", `data.txt:2: invalid number "2x" in column 2`},
		{"1 ,2\n", 1, ",", `data.txt:1: invalid number "1 " in column 1`},
		{"0x\n", 0, "", `data.txt:1: invalid number "0x" in column 1`},
		{"\n\n\n1_000\n", 0, "", `data.txt:4: invalid number "1_000" in column 1`},
	} {
		_, err := ParseColumns(strings.NewReader(tc.in), "data.txt", tc.col, tc.delims)
		var le *LineError
		if !errors.As(err, &le) {
			t.Errorf("%q: error %v, want a *LineError", tc.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want prefix %q", tc.in, err, tc.want)
		}
	}
	if _, err := ParseColumns(strings.NewReader("1\n"), "f", -1, ""); err == nil {
		t.Error("column -1 accepted")
	}
}

func nan() float64 { return math.NaN() }
