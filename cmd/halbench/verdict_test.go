package main

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// fakeSamples gives every benchmark ten samples around its own level:
// ns/op = level·(1 + small jitter), cycles/op = 2·ns/op.
func fakeSamples(benchs []suite.Benchmark, level func(name string) float64) map[string][]sample {
	out := map[string][]sample{}
	for _, bm := range benchs {
		for i := range 10 {
			ns := level(bm.Name) * (1 + 0.002*float64(i%5-2))
			out[bm.Name] = append(out[bm.Name], sample{Iters: 1000, NsPerOp: ns,
				Metrics: map[string]float64{cyclebench.CyclesUnit: 2 * ns}})
		}
	}
	return out
}

func TestVerdictFromNumbers(t *testing.T) {
	cfg, err := parseRunArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	benchs := suite.Select(suite.Options{Filter: regexp.MustCompile(`^Dispatch/op=(fetchadd64|pause)/|^Lock/kind=(mutex|ttas)/threads=[12]/cs=0`), Threads: []int{1, 2}})
	levels := map[string]float64{
		suite.DispatchName("fetchadd64", suite.ModeInline):  6,
		suite.DispatchName("fetchadd64", suite.ModeAPI):     7,
		suite.DispatchName("fetchadd64", suite.ModeTable):   8.5,
		suite.DispatchName("fetchadd64", suite.ModeClosure): 7.5,
		suite.DispatchName("fetchadd64", suite.ModeGeneric): 9,
		suite.DispatchName("pause", suite.ModeAPI):          20,
		suite.LockName("mutex", 1, 0):                       12.5,
		suite.LockName("ttas", 1, 0):                        10,
		suite.LockName("mutex", 2, 0):                       25,
		suite.LockName("ttas", 2, 0):                        20,
	}
	level := func(name string) float64 {
		if v, ok := levels[name]; ok {
			return v
		}
		return 50
	}
	r := buildReport(cfg, benchs, fakeSamples(benchs, level), time.Second)
	facts := map[string]float64{}
	for _, f := range r.Verdict.Facts {
		facts[f.Key] = float64(f.Value)
	}
	near := func(key string, want float64) {
		t.Helper()
		if got, ok := facts[key]; !ok || math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("fact %s = %v (present %v), want %v", key, got, ok, want)
		}
	}
	near("indirect_call_ns", 1.5)    // closure 7.5 − inline 6
	near("indirect_call_cycles", 3)  // twice that
	near("table_over_api_cycles", 3) // (8.5 − 7)·2
	near("per_us_atomic_add", 1000/6.0)
	near("per_us_hal_add", 1000/7.0)
	near("per_us_indirect_call", 1000/1.5)
	near("per_us_mutex", 80)
	near("per_us_ttas", 100)
	near("per_us_mutex_2", 40)
	near("per_us_pause", 50)
	near("table_over_api", 8.5/7)
	text := strings.Join(r.Verdict.Paragraphs, "\n")
	for _, want := range []string{
		"An indirect call costs about 3.00 cycles (1.50 ns) here",
		"costs about 3.00 cycles (1.50 ns) here (the indirect call plus the ABI0 wrapper",
		"1.17× (95% CI", "the exported function is the cheaper binding",
		"about 170 uncontended atomic adds inlined (6.00 ns, 12.0 cycles each)",
		"80 uncontended sync.Mutex Lock+Unlock round trips",
		"ttas vs sync.Mutex: 2 goroutines, empty critical section: 0.80×", "(faster)",
		"use spin.TTAS for a lock at threads=2/cs=0: significantly faster than every other candidate",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lacks %q:\n%s", want, text)
		}
	}

	// Equal costs: nothing to prove, and the verdict says so.
	flat := buildReport(cfg, benchs, fakeSamples(benchs, func(string) float64 { return 6 }), time.Second)
	text = strings.Join(flat.Verdict.Paragraphs, "\n")
	for _, want := range []string{"An indirect call costs nothing measurable here", "no difference proven at 95% confidence",
		"within the noise", "(no significant difference)"} {
		if !strings.Contains(text, want) {
			t.Errorf("flat verdict lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "keep sync.Mutex for a lock at threads=2/cs=0: a tie with spin.TTAS") {
		t.Errorf("flat verdict does not name the lock tie:\n%s", text)
	}
	if strings.Contains(text, "indirect calls on top") {
		t.Errorf("flat verdict budgets indirect calls it could not measure:\n%s", text)
	}
}

// TestOneSignificanceRule is issue 10 item 9: the ministat block of a key
// comparison and the verdict must not disagree. Samples where one
// descheduled run hides a clear difference from the t test on the means:
// the report's rule (one for the whole report) finds it, says so under the
// block and in the verdict, and nothing prints ministat's contrary
// conclusion.
func TestOneSignificanceRule(t *testing.T) {
	cfg, err := parseRunArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	benchs := suite.Select(suite.Options{Filter: regexp.MustCompile(`^Lock/kind=(mutex|ttas)/threads=2/cs=0`), Threads: []int{2}})
	samples := fakeSamples(benchs, func(name string) float64 {
		if name == suite.LockName("mutex", 2, 0) {
			return 25
		}
		return 20
	})
	samples[suite.LockName("mutex", 2, 0)][3].NsPerOp = 2000 // descheduled once
	r := buildReport(cfg, benchs, samples, time.Second)
	if len(r.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(r.Pairs))
	}
	p := r.Pairs[0]
	if p.TTest == nil || p.TTest.Significant {
		t.Fatalf("the test's premise failed: ministat's t test should see no difference: %+v", p.TTest)
	}
	if !p.Significant || !p.Ratio.Significant || float64(p.Ratio.Ratio) >= 1 {
		t.Fatalf("pair %+v: want a significant ratio below 1", p)
	}
	var buf strings.Builder
	if err := writeText(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Faster at 95% confidence: + over x: 0.8", "(faster)", "Significant, everywhere below: the 95% " + ruleName} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"No difference proven", "Student's t", "no significant difference"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q, against its own rule:\n%s", bad, out)
		}
	}
	// Too few samples: no verdict anywhere, not a guess.
	for name, ss := range samples {
		samples[name] = ss[:3]
	}
	r = buildReport(cfg, benchs, samples, time.Second)
	buf.Reset()
	writeText(&buf, r)
	out = buf.String()
	for _, want := range []string{"No verdict: fewer than 4 samples per side", "no verdict: fewer than 4 samples", "(too few samples)"} {
		if !strings.Contains(out, want) {
			t.Errorf("3 samples: report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(faster)") || strings.Contains(out, "Faster at") {
		t.Errorf("3 samples: report claims a difference:\n%s", out)
	}
}

// TestVerdictNamesTiesAsTies is issue 20 item 6: the verdict advises "on
// this machine use X for Y" from the report's one rule, and a kind that
// is cheapest by median but not significantly faster is named in a tie,
// never as the winner (the verdict used to print "Cheapest lock by median
// ns/op — …: ttas …", naming a winner the rule calls a tie).
func TestVerdictNamesTiesAsTies(t *testing.T) {
	cfg, err := parseRunArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	benchs := suite.Select(suite.Options{Filter: regexp.MustCompile(`^Lock/kind=(mutex|ttas|backoff|mcs)/threads=[12]/cs=0|^Cache/kind=`), Threads: []int{1, 2}})
	levels := map[string]float64{
		suite.LockName("mutex", 1, 0): 10.01, suite.LockName("ttas", 1, 0): 10, suite.LockName("backoff", 1, 0): 10.02, suite.LockName("mcs", 1, 0): 14,
		suite.LockName("mutex", 2, 0): 30, suite.LockName("ttas", 2, 0): 20, suite.LockName("backoff", 2, 0): 15, suite.LockName("mcs", 2, 0): 40,
		"Cache/kind=pool/threads=1": 10, "Cache/kind=percpu/threads=1": 10.01, "Cache/kind=mutex/threads=1": 20, "Cache/kind=spin/threads=1": 20,
	}
	r := buildReport(cfg, benchs, fakeSamples(benchs, func(name string) float64 {
		if l, ok := levels[name]; ok {
			return l
		}
		return 50
	}), time.Second)
	text := strings.Join(r.Verdict.Paragraphs, "\n")
	for _, want := range []string{
		"keep sync.Mutex for a lock at threads=1/cs=0: a tie with spin.TTAS, spin.Backoff",
		"use spin.Backoff for a lock at threads=2/cs=0: significantly faster than every other candidate",
		"use any of percpu.Cache, sync.Pool for a cache at threads=1: a tie",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"use spin.TTAS for a lock at threads=1", "use sync.Pool for a cache at threads=1", "Cheapest", "by median"} {
		if strings.Contains(text, bad) {
			t.Errorf("verdict names a tie as a win (%q):\n%s", bad, text)
		}
	}
}
