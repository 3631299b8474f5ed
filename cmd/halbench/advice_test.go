package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/suite"
)

// noisy returns n samples around level with relative noise.
func noisy(rng *rand.Rand, n int, level, noise float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = level * (1 + noise*rng.NormFloat64())
	}
	return out
}

// TestFastestRule: a win only when the winner is significantly faster
// than every other candidate; a tie named as a tie, with the baseline kept
// when it is in it; the slower ones never among the best.
func TestFastestRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type tc struct {
		name    string
		levels  []float64 // candidate i's level; candidate 0 is the baseline
		noise   float64
		verdict string
		best    []string
		text    string
	}
	names := []string{"base", "x", "y", "z"}
	for _, c := range []tc{
		{"clear win", []float64{10, 7, 9, 12}, 0.01, verdictWin, []string{"x"}, "use x for the job: significantly faster than every other"},
		{"tie of two, baseline slower", []float64{10, 7, 7, 12}, 0.01, verdictTie, []string{"x", "y"}, "use any of x, y for the job: a tie"},
		{"tie with the baseline", []float64{7, 7, 9, 12}, 0.01, verdictTie, []string{"base", "x"}, "keep base for the job: a tie with x"},
		{"lowest median, not significant", []float64{10, 9.9, 10.1, 15}, 0.03, verdictTie, nil, "keep base for the job: a tie"},
		{"all equal", []float64{10, 10, 10, 10}, 0.01, verdictTie, names, "keep base for the job: a tie with x, y, z"},
	} {
		var cands []candidate
		for i, l := range c.levels {
			cands = append(cands, candidate{names[i], noisy(rng, 10, l, c.noise)})
		}
		r := fastest(cands)
		text := adviceText(r, "the job", "base")
		if r.Verdict != c.verdict || (c.best != nil && !slices.Equal(r.Best, c.best)) || !strings.Contains(text, c.text) {
			t.Errorf("%s: %+v, %q; want %s %v, %q", c.name, r, text, c.verdict, c.best, c.text)
		}
		if slices.Contains(r.Best, "z") && c.levels[3] > 10 {
			t.Errorf("%s: the slow one among the best: %+v", c.name, r)
		}
		if r.Verdict == verdictWin {
			for _, o := range cands {
				if o.Name != r.Best[0] && !fasterThan(cands[slices.IndexFunc(cands, func(c candidate) bool { return c.Name == r.Best[0] })].NS, o.NS) {
					t.Errorf("%s: %s wins without beating %s", c.name, r.Best[0], o.Name)
				}
			}
		}
		if r.Verdict == verdictTie && strings.Contains(text, "use "+r.Best[0]+" for") {
			t.Errorf("%s: a tie named as a win: %q", c.name, text)
		}
	}
	// Too few samples: no verdict, and said so.
	r := fastest([]candidate{{"base", []float64{1, 2, 3}}, {"x", []float64{1, 2, 3, 4}}})
	if r.Verdict != verdictWin || !slices.Equal(r.NoVerdict, []string{"base"}) ||
		!strings.Contains(adviceText(r, "j", "base"), "base not compared: fewer than 4 samples") {
		t.Errorf("few samples: %+v", r)
	}
	if r := fastest([]candidate{{"base", []float64{1, 2, 3}}}); r.Verdict != verdictNone || !strings.Contains(adviceText(r, "j", "base"), "no advice") {
		t.Errorf("none comparable: %+v", r)
	}
}

// TestTuneKitAdvice: the kit questions on a fake measurer: one table per
// kind with every candidate, the advice per job by the rule, the overall
// line, ties named as ties, and the text and JSON carry it.
func TestTuneKitAdvice(t *testing.T) {
	kit := discoverKit([]int{1, 8})
	if len(kit) != 4 {
		t.Fatalf("%d kinds, want lock, rwlock, counter, cache", len(kit))
	}
	for _, kr := range kit {
		for _, q := range kr.Questions {
			for _, r := range q.Results {
				if r.Error != "" {
					t.Errorf("%s: %s", r.Bench, r.Error)
				}
			}
		}
	}
	if n := len(kit[0].Questions); n != 4 {
		t.Errorf("%d lock questions, want 4 (cs 0 and 50 at 1 and 8 goroutines)", n)
	}
	// Locks: Backoff clearly fastest at 8 goroutines, tied with the
	// mutex at 1; counters: Adder and percpu tie at 8; caches: the pool
	// ties with percpu at 1, which wins at 8.
	levels := map[string]float64{
		suite.LockName("backoff", 8, 0): 20, suite.LockName("backoff", 8, 50): 40,
		suite.LockName("backoff", 1, 0): 30, suite.LockName("mutex", 1, 0): 30,
		suite.LockName("backoff", 1, 50): 60, suite.LockName("mutex", 1, 50): 60,
		"Counter/kind=adder/threads=8": 5, "Counter/kind=percpu/threads=8": 5, "Counter/kind=atomic/threads=1": 3,
		"Cache/kind=pool/threads=1": 10, "Cache/kind=percpu/threads=1": 10, "Cache/kind=percpu/threads=8": 4,
	}
	runKit(kit, fakeByName(10, 0.01, func(bm suite.Benchmark) float64 {
		if l, ok := levels[bm.Name]; ok {
			return l
		}
		return 100
	}))
	advice := map[string]string{}
	for _, kr := range kit {
		for _, q := range kr.Questions {
			advice[kr.Kind+"/"+q.jobText()] = q.Advice
		}
		advice[kr.Kind] = kr.Overall
	}
	for key, want := range map[string]string{
		"lock/a lock, critical section 0 ns, 8 goroutines": "use spin.Backoff for a lock, critical section 0 ns, 8 goroutines: significantly faster",
		"lock/a lock, critical section 0 ns, 1 goroutine":  "keep sync.Mutex for a lock, critical section 0 ns, 1 goroutine: a tie with spin.Backoff",
		"lock": "on this machine use spin.Backoff for locks (among the best in each of the 4 lock jobs above)",
		"counter/a counter, Add(1) from every goroutine, 8 goroutines": "use any of counter.Adder, percpu.Counter for a counter, Add(1) from every goroutine, 8 goroutines: a tie",
		"counter/a counter, Add(1) from every goroutine, 1 goroutine":  "use atomic.Int64 for",
		"counter": "counters: no one is among the best in each",
		"cache/an object cache, Get, touch, Put, 1 goroutine": "keep sync.Pool for an object cache, Get, touch, Put, 1 goroutine: a tie with percpu.Cache",
		"cache": "on this machine use percpu.Cache for caches",
	} {
		if !strings.Contains(advice[key], want) {
			t.Errorf("%s: advice %q, want %q", key, advice[key], want)
		}
	}
	rep := tuneWith(&tuneConfig{workload: "mixed", minGain: 0.05, threads: []int{1}, count: 10}, nil, nil, fakeMeasurer(10, 0.01, func(string, int) float64 { return 1 }))
	rep.Kit = kit
	var b strings.Builder
	if err := writeTuneText(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Which lock", "spin.MCS", "Which counter", "Which cache", "Advice for this machine:\n  on this machine use spin.Backoff for locks"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "\nGOHAL=\n") {
		t.Errorf("the text does not end in the GOHAL line")
	}
}
