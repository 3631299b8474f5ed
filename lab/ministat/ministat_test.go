package ministat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

func TestSampleStats(t *testing.T) {
	s := Sample{Values: []float64{4, 1, 3, 2}}
	// ministat takes the upper middle value as the median, not (2+3)/2.
	if st := s.Stats(); st.N != 4 || st.Min != 1 || st.Max != 4 || st.Median != 3 || st.Mean != 2.5 ||
		math.Abs(st.Var-5.0/3) > 1e-15 || math.Abs(st.Stddev-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("Stats of 4,1,3,2 = %+v, want N 4, Min 1, Max 4, Median 3 (upper middle), Mean 2.5, Var 5/3, Stddev √(5/3)", st)
	}
	if odd := (Sample{Values: []float64{9, 1, 5}}).Stats(); odd.Median != 5 {
		t.Errorf("Median of 9,1,5 = %v, want 5", odd.Median)
	}
	// The sums run in input order; the input must not be reordered.
	if s.Values[0] != 4 {
		t.Errorf("Stats sorted the caller's slice")
	}
	// Rounding makes this variance negative, as in ministat.
	c := Sample{Values: []float64{0.1, 0.1, 0.1}}
	if cs := c.Stats(); !(cs.Var < 0) || !math.IsNaN(cs.Stddev) {
		t.Errorf("0.1×3: Var %v, Stddev %v; want ministat's tiny negative value and NaN", cs.Var, cs.Stddev)
	}
	if e := (Sample{}).Stats(); !math.IsNaN(e.Min) || !math.IsNaN(e.Mean) {
		t.Errorf("empty sample: Min %v Mean %v, want NaN", e.Min, e.Mean)
	}
}

func TestTQuantile(t *testing.T) {
	for _, tc := range []struct {
		conf float64
		df   int
		want float64
	}{
		{80, 1, 3.078},
		{95, 4, 2.776},
		{95, 10, 2.228},
		{99, 30, 2.750},
		{98, 100, 2.364},
		{99.5, 2, 22.327}, // ministat's "99.5" column is the 0.999 quantile
		{99.5, 100, 3.174},
		{99.5, 7, 4.785}, // ministat's table misprints 4.782
		// df > 100: ministat's ∞ row, the normal quantile.
		{80, 101, 1.282},
		{90, 118, 1.645},
		{95, 101, 1.960},
		{95, 100000, 1.960},
		{98, 200, 2.326},
		{99, 500, 2.576},
		{99.5, 101, 3.090},
	} {
		got, err := TQuantile(tc.conf, tc.df)
		if err != nil || got != tc.want {
			t.Errorf("TQuantile(%v, %d) = %v, %v; want %v", tc.conf, tc.df, got, err, tc.want)
		}
	}
	var ce *ConfidenceError
	if _, err := TQuantile(97, 10); !errors.As(err, &ce) || ce.Confidence != 97 {
		t.Errorf("TQuantile(97) error = %v, want *ConfidenceError", err)
	} else if want := "confidence must be one of 80, 90, 95, 98, 99, 99.5"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := TQuantile(95, 0); err == nil {
		t.Error("TQuantile(95, 0) succeeded")
	}
}

// ministatErrata lists the entries of ministat's t table (df, column) that
// are not the correctly rounded quantile; all are in the 99.5 column.
var ministatErrata = map[[2]int]float64{
	{1, 5}: 318.313, {7, 5}: 4.782, {8, 5}: 4.499, {9, 5}: 4.296,
	{10, 5}: 4.143, {11, 5}: 4.024, {12, 5}: 3.929,
}

// TestTableOfInstalledMinistat reads the t table out of the ministat binary
// (101 rows of 6 doubles, the ∞ row first) and checks that TQuantile
// reproduces every entry but the known misprints.
func TestTableOfInstalledMinistat(t *testing.T) {
	bin, err := os.ReadFile(ministatPath)
	if err != nil {
		t.Skipf("no ministat binary: %v", err)
	}
	var key [16]byte
	binary.LittleEndian.PutUint64(key[:], math.Float64bits(1.282))
	binary.LittleEndian.PutUint64(key[8:], math.Float64bits(1.645))
	off := bytes.Index(bin, key[:])
	if off < 0 || off+101*6*8 > len(bin) {
		t.Skip("t table not found in the ministat binary")
	}
	mismatches := 0
	for row := 0; row <= 100; row++ {
		df := row
		if row == 0 {
			df = 101 // any df > 100 selects the ∞ row
		}
		for col, conf := range Confidences {
			p := off + (row*6+col)*8
			table := math.Float64frombits(binary.LittleEndian.Uint64(bin[p:]))
			got, err := TQuantile(conf, df)
			if err != nil {
				t.Fatal(err)
			}
			if typo, ok := ministatErrata[[2]int{row, col}]; ok {
				if table != typo {
					t.Errorf("row %d col %v: table %v, expected misprint %v", row, conf, table, typo)
				}
				if math.Abs(got-table)/table > 7e-4 {
					t.Errorf("row %d col %v: TQuantile %v too far from table %v", row, conf, got, table)
				}
				mismatches++
				continue
			}
			if got != table {
				t.Errorf("df %d (row %d) conf %v: TQuantile %v, ministat table %v", df, row, conf, got, table)
			}
		}
	}
	if mismatches != len(ministatErrata) {
		t.Errorf("checked %d misprints, want %d", mismatches, len(ministatErrata))
	}
}

func TestCFormat(t *testing.T) {
	for _, tc := range []struct {
		x           float64
		width, prec int
		want        string
	}{
		{240, 0, 6, "240"},
		{212.2150000001, 0, 6, "212.215"},
		{1e6, 0, 6, "1e+06"},
		{123456, 0, 6, "123456"},
		{1234567, 0, 6, "1.23457e+06"},
		{0.0001, 0, 6, "0.0001"},
		{0.00001234, 0, 6, "1.234e-05"},
		{math.Copysign(0, -1), 0, 6, "-0"},
		{238.047614, 13, 8, "    238.04761"},
		{0.0015165751, 13, 8, " 0.0015165751"},
		{1.2391313e+15, 13, 8, "1.2391313e+15"},
		{1e100, 0, 6, "1e+100"},
		{math.Inf(1), 0, 6, "inf"},
		{math.Inf(-1), 13, 8, "         -inf"},
		{math.NaN(), 13, 8, "          nan"},
		{-math.NaN(), 13, 8, "         -nan"},
	} {
		if got := cfmtG(tc.x, tc.width, tc.prec); got != tc.want {
			t.Errorf("cfmtG(%v, %d, %d) = %q, want %q", tc.x, tc.width, tc.prec, got, tc.want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	ok := Sample{Name: "ok", Values: []float64{1, 2, 3}}
	short := Sample{Name: "short", Values: []float64{1, 2}}
	if _, err := Compare(ok, short, 95); err == nil || !strings.Contains(err.Error(), `"short" has 2 values`) {
		t.Errorf("Compare with 2 values: %v", err)
	}
	if _, err := Compare(short, ok, 95); err == nil {
		t.Error("Compare with a 2-value baseline succeeded")
	}
	if _, err := Compare(ok, ok, 85); err == nil {
		t.Error("Compare at 85% succeeded")
	}
	r, err := Compare(ok, ok, 95)
	if err != nil || r.Significant || r.Diff != 0 || r.DF != 4 {
		t.Errorf("Compare(ok, ok) = %+v, %v", r, err)
	}
	if s := r.String(); s != "No difference proven at 95.0% confidence\n" {
		t.Errorf("String() = %q", s)
	}
}

func TestWriteErrors(t *testing.T) {
	ok := Sample{Name: "ok", Values: []float64{1, 2, 3}}
	for _, tc := range []struct {
		name    string
		samples []Sample
		opts    Options
		want    string
	}{
		{"none", nil, Options{}, "no samples"},
		{"eight", []Sample{ok, ok, ok, ok, ok, ok, ok, ok}, Options{}, "8 samples"},
		{"confidence", []Sample{ok}, Options{Confidence: 97}, "confidence must be one of"},
		{"width", []Sample{ok}, Options{Width: 1}, "plot width 1"},
		{"negative width", []Sample{ok}, Options{Width: -5}, "plot width -5"},
		{"short", []Sample{ok, {Name: "two", Values: []float64{1, 2}}}, Options{}, `"two" has 2 values`},
	} {
		var b bytes.Buffer
		err := Write(&b, tc.samples, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %q before failing", tc.name, b.String())
		}
	}
}

func TestWriteQuiet(t *testing.T) {
	// -q (FreeBSD 13+) drops the legend and the header and nothing else.
	a := Sample{Name: "a", Values: []float64{10, 11, 12}}
	b := Sample{Name: "b", Values: []float64{20, 22, 24}}
	var full, quiet bytes.Buffer
	if err := Write(&full, []Sample{a, b}, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&quiet, []Sample{a, b}, Options{Quiet: true}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.SplitAfter(full.String(), "\n") {
		if l == "x a\n" || l == "+ b\n" || l == Header+"\n" {
			continue
		}
		want = append(want, l)
	}
	if quiet.String() != strings.Join(want, "") {
		t.Errorf("quiet output\n%s\nwant\n%s", quiet.String(), strings.Join(want, ""))
	}
	if len(want) == len(strings.SplitAfter(full.String(), "\n")) {
		t.Error("nothing was dropped")
	}
}

func TestWriteNonFinite(t *testing.T) {
	// ministat itself crashes on these; we must neither panic nor draw.
	for _, vals := range [][]float64{
		{1, 2, math.Inf(1)},
		{1, 2, math.NaN()},
		{math.Inf(-1), 1, 2},
		{1e308, 1.5e308, 1.7e308}, // the sum overflows
		{math.Inf(1), math.Inf(1), math.Inf(1)},
	} {
		var b bytes.Buffer
		s := []Sample{{Name: "a", Values: []float64{1, 2, 3}}, {Name: "b", Values: vals}}
		if err := Write(&b, s, Options{}); err != nil {
			t.Fatalf("%v: %v", vals, err)
		}
		out := b.String()
		if !strings.Contains(out, "[no plot, ") {
			t.Errorf("%v: drew a plot:\n%s", vals, out)
		}
		if !strings.Contains(out, Header) {
			t.Errorf("%v: no table:\n%s", vals, out)
		}
	}
}

func TestWriteVitals(t *testing.T) {
	var b bytes.Buffer
	s := Sample{Values: []float64{0.133, 0.137, 0.136, 0.134, 0.137}}
	if err := WriteVitals(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	// What /usr/bin/ministat -n prints for these five numbers.
	want := "x   5         0.133         0.137         0.136        0.1354  0.0018165902\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	if err := WriteVitals(&b, s, 7); err == nil {
		t.Error("index 7 accepted")
	}
	if err := WriteVitals(&b, Sample{}, 0); err == nil {
		t.Error("empty sample accepted")
	}
}
