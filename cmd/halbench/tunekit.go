package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/gohal/gohal/lab/suite"
)

// tune's kit questions: which lock, reader/writer lock, counter and cache,
// on this machine, answered by the report's one rule (advice.go). Each
// kind is a question of the registry (suite.Questions): its contestants,
// its workloads and the suite benchmarks that time them, so that tune,
// the report, peers and results ask the same question.

// kitKinds are the registry's questions tune asks: the kit's types.
func kitKinds() []suite.Question {
	var out []suite.Question
	for _, q := range suite.Questions() {
		if q.Key == "lock" || q.Key == "rwlock" || q.Key == "counter" || q.Key == "cache" {
			out = append(out, q)
		}
	}
	return out
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

// discoverKit builds the kit questions with their suite bodies.
func discoverKit(threads []int) []*kitReport {
	all := map[string]suite.Benchmark{}
	for _, bm := range suite.Select(suite.Options{Threads: threads, Full: true, Filter: regexp.MustCompile(`^(Lock|RWLock|Counter|Cache)/kind=`)}) {
		all[bm.Name] = bm
	}
	var out []*kitReport
	for _, k := range kitKinds() {
		kr := &kitReport{Kind: k.Key, Baseline: k.Contestants[0].Name}
		for _, w := range k.Workloads {
			for _, t := range threads {
				q := &kitQuestion{Job: k.Ask + ", " + w.Name, Threads: t}
				for _, c := range k.Contestants {
					name := w.Bench(c.Kind, t)
					r := &kitResult{Candidate: c.Name, Bench: name}
					if bm, ok := all[name]; ok {
						bm.Section = "Tune/kit=" + k.Key
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
	return fmt.Sprintf("%s, %d %s", q.Job, q.Threads, goroutines(q.Threads))
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
		r.NsPerOp, r.CyclesPerOp = summarize(nsOf(ss)), cyclesOf(ss)
		if i == 0 {
			base = r
		} else if base != nil {
			r.Ratio = ratioOf(nsOf(base.Samples), nsOf(ss))
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
