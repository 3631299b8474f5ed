package main

import (
	"flag"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/suite"
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

// TestSampleTimeText is issue 10 item 12: the header printed
// "2ms–18.393156ms".
func TestSampleTimeText(t *testing.T) {
	for _, tc := range []struct {
		a, b time.Duration
		want string
	}{
		{2 * time.Millisecond, 18393156 * time.Nanosecond, "2ms–18.4ms"},
		{20 * time.Millisecond, 20 * time.Millisecond, "20ms"},
		{2000400 * time.Nanosecond, 2 * time.Millisecond, "2ms"},
		{1234567890, 1234567890, "1.23s"},
		{999, 999, "999ns"},
		{123456 * time.Nanosecond, 100 * time.Millisecond, "123µs–100ms"},
	} {
		if got := sampleTimeText(tc.a, tc.b); got != tc.want {
			t.Errorf("sampleTimeText(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
