package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// tune's kit questions: which lock, which counter, whether the per-P cache
// pays, on this machine, answered by the report's one rule (advice.go).
// Each kind is one table of candidates, each naming the suite benchmark
// kind that times it, so that a new type is one line here (its body lives
// in lab/suite, with the report's).

// kitCandidate is one type a kit question compares.
type kitCandidate struct {
	// Kind is the kind= element of its suite benchmarks.
	Kind string
	// Name is how the advice names it.
	Name string
}

// kitLocks are the locks, sync.Mutex first (the baseline).
var kitLocks = []kitCandidate{
	{"mutex", "sync.Mutex"},
	{"tas", "spin.TAS"},
	{"ttas", "spin.TTAS"},
	{"asm", "spin.Asm"},
	{"backoff", "spin.Backoff"},
	{"ticket", "spin.Ticket"},
	{"mcs", "spin.MCS"},
}

// kitCounters are the counters, an inlined atomic.Int64 add first (the
// baseline). Timed: Add(1) on one counter shared by the goroutines.
var kitCounters = []kitCandidate{
	{"atomic", "atomic.Int64"},
	{"fetchadd", "counter.FetchAdd"},
	{"casloop", "counter.CASLoop"},
	{"striped", "counter.Striped"},
	{"adder", "counter.Adder"},
	{"percpu", "percpu.Counter"},
}

// kitRWLocks are the reader/writer locks, sync.RWMutex first (the
// baseline). Timed: RLock, a load, RUnlock, or (writes per 1000
// operations) Lock, an increment, Unlock.
var kitRWLocks = []kitCandidate{
	{"rwmutex", "sync.RWMutex"},
	{"percpu", "percpu.RWMutex"},
	{"mutex", "sync.Mutex"},
}

// kitCaches are the object caches, a mutex-guarded free list first (the
// baseline). Timed: Get, touch the object, Put.
var kitCaches = []kitCandidate{
	{"mutex", "a mutex-guarded free list"},
	{"percpu", "percpu.Cache"},
	{"pool", "sync.Pool"},
}

// kitKind is one kind of kit question.
type kitKind struct {
	kind       string // "lock"
	section    string // the suite section
	candidates []kitCandidate
	// css are the critical sections (locks), or the writes per 1000
	// operations (reader/writer locks); nil: none.
	css []int
	// what names the job ("a lock around an empty critical section").
	what func(cs int) string
	// name, if set, names the suite benchmark of a candidate kind at a
	// goroutine count and a css value.
	name func(kind string, threads, cs int) string
}

func kitKinds() []kitKind {
	return []kitKind{
		{kind: "lock", section: "Lock", candidates: kitLocks, css: []int{0, 50}, what: func(cs int) string {
			if cs == 0 {
				return "a lock around an empty critical section"
			}
			return fmt.Sprintf("a lock around a %d ns critical section", cs)
		}},
		{kind: "rwlock", section: "RWLock", candidates: kitRWLocks, css: []int{0, 10}, name: suite.RWLockName, what: func(wpm int) string {
			if wpm == 0 {
				return "a reader/writer lock, reads only"
			}
			return fmt.Sprintf("a reader/writer lock, %g %% writes", float64(wpm)/10)
		}},
		{kind: "counter", section: "Counter", candidates: kitCounters, what: func(int) string { return "a counter that is added to (Add)" }},
		{kind: "cache", section: "Cache", candidates: kitCaches, what: func(int) string { return "a cache of objects (Get, use, Put)" }},
	}
}

// kitThreads are the goroutine counts of the kit questions: 1 and
// GOMAXPROCS×4.
func kitThreads() []int { return []int{1, 4 * gomaxprocs()} }

// kitReport is one kind's questions and advice.
type kitReport struct {
	Kind      string         `json:"kind"`
	Baseline  string         `json:"baseline"`
	Questions []*kitQuestion `json:"questions"`
	// Overall is the advice across the questions: the candidates among
	// the best in every one.
	Overall     string   `json:"overall"`
	OverallBest []string `json:"overall_best"`
}

// kitQuestion is one job at one goroutine count.
type kitQuestion struct {
	Job     string       `json:"job"`
	Threads int          `json:"threads"`
	CS      int          `json:"cs_ns"`
	Results []*kitResult `json:"results"`
	Result  adviceResult `json:"result"`
	Advice  string       `json:"advice"`
	benchs  []suite.Benchmark
}

// kitResult is one candidate's measurement in one question.
type kitResult struct {
	Candidate   string  `json:"candidate"`
	Bench       string  `json:"benchmark"`
	Error       string  `json:"error,omitempty"`
	NsPerOp     summary `json:"ns_per_op"`
	CyclesPerOp summary `json:"cycles_per_op"`
	// Ratio is ns/op over the baseline's; nil for the baseline.
	Ratio   *ratioJSON `json:"ratio_to_baseline,omitempty"`
	Samples []sample   `json:"samples,omitempty"`
}

// kitBenchName is the suite benchmark of kind k for a question.
func kitBenchName(k kitKind, kind string, threads, cs int) string {
	if k.name != nil {
		return k.name(kind, threads, cs)
	}
	if k.css != nil {
		return suite.LockName(kind, threads, cs)
	}
	return k.section + "/kind=" + kind + "/threads=" + strconv.Itoa(threads)
}

// discoverKit builds the kit questions with their suite bodies.
func discoverKit(threads []int) []*kitReport {
	all := map[string]suite.Benchmark{}
	for _, bm := range suite.Select(suite.Options{Threads: threads, Full: true, Filter: regexp.MustCompile(`^(Lock|RWLock|Counter|Cache)/kind=`)}) {
		all[bm.Name] = bm
	}
	var out []*kitReport
	for _, k := range kitKinds() {
		kr := &kitReport{Kind: k.kind, Baseline: k.candidates[0].Name}
		css := k.css
		if css == nil {
			css = []int{0}
		}
		for _, cs := range css {
			for _, t := range threads {
				q := &kitQuestion{Job: k.what(cs), Threads: t, CS: cs}
				for _, c := range k.candidates {
					name := kitBenchName(k, c.Kind, t, cs)
					r := &kitResult{Candidate: c.Name, Bench: name}
					if bm, ok := all[name]; ok {
						bm.Section = "Tune/kit=" + k.kind
						q.benchs = append(q.benchs, bm)
					} else {
						r.Error = "no benchmark " + name + " in the suite"
					}
					q.Results = append(q.Results, r)
				}
				kr.Questions = append(kr.Questions, q)
			}
		}
		out = append(out, kr)
	}
	return out
}

// jobText is the question's job with its goroutine count.
func (q *kitQuestion) jobText() string {
	g := "goroutines"
	if q.Threads == 1 {
		g = "goroutine"
	}
	return fmt.Sprintf("%s, %d %s", q.Job, q.Threads, g)
}

// runKit measures every kind's questions with m (one measurement per
// kind, so that its candidates are interleaved) and advises.
func runKit(kit []*kitReport, m tuneMeasurer) {
	for _, kr := range kit {
		var benchs []suite.Benchmark
		for _, q := range kr.Questions {
			benchs = append(benchs, q.benchs...)
		}
		samples, err := m(benchs)
		for _, q := range kr.Questions {
			analyzeKitQuestion(q, samples, err)
		}
		adviseKit(kr)
	}
}

func analyzeKitQuestion(q *kitQuestion, samples map[string][]sample, err error) {
	var cands []candidate
	var base *kitResult
	for i, r := range q.Results {
		if r.Error == "" && err != nil {
			r.Error = "measuring failed: " + err.Error()
		}
		if r.Error != "" {
			continue
		}
		ss := samples[r.Bench]
		if len(ss) == 0 {
			r.Error = "no samples"
			continue
		}
		r.Samples = ss
		r.NsPerOp = summarize(nsOf(ss))
		if c := metricOf(ss, cyclebench.CyclesUnit); len(c) > 0 {
			r.CyclesPerOp = summarize(c)
		} else {
			nan := jnum(math.NaN())
			r.CyclesPerOp = summary{nan, nan, nan, nan, nan}
		}
		if i == 0 {
			base = r
		} else if base != nil {
			rc := compareRatio(nsOf(base.Samples), nsOf(ss), confidence/100.0)
			r.Ratio = &ratioJSON{jnum(rc.Ratio), jnum(rc.Lo), jnum(rc.Hi), rc.Significant}
		}
		cands = append(cands, candidate{r.Candidate, nsOf(ss)})
	}
	q.Result = fastest(cands)
	q.Advice = adviceText(q.Result, q.jobText(), q.Results[0].Candidate)
}

// adviseKit is the advice across a kind's questions: the candidates in
// the best set of every question.
func adviseKit(kr *kitReport) {
	var best []string
	for i, q := range kr.Questions {
		if q.Result.Verdict == verdictNone {
			kr.Overall = "no overall advice: " + q.Advice
			return
		}
		if i == 0 {
			best = slices.Clone(q.Result.Best)
			continue
		}
		best = slices.DeleteFunc(best, func(s string) bool { return !slices.Contains(q.Result.Best, s) })
	}
	kr.OverallBest = best
	every := fmt.Sprintf("%ss (among the best in each of the %d %s jobs above)", kr.Kind, len(kr.Questions), kr.Kind)
	switch {
	case len(best) == 0:
		kr.Overall = fmt.Sprintf("%ss: no one is among the best in each of the %d jobs above: choose by the job", kr.Kind, len(kr.Questions))
	case len(best) == 1:
		kr.Overall = fmt.Sprintf("on this machine use %s for %s", best[0], every)
	case slices.Contains(best, kr.Baseline):
		kr.Overall = fmt.Sprintf("on this machine keep %s for %s; a tie with %s",
			kr.Baseline, every, strings.Join(slices.DeleteFunc(slices.Clone(best), func(s string) bool { return s == kr.Baseline }), ", "))
	default:
		kr.Overall = fmt.Sprintf("on this machine use any of %s for %s: a tie", strings.Join(best, ", "), every)
	}
}

// writeKitText prints the kit advice.
func writeKitText(b *strings.Builder, kit []*kitReport) {
	for _, kr := range kit {
		fmt.Fprintf(b, "\nWhich %s (ns/op, median; ratio to %s with its %v%% interval, ~ when not significant):\n", kr.Kind, kr.Baseline, confidence)
		for _, q := range kr.Questions {
			fmt.Fprintf(b, "  %s:\n", q.jobText())
			for _, r := range q.Results {
				if r.Error != "" {
					fmt.Fprintf(b, "    %-26s %s\n", r.Candidate, r.Error)
					continue
				}
				cell := "baseline"
				if r.Ratio != nil {
					cell = ratioCell(*r.Ratio)
				}
				fmt.Fprintf(b, "    %-26s %9s  %s\n", r.Candidate, num(float64(r.NsPerOp.Median)), cell)
			}
			fmt.Fprintf(b, "    → %s\n", q.Advice)
		}
		fmt.Fprintf(b, "  ⇒ %s\n", kr.Overall)
	}
}

// threads are the goroutine counts of kr's questions.
func (kr *kitReport) threads() []int {
	var ts []int
	for _, q := range kr.Questions {
		if !slices.Contains(ts, q.Threads) {
			ts = append(ts, q.Threads)
		}
	}
	return ts
}
