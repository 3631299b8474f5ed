package main

import (
	"fmt"
	"slices"
	"strings"
)

// Advice: which of several candidates to use for one job on this machine,
// by the report's one rule (signif.go). tune's kit questions and the
// report's verdict both use it, so they cannot disagree.
//
// A candidate is "significantly faster" than another when the rule's 95%
// interval of their ratio of ns/op lies wholly on one side of 1. The best
// set is the candidates no other one is significantly faster than: every
// candidate outside it is significantly slower than some other. When that
// leaves one candidate, the ones it is not significantly faster than join
// it. A best set of one is a win: that candidate is significantly faster
// than every other. More than one is a tie, and it is named as a tie:
// nobody is told to use X when the rule cannot tell X from Y.

// candidate is one contestant's ns/op samples.
type candidate struct {
	Name string
	NS   []float64
}

// adviceResult is the answer for one question.
type adviceResult struct {
	// Verdict is "win" (Best holds the one candidate significantly faster
	// than every other), "tie" (Best holds the candidates the rule cannot
	// separate, every other one significantly slower than one of them) or
	// "none" (too few samples, or the comparisons contradict each other).
	Verdict string `json:"verdict"`
	// Best is the winner or the tied candidates, in the given order.
	Best []string `json:"best"`
	// NoVerdict names candidates with too few samples to compare.
	NoVerdict []string `json:"no_verdict,omitempty"`
}

// Verdicts of an adviceResult.
const (
	verdictWin  = "win"
	verdictTie  = "tie"
	verdictNone = "none"
)

// fasterThan reports whether a is significantly faster than b by the
// report's rule.
func fasterThan(a, b []float64) bool {
	rc := compareRatio(a, b, confidence/100.0) // b/a
	return rc.Significant && rc.Ratio > 1
}

// fastest applies the rule to cands.
func fastest(cands []candidate) adviceResult {
	var ok []candidate
	var res adviceResult
	for _, c := range cands {
		if len(c.NS) < minRuleSamples {
			res.NoVerdict = append(res.NoVerdict, c.Name)
			continue
		}
		ok = append(ok, c)
	}
	if len(ok) == 0 {
		res.Verdict = verdictNone
		return res
	}
	n := len(ok)
	faster := make([][]bool, n) // faster[i][j]: i significantly faster than j
	for i := range ok {
		faster[i] = make([]bool, n)
		for j := range ok {
			faster[i][j] = i != j && fasterThan(ok[i].NS, ok[j].NS)
		}
	}
	var undominated []int
	for j := range ok {
		dominated := false
		for i := range ok {
			dominated = dominated || faster[i][j]
		}
		if !dominated {
			undominated = append(undominated, j)
		}
	}
	if len(undominated) == 0 { // a cycle: no honest answer
		res.Verdict = verdictNone
		return res
	}
	for j := range ok {
		if slices.Contains(undominated, j) || (len(undominated) == 1 && !faster[undominated[0]][j]) {
			res.Best = append(res.Best, ok[j].Name)
		}
	}
	res.Verdict = verdictTie
	if len(res.Best) == 1 {
		res.Verdict = verdictWin
	}
	return res
}

// adviceText says what the result advises for job, naming baseline (the
// standard library's choice) when it is among the best: "use X for job",
// "keep sync.Mutex for job: tied with X, Y", "use any of X, Y for job: a
// tie".
func adviceText(r adviceResult, job, baseline string) string {
	var s string
	switch r.Verdict {
	case verdictWin:
		s = fmt.Sprintf("use %s for %s: significantly faster than every other candidate", r.Best[0], job)
	case verdictTie:
		inBest := false
		var others []string
		for _, b := range r.Best {
			if b == baseline {
				inBest = true
			} else {
				others = append(others, b)
			}
		}
		if inBest {
			s = fmt.Sprintf("keep %s for %s: a tie with %s (no significant difference by the rule)", baseline, job, strings.Join(others, ", "))
		} else {
			s = fmt.Sprintf("use any of %s for %s: a tie (no significant difference by the rule); %s is significantly slower than one of them", strings.Join(r.Best, ", "), job, baseline)
			if baseline == "" {
				s = fmt.Sprintf("use any of %s for %s: a tie (no significant difference by the rule)", strings.Join(r.Best, ", "), job)
			}
		}
	default:
		s = fmt.Sprintf("no advice for %s: too few samples or contradictory comparisons", job)
	}
	if len(r.NoVerdict) > 0 {
		s += fmt.Sprintf(" (%s not compared: fewer than %d samples)", strings.Join(r.NoVerdict, ", "), minRuleSamples)
	}
	return s
}
