package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/gohal/gohal/lab/suite"
)

// Answers: the questions of suite.Questions, each judged by the report's
// one rule (fastest, advice.go) on every workload at every goroutine
// count measured. The report, peers and results answer through judge, and
// tune's kit questions (tunekit.go) apply the same rule to the same
// questions and suite bodies, so one question on one machine gets one
// answer, or a tie, whichever command asks it.

// answer is one question's verdict on one workload at one goroutine count.
type answer struct {
	Workload string       `json:"workload"`
	Threads  int          `json:"threads"`
	Result   adviceResult `json:"result"`
	// Use is what to use here: the winner, or the contestant tied with
	// the standard choice (Tie), or the fastest of several tied types
	// that all beat the standard choice (Tied names the others).
	Use string `json:"use"`
	// Instead is the standard choice, or, when the standard choice
	// wins, the best other contestant.
	Instead string   `json:"instead_of"`
	Tie     bool     `json:"tie"`
	Tied    []string `json:"tied,omitempty"`
	// Ratio is Use's ns/op over Instead's, with its interval.
	Ratio ratioJSON `json:"ratio"`
}

// decision is the answer in a word: what to use, or "tie".
func (a *answer) decision() string {
	switch {
	case a == nil || a.Result.Verdict == verdictNone:
		return "no verdict"
	case a.Tie:
		return "tie"
	}
	return a.Use
}

// judge applies the rule to one workload of q at one goroutine count; ns
// gives a contestant's ns/op samples (nil when not measured). It returns
// nil when the standard choice or every other contestant is missing.
func judge(q suite.Question, w suite.Workload, threads int, ns func(suite.Contestant) []float64) *answer {
	var cands []candidate
	for i, c := range q.Contestants {
		if xs := ns(c); len(xs) > 0 {
			cands = append(cands, candidate{c.Name, xs})
		} else if i == 0 {
			return nil
		}
	}
	if len(cands) < 2 {
		return nil
	}
	a := &answer{Workload: w.Name, Threads: threads, Result: fastest(cands)}
	std := cands[0]
	byName := func(name string) candidate {
		i := slices.IndexFunc(cands, func(c candidate) bool { return c.Name == name })
		return cands[i]
	}
	// fastestOf is the candidate of lowest median among names.
	fastestOf := func(names []string) candidate {
		var best candidate
		for _, n := range names {
			if c := byName(n); best.NS == nil || median(c.NS) < median(best.NS) {
				best = c
			}
		}
		return best
	}
	others := func(except string) []string {
		var out, all []string
		for _, c := range cands {
			if c.Name != except {
				all = append(all, c.Name)
				if !slices.Contains(a.Result.NoVerdict, c.Name) {
					out = append(out, c.Name)
				}
			}
		}
		if len(out) == 0 {
			return all
		}
		return out
	}
	var use, instead candidate
	switch best := a.Result.Best; {
	case a.Result.Verdict == verdictNone:
		use, instead = fastestOf(others(std.Name)), std
	case slices.Contains(best, std.Name) && len(best) > 1:
		a.Tie = true
		use, instead = fastestOf(slices.DeleteFunc(slices.Clone(best), func(s string) bool { return s == std.Name })), std
	case slices.Contains(best, std.Name):
		use, instead = std, fastestOf(others(std.Name))
	default:
		use, instead = fastestOf(best), std
		a.Tied = slices.DeleteFunc(slices.Clone(best), func(s string) bool { return s == use.Name })
	}
	a.Use, a.Instead = use.Name, instead.Name
	if use.NS != nil && instead.NS != nil {
		rc := compareRatio(instead.NS, use.NS, confidence/100.0)
		a.Ratio = ratioJSON{jnum(rc.Ratio), jnum(rc.Lo), jnum(rc.Hi), rc.Significant}
	} else {
		a.Ratio = ratioJSON{jnum(math.NaN()), jnum(math.NaN()), jnum(math.NaN()), false}
	}
	return a
}

// questionAnswer is one question's answers, the headline first.
type questionAnswer struct {
	Key string `json:"key"`
	Ask string `json:"question"`
	// Headline is the first workload at the most goroutines measured.
	Headline *answer `json:"headline"`
	// Depends says where the answer differs from the headline's.
	Depends string    `json:"depends_on,omitempty"`
	All     []*answer `json:"answers"`
}

// answerQuestions judges every question on every workload at every
// goroutine count in threads, in order; samples gives the ns/op samples
// of a contestant on a workload at a goroutine count (nil: not measured).
// A question with no answer at all is left out.
func answerQuestions(threads []int, samples func(q suite.Question, w suite.Workload, c suite.Contestant, threads int) []float64) []*questionAnswer {
	var out []*questionAnswer
	for _, q := range suite.Questions() {
		qa := &questionAnswer{Key: q.Key, Ask: q.Ask}
		for _, w := range q.Workloads {
			ts := threads
			if w.Single {
				ts = []int{1}
			}
			for _, t := range ts {
				a := judge(q, w, t, func(c suite.Contestant) []float64 { return samples(q, w, c, t) })
				if a == nil {
					continue
				}
				qa.All = append(qa.All, a)
				if qa.Headline == nil || (a.Workload == qa.Headline.Workload && a.Threads > qa.Headline.Threads) {
					qa.Headline = a
				}
			}
		}
		if qa.Headline == nil {
			continue
		}
		qa.Depends = dependsOn(qa)
		out = append(out, qa)
	}
	return out
}

// dependsOn names the workloads and goroutine counts whose answer differs
// from the headline's, grouped by answer: "1 % writes, 10 % writes →
// sync.RWMutex; 1 goroutine → tie". Another workload counts at its most
// goroutines, as the headline does.
func dependsOn(qa *questionAnswer) string {
	h := qa.Headline
	var order []string
	conds := map[string][]string{}
	add := func(d, cond string) {
		if d == h.decision() || slices.Contains(conds[d], cond) {
			return
		}
		if conds[d] == nil {
			order = append(order, d)
		}
		conds[d] = append(conds[d], cond)
	}
	for i, a := range qa.All {
		last := i+1 == len(qa.All) || qa.All[i+1].Workload != a.Workload
		switch {
		case a.Workload == h.Workload:
			add(a.decision(), fmt.Sprintf("%d %s", a.Threads, goroutines(a.Threads)))
		case last:
			add(a.decision(), a.Workload)
		}
	}
	var parts []string
	for _, d := range order {
		parts = append(parts, strings.Join(conds[d], ", ")+" → "+d)
	}
	return strings.Join(parts, "; ")
}

func goroutines(n int) string {
	if n == 1 {
		return "goroutine"
	}
	return "goroutines"
}

// ratioCellTie is ratioCell with "tie" for "~".
func ratioCellTie(r ratioJSON) string {
	return strings.Replace(ratioCell(r), " ~", " tie", 1)
}

// ratioCellPlain is ratioCell without the "~", for the answer table,
// whose "use here" column names a tie.
func ratioCellPlain(r ratioJSON) string {
	return strings.TrimSuffix(ratioCell(r), " ~")
}

// useCell is the "use here" cell: the type, "tie: X" (X ties with the
// standard choice) or "X +N tied" (X ties with N more types, all faster
// than the standard choice).
func (a *answer) useCell() string {
	switch {
	case a.Result.Verdict == verdictNone:
		return "no verdict"
	case a.Tie:
		return "tie: " + a.Use
	case len(a.Tied) > 0:
		return fmt.Sprintf("%s +%d tied", a.Use, len(a.Tied))
	}
	return a.Use
}

// answerWidth is the widest line the answer table may print.
const answerWidth = 120

// writeAnswers prints the answer table: a row per question, the depends
// column wrapped into lines of its own under the row so that no line is
// wider than answerWidth.
func writeAnswers(w io.Writer, qas []*questionAnswer) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "question\tuse here\tinstead of\tratio [95 % interval]\tgoroutines\tdepends on")
	for _, qa := range qas {
		h := qa.Headline
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t\x00\n", qa.Ask, h.useCell(), h.Instead, ratioCellPlain(h.Ratio), h.Threads)
	}
	tw.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	// Wrapped depends lines start at the second column.
	indent := strings.Repeat(" ", utf8.RuneCountInString(strings.SplitAfter(lines[0], "use here")[0])-len("use here"))
	for i, line := range lines {
		if i == 0 {
			// The header's last column goes under it, as a row's
			// depends does, when the other columns leave it no room.
			line = strings.TrimRight(line, " ")
			if head, ok := strings.CutSuffix(line, "depends on"); ok && utf8.RuneCountInString(line) > answerWidth {
				fmt.Fprintln(w, strings.TrimRight(head, " "))
				line = indent + "depends on"
			}
			fmt.Fprintln(w, line)
			continue
		}
		prefix, _, _ := strings.Cut(line, "\x00")
		dep := qas[i-1].Depends
		if dep == "" {
			dep = "-"
		}
		// The rest of the line first, then lines under the row from
		// its second column, so that none is wider than answerWidth.
		col := utf8.RuneCountInString(prefix)
		line, empty := prefix, true
		// Break only after a comma or semicolon, so that a phrase ("4
		// goroutines → tie;") is never split.
		for rest := dep; rest != ""; {
			word := rest
			if k := strings.IndexAny(rest, ",;"); k >= 0 {
				word = rest[:k+1]
			}
			rest = strings.TrimSpace(rest[len(word):])
			n := utf8.RuneCountInString(word)
			switch {
			case col+1+n > answerWidth:
				fmt.Fprintln(w, strings.TrimRight(line, " "))
				line, col = indent+word, len(indent)+n
			case !empty:
				line, col = line+" "+word, col+1+n
			default:
				line, col = line+word, col+n
			}
			empty = false
		}
		fmt.Fprintln(w, line)
	}
}

// answerLegend explains the answer table, in lines under 80 columns.
var answerLegend = []string{
	"ratio: use here's ns/op over instead of's, with its 95 % " + ruleName + ";",
	"an interval holding 1 is a tie, named as one. These figures move with load:",
	"other work on the machine widens intervals and can turn a verdict into a tie or back,",
	"so a verdict holds for this machine as loaded now; rerun (or -full) before trusting one.",
}

// writeAnswerDetails prints, under title, every answer: each question on
// each workload at each goroutine count.
func writeAnswerDetails(w io.Writer, title string, qas []*questionAnswer) {
	fmt.Fprintln(w, title)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "question\tworkload\tgoroutines\tuse here\tinstead of\tratio [95 % interval]")
	for _, qa := range qas {
		for _, a := range qa.All {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", qa.Ask, a.Workload, a.Threads, a.useCell(), a.Instead, ratioCellTie(a.Ratio))
		}
	}
	tw.Flush()
}

// writeAnswersMarkdown prints every answer as a Markdown table, for the
// results file.
func writeAnswersMarkdown(w io.Writer, qas []*questionAnswer) {
	fmt.Fprintln(w, "| question | workload | goroutines | use here | instead of | ratio [95 % interval] |")
	fmt.Fprintln(w, "| --- | --- | ---: | --- | --- | --- |")
	for _, qa := range qas {
		for _, a := range qa.All {
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s |\n", qa.Ask, a.Workload, a.Threads, a.useCell(), a.Instead, ratioCellTie(a.Ratio))
		}
	}
}
