package main

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/suite"
)

// sample is one measurement of one benchmark: testing.Benchmark run for a
// fixed number of iterations.
type sample struct {
	Iters   int     `json:"iters"`
	NsPerOp float64 `json:"ns_per_op"`
	// Metrics holds what the body reported with b.ReportMetric:
	// "cycles/op" always, "fairness-stddev%" and "retries/op" for some.
	Metrics map[string]float64 `json:"metrics"`
	// Truncated reports a lock benchmark cut short by the run cap (see
	// suite.SetLockRunCap): Iters is the operations it did.
	Truncated bool `json:"truncated,omitempty"`
}

// newSample makes a sample of r.
func newSample(r testing.BenchmarkResult) sample {
	s := sample{Iters: r.N, NsPerOp: nsPerOp(r), Metrics: map[string]float64{}}
	for k, v := range r.Extra {
		switch k {
		case "ns/op":
		case suite.TruncatedUnit:
			s.Iters, s.Truncated = int(v), true
		default:
			s.Metrics[k] = v
		}
	}
	return s
}

// harness measures benchmarks the way the report needs them: section by
// section, every benchmark warmed up first, then count rounds in each of
// which every benchmark of the section gives one sample (A B C A B C …),
// so that drift in the machine's speed hits every contestant alike.
//
// Each sample runs testing.Benchmark for a fixed number of iterations
// (test.benchtime=Nx), sized from the benchmark's measured speed to last
// the sample time. testing.Benchmark collects garbage before every run,
// which costs a few milliseconds even with an empty heap; with a budget,
// the harness measures that overhead as it goes and shortens the samples
// so that the whole run ends on time.
type harness struct {
	// sampleTime is how long one sample should take at most.
	sampleTime time.Duration
	// minSample is the shortest sample the budget may impose.
	minSample time.Duration
	// budget, if positive, is the wall time the whole measurement should
	// fit in; samples are shortened (down to minSample) to fit.
	budget time.Duration
	// count is the number of samples per benchmark.
	count int
	// iters, if positive, is every sample's iteration count (-benchtime
	// Nx): the sizing and the budget are off, and sampleTime only sets
	// the lock run cap.
	iters int
	// progress, if not nil, is told what runs next.
	progress func(done, total int, what string)
	// section, if not nil, is told when a section starts: its number
	// from 1, the number of sections, its name and its benchmarks.
	section func(i, n int, name string, benchmarks int)
	// run runs one benchmark; testing.Benchmark unless a test replaces
	// it.
	run func(f func(*testing.B)) testing.BenchmarkResult

	// wall is the wall-clock time each benchmark took, warm-up and the
	// overheads of testing.Benchmark included.
	wall map[string]time.Duration
	// shortest and longest are the sample times used.
	shortest, longest time.Duration
}

// runCap is how long one run of a lock benchmark sized to last st may
// take before it is cut short (suite.SetLockRunCap).
func runCap(st time.Duration) time.Duration { return 4*st + 20*time.Millisecond }

// warmupIters is the iteration count of the first, sizing run of a
// benchmark.
const warmupIters = 100

// benchtimeFlag returns the testing package's -test.benchtime flag, which
// sets how long (or how many iterations) testing.Benchmark runs.
func benchtimeFlag() *flag.Flag {
	testing.Init() // registers the test.* flags; a no-op when already done
	return flag.Lookup("test.benchtime")
}

// measure runs benchs and returns their samples by name. Benchmarks are
// measured section by section in the order given.
func (h *harness) measure(benchs []suite.Benchmark) (map[string][]sample, error) {
	bt := benchtimeFlag()
	if bt == nil {
		return nil, fmt.Errorf("the testing package has no test.benchtime flag")
	}
	saved := bt.Value.String()
	defer bt.Value.Set(saved)
	defer suite.SetLockRunCap(0)
	run := h.run
	if run == nil {
		run = testing.Benchmark
	}
	start := time.Now()
	h.wall = map[string]time.Duration{}
	h.shortest, h.longest = 0, 0

	var sections [][]suite.Benchmark
	for i, bm := range benchs {
		if i == 0 || bm.Section != benchs[i-1].Section {
			sections = append(sections, nil)
		}
		sections[len(sections)-1] = append(sections[len(sections)-1], bm)
	}
	runsPerBench := h.count + 2 // two warm-up runs
	total := len(benchs) * runsPerBench
	done := 0
	// overhead is the mean wall time of a run beyond its measured time.
	var overheadSum time.Duration
	overheadN := 0
	overhead := func() time.Duration {
		if overheadN == 0 {
			return 5 * time.Millisecond
		}
		return overheadSum / time.Duration(overheadN)
	}
	// runN runs bm for n iterations and accounts for the time.
	runN := func(bm suite.Benchmark, n int, what string) (testing.BenchmarkResult, error) {
		if h.progress != nil {
			h.progress(done, total, what)
		}
		done++
		if err := bt.Value.Set(fmt.Sprintf("%dx", n)); err != nil {
			return testing.BenchmarkResult{}, err
		}
		t0 := time.Now()
		r := run(bm.F)
		wall := time.Since(t0)
		h.wall[bm.Name] += wall
		if r.N <= 0 {
			return r, fmt.Errorf("%s: the benchmark failed", bm.Name)
		}
		overheadSum += max(wall-r.T, 0)
		overheadN++
		return r, nil
	}
	// sampleTime plans the next runs: the configured time, or less if
	// the remaining runs would not fit in the budget.
	sampleTime := func() time.Duration {
		st := h.sampleTime
		if h.budget > 0 {
			left := h.budget - time.Since(start)
			fit := left/time.Duration(max(total-done, 1)) - overhead()
			st = min(st, max(fit, h.minSample))
		}
		if h.shortest == 0 || st < h.shortest {
			h.shortest = st
		}
		h.longest = max(h.longest, st)
		suite.SetLockRunCap(runCap(st))
		return st
	}
	itersFor := func(st time.Duration, nsPerOp float64) int {
		if h.iters > 0 {
			return h.iters
		}
		n := float64(st.Nanoseconds()) / math.Max(nsPerOp, 0.01)
		return int(math.Max(1, math.Min(n, 1e9)))
	}

	out := make(map[string][]sample, len(benchs))
	for si, sec := range sections {
		if h.section != nil {
			h.section(si+1, len(sections), sec[0].Section, len(sec))
		}
		// Warm up: a short run to size the benchmark, then one of a
		// sample's length, which sets the speed the first sample is
		// sized from.
		est := make([]float64, len(sec))
		last := make([]float64, len(sec))
		for i, bm := range sec {
			r, err := runN(bm, warmupIters, "warm-up "+bm.Name)
			if err != nil {
				return nil, err
			}
			st := sampleTime()
			r, err = runN(bm, itersFor(st, nsPerOp(r)), "warm-up "+bm.Name)
			if err != nil {
				return nil, err
			}
			est[i], last[i] = nsPerOp(r), nsPerOp(r)
		}
		// Interleave: each round takes one sample of every benchmark,
		// starting one further along each round so that no benchmark
		// always runs right after the same neighbour.
		for round := range h.count {
			st := sampleTime()
			for j := range sec {
				i := (j + round) % len(sec)
				bm := sec[i]
				// Size from the median speed so far, or from the
				// last sample if that was slower, so that a
				// benchmark that slowed down (a lock convoy) does
				// not blow the budget twice.
				r, err := runN(bm, itersFor(st, math.Max(est[i], last[i])), fmt.Sprintf("round %d/%d %s", round+1, h.count, bm.Name))
				if err != nil {
					return nil, err
				}
				s := newSample(r)
				out[bm.Name] = append(out[bm.Name], s)
				last[i] = s.NsPerOp
				ns := make([]float64, len(out[bm.Name]))
				for k, x := range out[bm.Name] {
					ns[k] = x.NsPerOp
				}
				est[i] = median(ns)
			}
		}
	}
	return out, nil
}

// nsPerOp is r's time per iteration, unrounded, or the ns/op the body
// reported itself (a run cut short).
func nsPerOp(r testing.BenchmarkResult) float64 {
	if v, ok := r.Extra["ns/op"]; ok {
		return v
	}
	return float64(r.T.Nanoseconds()) / float64(r.N)
}
