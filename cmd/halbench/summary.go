package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/ministat"
)

// writeSummary prints compare's summary of Go benchmark files: per package
// and unit, in order of first appearance, a table with one row per
// benchmark of common (the series present in every file): its median in
// each file and, for every file after the first, the ratio of its values
// to the first file's with the interval and verdict of the report's one
// rule (compareRatio: the Hodges–Lehmann ratio and the Mann–Whitney
// interval, at the -c level). -n (statistics only) leaves out the ratios.
func writeSummary(w io.Writer, files []*benchfile.File, common []seriesKey, opts ministat.Options) error {
	level := opts.Confidence
	if level == 0 {
		level = confidence
	}
	compare := len(files) > 1 && !opts.StatsOnly
	for i, f := range files {
		fmt.Fprintf(w, "%c %s\n", ministat.Symbol(i), f.Path)
	}
	if compare {
		fmt.Fprintf(w, "Medians, and each file against x: the ratio (Hodges–Lehmann) with its %v%% Mann–Whitney\n", level)
		fmt.Fprintf(w, "interval and the verdict, significant when the interval excludes 1 (~: no difference proven;\nno verdict with fewer than %d samples per side). -v adds ministat's report per row.\n", minRuleSamples)
	} else {
		fmt.Fprintf(w, "Medians. -v adds ministat's report per row.\n")
	}
	type group struct {
		pkg, unit string
		rows      []seriesKey
	}
	var groups []*group
	index := map[[2]string]*group{}
	for _, k := range common {
		g := groupOf(index, &groups, [2]string{k.pkg, k.unit}, func() *group { return &group{pkg: k.pkg, unit: k.unit} })
		g.rows = append(g.rows, k)
	}
	better := betterOf(files)
	for gi, g := range groups {
		fmt.Fprintln(w)
		if g.pkg != "" && (gi == 0 || groups[gi-1].pkg != g.pkg) {
			fmt.Fprintf(w, "pkg: %s\n", g.pkg)
		}
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprint(tw, g.unit)
		for i := range files {
			fmt.Fprintf(tw, "\t%c", ministat.Symbol(i))
		}
		if compare {
			for i := 1; i < len(files); i++ {
				fmt.Fprintf(tw, "\t%c/x\tverdict", ministat.Symbol(i))
			}
		}
		fmt.Fprintln(tw)
		for _, k := range g.rows {
			values := make([][]float64, len(files))
			fmt.Fprint(tw, k.name)
			for i, f := range files {
				values[i] = f.Bench.Lookup(k.pkg, k.name, k.unit).Values
				fmt.Fprintf(tw, "\t%.4g", median(values[i]))
			}
			if compare {
				for i := 1; i < len(files); i++ {
					r := compareRatio(values[0], values[i], level/100)
					cell, verdict := summaryVerdict(r, k.unit, better[k.unit])
					fmt.Fprintf(tw, "\t%s\t%s", cell, verdict)
				}
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// groupOf returns the group of key in index, made by mk and appended to
// *groups in order of first appearance if it is new.
func groupOf[K comparable, G any](index map[K]*G, groups *[]*G, key K, mk func() *G) *G {
	g := index[key]
	if g == nil {
		g = mk()
		index[key] = g
		*groups = append(*groups, g)
	}
	return g
}

// betterOf returns, per unit, which direction is better: "lower" or
// "higher" as the files' Unit lines say, else "lower" for the costs Go
// benchmarks and halbench report (time, cycles, memory, allocations).
func betterOf(files []*benchfile.File) map[string]string {
	out := map[string]string{}
	for _, u := range append(betterLower, "B/op", "allocs/op") {
		out[u] = "lower"
	}
	for _, f := range files {
		for _, u := range f.Bench.Units {
			if u.Better == "lower" || u.Better == "higher" {
				out[u.Unit] = u.Better
			}
		}
	}
	return out
}

// summaryVerdict returns the ratio cell ("1.08× [1.05, 1.11]") and the
// verdict of r by the report's rule: for a time ("ns/op", cycles/op)
// faster or slower, for another unit whose better direction is known
// better or worse, else higher or lower; "~" when the interval holds 1;
// "no verdict" when there is no interval (too few samples, or values that
// are not positive).
func summaryVerdict(r ratioCI, unit, better string) (cell, verdict string) {
	if math.IsNaN(r.Lo) {
		if math.IsNaN(r.Ratio) {
			return "–", "no verdict (values not all positive)"
		}
		return fmt.Sprintf("%.3f×", r.Ratio), fmt.Sprintf("no verdict (fewer than %d samples)", minRuleSamples)
	}
	cell = fmt.Sprintf("%.3f× [%.3f, %.3f]", r.Ratio, r.Lo, r.Hi)
	if !r.Significant {
		return cell, "~"
	}
	up := r.Ratio > 1
	pct := fmt.Sprintf("%+.1f%%", (r.Ratio-1)*100)
	switch {
	case unit == "ns/op" || unit == cyclebench.CyclesUnit || strings.HasSuffix(unit, "sec/op"):
		verdict = map[bool]string{true: "slower", false: "faster"}[up]
	case better == "lower":
		verdict = map[bool]string{true: "worse", false: "better"}[up]
	case better == "higher":
		verdict = map[bool]string{true: "better", false: "worse"}[up]
	default:
		verdict = map[bool]string{true: "higher", false: "lower"}[up]
	}
	return cell, pct + " " + verdict
}
