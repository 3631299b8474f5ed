// Package ministat is a faithful Go reimplementation of the statistics and
// the output block of FreeBSD's ministat(1).
//
// It follows ministat as packaged by Debian (ministat 20150715): the ASCII
// distribution plot, the N/Min/Max/Median/Avg/Stddev table and the
// two-sample Student's t test with pooled variance.
//
// The arithmetic follows ministat step by step so that the printed numbers
// are the same digits ministat prints:
//
//   - the mean and variance come from running sums Σy and Σy² accumulated in
//     input order (Var = (Σy² − (Σy)²/n)/(n−1)); rounding can make that
//     variance slightly negative for constant samples, in which case the
//     standard deviation is NaN and prints as "-nan", exactly like ministat;
//   - the median is the upper middle value of the sorted sample
//     (sorted[n/2]), not the average of the two middle values;
//   - the t critical values are gonum's quantiles at ministat's table
//     probabilities, rounded to three decimals as ministat's table is, with
//     the normal quantile (ministat's "∞" row) for more than 100 degrees of
//     freedom. See TQuantile.
package ministat

import (
	"fmt"
	"math"
	"slices"
)

// MinSamples is the smallest sample size ministat accepts.
const MinSamples = 3

// Sample is one named data set: a file's column of numbers or one benchmark's
// measurements.
type Sample struct {
	// Name labels the sample in the plot legend ("x old.txt").
	Name string
	// Values holds the observations in input order. The order matters
	// only in the last bits of the mean and variance, which ministat
	// accumulates in input order too.
	Values []float64
}

// Stats holds the summary statistics of a Sample, computed as ministat
// computes them.
type Stats struct {
	// N is the number of values.
	N int
	// Min, Max and Median (the upper middle value) come from Sorted.
	Min, Max, Median float64
	// Mean is Σy/n; Var is (Σy² − (Σy)²/n)/(n−1), possibly a tiny
	// negative number; Stddev is √Var, NaN when Var < 0.
	Mean, Var, Stddev float64
	// Sorted is a copy of the sample's values in the order ministat's
	// qsort(3) leaves them: ascending, equal values (−0 and 0) in input
	// order, NaNs where glibc's merge sort puts them.
	Sorted []float64
}

// Stats computes every summary statistic in one pass over a sorted copy.
func (s Sample) Stats() Stats {
	n := len(s.Values)
	st := Stats{N: n}
	if n == 0 {
		nan := math.NaN()
		st.Min, st.Max, st.Median, st.Mean, st.Var, st.Stddev = nan, nan, nan, nan, nan, nan
		return st
	}
	// Every operation goes through sse (nan.go), so that a NaN has the
	// sign x86 gives it on every GOARCH. The explicit conversions forbid
	// fusing a multiply and an add into an FMA, which ministat (plain
	// SSE2 code) never does.
	var sy, syy float64
	for _, v := range s.Values {
		sy = sse(sy+v, sy, v)
		vv := sse(float64(v*v), v)
		// ministat's AddPoint compiles to "addsd syy, vv": vv is the
		// first operand, whose NaN wins when both are NaNs.
		syy = sse(float64(vv+syy), vv, syy)
	}
	fn := float64(n)
	st.Sorted = slices.Clone(s.Values)
	qsort(st.Sorted) // ministat's order of equal values (−0, 0) and NaNs
	st.Min = st.Sorted[0]
	st.Max = st.Sorted[n-1]
	st.Median = st.Sorted[n/2]
	st.Mean = sse(sy/fn, sy)
	sq := sse(float64(sy*sy), sy)
	q := sse(sq/fn, sq)
	d := sse(syy-q, syy, q)
	st.Var = sse(d/(fn-1.0), d)
	st.Stddev = sse(math.Sqrt(st.Var), st.Var)
	return st
}

// check reports whether the sample is big enough for ministat.
func (s Sample) check() error {
	if len(s.Values) < MinSamples {
		return fmt.Errorf("ministat: sample %q has %d values; at least %d are needed", s.Name, len(s.Values), MinSamples)
	}
	return nil
}
