package main

import (
	"flag"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/internal/suite"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3}, 3}, {[]float64{4, 1}, 2.5}, {[]float64{5, 1, 3}, 3}, {[]float64{9, 1, 2, 8}, 5},
	} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median(nil) is not NaN")
	}
	xs := []float64{3, 1, 2}
	median(xs)
	if xs[0] != 3 {
		t.Error("median sorted its argument")
	}
}

func TestMedianCI(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	lo, hi, ok := medianCI(xs, 0.95)
	// n=10 at 95%: P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2), so x(2), x(9).
	if !ok || lo != 2 || hi != 9 {
		t.Errorf("medianCI(1..10) = %v, %v, %v; want 2, 9, true", lo, hi, ok)
	}
	if _, _, ok := medianCI(xs[:5], 0.95); ok {
		t.Error("5 values gave a 95% interval; 1/32 > 0.025, so none exists")
	}
	if lo, hi, ok := medianCI(xs[:6], 0.95); !ok || lo != 1 || hi != 10 {
		t.Errorf("6 values: %v, %v, %v; want the extremes", lo, hi, ok)
	}
}

// TestRatioOfMediansCoverage draws many pairs of samples with a known
// ratio of medians and checks that the interval covers it about as often
// as promised (bootstrap intervals of medians run a little narrow for
// small samples, hence the slack) and that it says so.
func TestRatioOfMediansCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials, n = 300, 10
	for _, trueRatio := range []float64{1, 1.25} {
		covered, significant := 0, 0
		for i := range trials {
			base, other := make([]float64, n), make([]float64, n)
			for j := range n {
				// Log-normal noise around 10 ns: medians are 10 and 10·ratio.
				base[j] = 10 * math.Exp(0.05*rng.NormFloat64())
				other[j] = 10 * trueRatio * math.Exp(0.05*rng.NormFloat64())
			}
			r := ratioOfMedians(base, other, 0.95, strconv.Itoa(i))
			if !(r.Lo <= r.Ratio && r.Ratio <= r.Hi) {
				t.Fatalf("ratio %v outside its interval [%v, %v]", r.Ratio, r.Lo, r.Hi)
			}
			if r.Lo <= trueRatio && trueRatio <= r.Hi {
				covered++
			}
			if r.Significant {
				significant++
			}
		}
		if c := float64(covered) / trials; c < 0.85 {
			t.Errorf("ratio %v: coverage %.2f, want about 0.95", trueRatio, c)
		}
		switch s := float64(significant) / trials; {
		case trueRatio == 1 && s > 0.15:
			t.Errorf("equal medians: %.2f of intervals exclude 1", s)
		case trueRatio != 1 && s < 0.95:
			t.Errorf("25%% apart with 5%% noise: only %.2f of intervals exclude 1", s)
		}
	}
	a := ratioOfMedians([]float64{1, 2, 3}, []float64{2, 4, 6}, 0.95, "x")
	b := ratioOfMedians([]float64{1, 2, 3}, []float64{2, 4, 6}, 0.95, "x")
	if a != b || a.Ratio != 2 {
		t.Errorf("not reproducible or wrong: %+v %+v", a, b)
	}
}

// TestHarnessInterleaves runs the harness over fake benchmarks and checks
// the order of runs (warm-up, then A B, B A, A B … per section), the sample
// count and the sizing of samples, with and without a budget.
func TestHarnessInterleaves(t *testing.T) {
	var log []string
	fake := func(name string, section string) suite.Benchmark {
		return suite.Benchmark{Name: name, Section: section, F: func(*testing.B) { log = append(log, name) }}
	}
	benchs := []suite.Benchmark{fake("A/x=1", "A"), fake("A/x=2", "A"), fake("B/x=1", "B")}
	const nsPerOp = 10
	var iters []int
	h := &harness{sampleTime: 2 * time.Millisecond, minSample: 100 * time.Microsecond, count: 3,
		run: func(f func(*testing.B)) testing.BenchmarkResult {
			n, err := strconv.Atoi(strings.TrimSuffix(flag.Lookup("test.benchtime").Value.String(), "x"))
			if err != nil {
				t.Fatal(err)
			}
			f(nil)
			iters = append(iters, n)
			return testing.BenchmarkResult{N: n, T: time.Duration(n * nsPerOp), Extra: map[string]float64{"cycles/op": 25}}
		}}
	before := flag.Lookup("test.benchtime").Value.String()
	samples, err := h.measure(benchs)
	if err != nil {
		t.Fatal(err)
	}
	if after := flag.Lookup("test.benchtime").Value.String(); after != before {
		t.Errorf("test.benchtime left at %s, was %s", after, before)
	}
	want := "A/x=1 A/x=1 A/x=2 A/x=2 " + // warm-up: sizing run, then a sample-long run
		"A/x=1 A/x=2 A/x=2 A/x=1 A/x=1 A/x=2 " + // rounds, each starting one further
		"B/x=1 B/x=1 B/x=1 B/x=1 B/x=1"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("run order\n got %s\nwant %s", got, want)
	}
	for name, ss := range samples {
		if len(ss) != 3 {
			t.Errorf("%s: %d samples", name, len(ss))
		}
		for _, s := range ss {
			if s.NsPerOp != nsPerOp || s.Metrics["cycles/op"] != 25 || s.Iters != 200000 {
				t.Errorf("%s: sample %+v, want 10 ns/op over 2ms/10ns = 200000 iterations", name, s)
			}
		}
	}
	if iters[0] != warmupIters {
		t.Errorf("first run had %d iterations, want %d", iters[0], warmupIters)
	}

	// A budget that cannot be met shrinks the samples to the minimum.
	log, iters = nil, nil
	h.budget = time.Nanosecond
	if _, err := h.measure(benchs); err != nil {
		t.Fatal(err)
	}
	for _, n := range iters[1:] {
		if n != warmupIters && n != 10000 {
			t.Errorf("under an exhausted budget a run had %d iterations, want minSample/10ns = 10000", n)
		}
	}
	if h.shortest != h.minSample {
		t.Errorf("shortest sample time %v, want %v", h.shortest, h.minSample)
	}

	// A failing benchmark is an error naming it.
	h.run = func(func(*testing.B)) testing.BenchmarkResult { return testing.BenchmarkResult{} }
	if _, err := h.measure(benchs[:1]); err == nil || !strings.Contains(err.Error(), "A/x=1") {
		t.Errorf("failing benchmark: %v", err)
	}
}

func TestDiffOfMedians(t *testing.T) {
	base := []float64{6.0, 6.1, 5.9, 6.05, 5.95, 6.02, 40} // one descheduled outlier
	other := []float64{7.5, 7.6, 7.4, 7.55, 7.45, 7.52, 7.48}
	d := diffOfMedians(base, other, 0.95, "s")
	if d.Diff != median(other)-median(base) || !(d.Lo <= d.Diff && d.Diff <= d.Hi) || !d.Significant || d.Lo < 1 || d.Hi > 2 {
		t.Errorf("diffOfMedians = %+v; want about 1.5 with a tight interval despite the outlier", d)
	}
	same := diffOfMedians(base, base, 0.95, "s")
	if same.Significant || same.Diff != 0 {
		t.Errorf("a sample against itself: %+v", same)
	}
	r := ratioOfMedians(base, other, 0.95, "s")
	if math.Abs(r.Ratio-median(other)/median(base)) > 1e-12 || !r.Significant {
		t.Errorf("ratioOfMedians = %+v", r)
	}
}
