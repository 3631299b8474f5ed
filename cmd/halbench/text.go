package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gohal/gohal/lab/cyclebench"
)

// writeText prints the report for people: the answers first (one
// screen), then the machine, the answers by workload and a table per
// section.
func writeText(w io.Writer, r *report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "halbench: what to use on this machine (%s, %s/%s, %d CPUs, %s)\n\n", r.brand(), r.GOOS, r.GOARCH, r.NumCPU, r.GoVersion)
	if len(r.Answers) == 0 {
		fmt.Fprintln(bw, "No question answered: -filter or -threads left out every contestant's benchmarks.")
	} else {
		writeAnswers(bw, r.Answers)
	}
	fmt.Fprintln(bw)
	for _, l := range answerLegend {
		fmt.Fprintln(bw, l)
	}
	fmt.Fprintf(bw, "The details follow: the machine, every workload's answer, each section's table.\n\n")
	fmt.Fprintf(bw, "halbench: %s %s/%s, GOMAXPROCS %d, %d CPUs; %s run: %d samples of %s per benchmark, interleaved after a warm-up; %v%% confidence\n",
		r.GoVersion, r.GOOS, r.GOARCH, r.GOMAXPROCS, r.NumCPU, r.Mode, r.Count, r.SampleTime, r.Confidence)
	fmt.Fprintf(bw, "Significant, everywhere below: the %v%% %s of the ratio (or difference) excludes 1 (0);\nexact for any sample count, no verdict with fewer than %d samples per side.\n\n", r.Confidence, ruleName, minRuleSamples)
	writeFeatures(bw, r.Machine)
	if len(r.Answers) > 0 {
		bw.WriteString("\n")
		writeAnswerDetails(bw, "== Answers by workload (the rule above; the questions are suite.Questions) ==", r.Answers)
	}
	for _, s := range r.Sections {
		bw.WriteString("\n")
		writeSection(bw, s)
	}
	fmt.Fprintf(bw, "\n(%d benchmarks measured in %.0f s.)\n", len(r.byName), r.Elapsed)
	return bw.Flush()
}

// writeSection prints one section's table and legend. Rows keep the
// registration order; a blank line separates rows of different baselines.
func writeSection(w io.Writer, s sectionReport) {
	fmt.Fprintf(w, "== %s ==\n", s.Title)
	if s.Doc != "" {
		wrap(w, s.Doc, 78)
	}
	// Extra metric columns: every metric some row reported besides
	// cycles/op.
	var extra []string
	seen := map[string]bool{}
	for _, b := range s.Benchmarks {
		for _, u := range slices.Sorted(maps.Keys(b.Metrics)) {
			if !seen[u] {
				seen[u] = true
				extra = append(extra, u)
			}
		}
	}
	names := make([]string, len(s.Benchmarks))
	nameW := len("benchmark")
	for i, b := range s.Benchmarks {
		names[i] = strings.TrimPrefix(b.Name, s.Name+"/")
		nameW = max(nameW, len(names[i]))
	}
	header := fmt.Sprintf("%-*s  %9s %7s  %9s", nameW, "benchmark", "ns/op", "±", "cycles/op")
	for _, u := range extra {
		header += fmt.Sprintf("  %*s", max(9, len(u)), u)
	}
	header += "  vs baseline"
	fmt.Fprintf(w, "\n%s\n", header)
	cut, maxed := false, false
	for i, b := range s.Benchmarks {
		if i > 0 && b.Baseline != s.Benchmarks[i-1].Baseline {
			fmt.Fprintln(w)
		}
		line := fmt.Sprintf("%-*s  %9s %7s  %9s", nameW, names[i], num(float64(b.NsPerOp.Median)),
			spread(b.NsPerOp), num(float64(b.CyclesPerOp.Median)))
		for _, u := range extra {
			v := "-"
			if m, ok := b.Metrics[u]; ok {
				v = num(float64(m.Median))
				if u == cyclebench.FairnessUnit && atFairnessMax(float64(m.Median), b.Threads) {
					v += "*"
					maxed = true
				}
			}
			line += fmt.Sprintf("  %*s", max(9, len(u)), v)
		}
		switch {
		case b.Baseline == b.Name:
			line += "  baseline"
		case b.Ratio == nil:
			line += "  (baseline not run)"
		default:
			line += "  " + ratioCell(*b.Ratio)
		}
		if k := b.truncated(); k > 0 {
			line += fmt.Sprintf("  (%d cut short)", k)
			cut = true
		}
		fmt.Fprintln(w, line)
	}
	if len(s.Legends) > 0 {
		fmt.Fprintln(w)
		keyW := 0
		for _, l := range s.Legends {
			keyW = max(keyW, utf8.RuneCountInString(l.Key))
		}
		for _, l := range s.Legends {
			fmt.Fprintf(w, "  %-*s  %s\n", keyW, l.Key, l.Text)
		}
	}
	fmt.Fprintf(w, "\n  ± is the %v%% interval of the median ns/op, as a percentage of it; vs baseline\n", confidence)
	fmt.Fprintf(w, "  is the ratio to the baseline's ns/op (median of the pairwise ratios) and its %v%%\n", confidence)
	fmt.Fprintf(w, "  %s; ~ marks an interval holding 1: no difference proven.\n", ruleName)
	if seen[cyclebench.FairnessUnit] {
		for _, l := range fairnessLegend(maxed) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if cut {
		fmt.Fprintf(w, "  Cut short: samples that hit the run cap (a FIFO-lock convoy, typical when other\n")
		fmt.Fprintf(w, "  work shares the CPUs); their ns/op is over the operations done.\n")
	}
}

// atFairnessMax reports that a fairness figure is the largest possible
// for k goroutines (within rounding): one goroutine did its whole share
// before any other completed an operation.
func atFairnessMax(v float64, k int) bool {
	return k > 1 && v >= 0.99*cyclebench.MaxRelStddev(k)
}

// fairnessLegend explains the fairness column; maxed adds the footnote
// for cells marked with *.
func fairnessLegend(maxed bool) []string {
	ls := []string{
		cyclebench.FairnessUnit + ": spread of the goroutines' progress when the first finished its",
		"  share (population stddev as % of the mean): 0 = all equal; 100·√(k−1) (100, 173, 265",
		"  at 2, 4, 8 goroutines) = one goroutine did everything. It depends on how long a share",
		"  lasts, not only on the lock: a lock the releasing goroutine can take again at once",
		"  (TAS, TTAS, sync.Mutex until a waiter has waited 1 ms) gives one goroutine everything",
		"  over a short share, and with more goroutines than free CPUs it shows who got scheduled.",
		"  Not stable with short samples (the default run shrinks them to fit a minute) or busy",
		"  CPUs; compare it only between runs of one -benchtime, and use -full (100 ms samples).",
	}
	if maxed {
		ls = append(ls, "* the maximum: one goroutine did its whole share before any other finished one operation.")
	}
	return ls
}

// spread is the half width of the median's interval as a percentage of
// the median: "±3%", or "" when there are too few samples.
func spread(s summary) string {
	m, lo, hi := float64(s.Median), float64(s.Lo), float64(s.Hi)
	if math.IsNaN(lo) || m == 0 {
		return ""
	}
	pct := math.Max(hi-m, m-lo) / m * 100
	if pct > 999 {
		return "±>999%"
	}
	return fmt.Sprintf("±%.0f%%", pct)
}

// ratioCell is "1.08× [1.05, 1.11]" with "~" appended when the interval
// holds 1.
func ratioCell(r ratioJSON) string {
	if math.IsNaN(float64(r.Lo)) {
		return fmt.Sprintf("%.2f× (too few samples)", float64(r.Ratio))
	}
	s := fmt.Sprintf("%.2f× [%.2f, %.2f]", float64(r.Ratio), float64(r.Lo), float64(r.Hi))
	if !r.Significant {
		s += " ~"
	}
	return s
}

// wrap prints text wrapped at width columns.
func wrap(w io.Writer, text string, width int) {
	col := 0
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		if col > 0 && col+1+n > width {
			fmt.Fprintln(w)
			col = 0
		}
		if col > 0 {
			io.WriteString(w, " ")
			col++
		}
		io.WriteString(w, word)
		col += n
	}
	if col > 0 {
		fmt.Fprintln(w)
	}
}

// num formats a measurement with three significant digits.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}
