package ministat

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/internal/hosttool"
)

// TestSignedZeroOrder is issue 10 item 6: with more than 12 values Go's
// slices.Sort is not stable, and the -0 and 0 of this sample came out in
// another order than ministat's, so that the median printed "-0" where
// ministat prints "0".
func TestSignedZeroOrder(t *testing.T) {
	vals := []float64{-0.0, -0.0, -0.0, 0, 1, 0, -2, -0.0, -0.0, -1, -2, 1, 0}
	for i, v := range vals {
		if v == 0 && i != 3 && i != 5 && i != 12 {
			vals[i] = math.Copysign(0, -1)
		}
	}
	var b bytes.Buffer
	if err := WriteVitals(&b, Sample{Values: vals}, 0); err != nil {
		t.Fatal(err)
	}
	// What /usr/bin/ministat -n prints for these numbers.
	want := "x  13            -2             1             0   -0.23076923     0.9268087\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestQsortIsGlibcMergeSort checks qsort against an independent statement
// of what it must do: without NaNs, a stable sort by value (−0 and 0 equal,
// input order kept) that moves whole bit patterns.
func TestQsortIsGlibcMergeSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 10))
	pool := []float64{math.Copysign(0, -1), 0, 1, -1, 2.5, math.Inf(1), math.Inf(-1), 1e-300, -1e-300}
	runs := 2000
	if testing.Short() {
		runs = 300
	}
	for run := range runs {
		n := rng.IntN(300)
		if run < 40 {
			n = run
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = pool[rng.IntN(len(pool))]
		}
		want := slices.Clone(v)
		slices.SortStableFunc(want, cmp.Compare[float64]) // no NaN in the pool: < and > decide
		got := slices.Clone(v)
		qsort(got)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("qsort(%v)\n= %v\nwant %v (stable)", v, got, want)
			}
		}
	}
}

// TestLiveMinistatTies runs /usr/bin/ministat on random samples made of
// few distinct values: many −0 and 0, ties, and (in -n runs, where ministat
// prints no plot it would crash on) NaN, −NaN and ±Inf, with sizes around
// glibc's switch from a stack to a heap buffer (128 doubles) and beyond.
// Which of −0 and 0, or which NaN, lands at each index decides the Min, Max
// and Median columns, so the output must be byte-identical.
func TestLiveMinistatTies(t *testing.T) {
	hosttool.RequireNative(t, ministatPath) // Debian package ministat
	rng := rand.New(rand.NewPCG(2015, 715))
	negZero := math.Copysign(0, -1)
	negNaN := math.Copysign(math.NaN(), -1)
	finite := []float64{negZero, negZero, 0, 0, 1, -1, -2, 3}
	special := []float64{math.NaN(), negNaN, math.Inf(1), math.Inf(-1)}
	format := func(v float64) string {
		switch {
		case math.IsNaN(v) && math.Signbit(v):
			return "-nan"
		case math.IsNaN(v):
			return "nan"
		case v == 0 && math.Signbit(v):
			return "-0"
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	dir := t.TempDir()
	runs, nonFinite := 300, 0
	if testing.Short() {
		// Each run starts ministat: fewer under -short (with -race).
		runs = 24
	}
	for run := range runs {
		withSpecial := run%3 == 2
		nsamples := 1 + rng.IntN(3)
		var samples []Sample
		var args []string
		opts := Options{}
		if withSpecial {
			nonFinite++
			args = append(args, "-n")
			opts.StatsOnly = true
		} else if rng.IntN(2) == 0 {
			args = append(args, "-A")
			opts.NoPlot = true
		}
		for i := range nsamples {
			n := 3 + rng.IntN(20)
			if rng.IntN(3) == 0 {
				n = 100 + rng.IntN(200)
			}
			s := Sample{Name: fmt.Sprintf("t%d", i)}
			var file strings.Builder
			for range n {
				v := finite[rng.IntN(len(finite))]
				if withSpecial && rng.IntN(6) == 0 {
					v = special[rng.IntN(len(special))]
				}
				file.WriteString(format(v) + "\n")
				s.Values = append(s.Values, v)
			}
			if err := os.WriteFile(filepath.Join(dir, s.Name), []byte(file.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			samples = append(samples, s)
			args = append(args, s.Name)
		}
		got, want := writeAndRun(t, dir, args, samples, opts)
		if got != want {
			var in strings.Builder
			for _, s := range samples {
				fmt.Fprintf(&in, "%s: %v\n", s.Name, s.Values)
			}
			t.Fatalf("run %d, ministat %s: output differs\ninput:\n%s--- got\n%s--- want\n%s", run, strings.Join(args, " "), in.String(), got, want)
		}
	}
	t.Logf("%d reports byte-identical to ministat, %d of them with NaN/Inf", runs, nonFinite)
}
