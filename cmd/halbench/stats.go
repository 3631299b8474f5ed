package main

import (
	"math"
	"slices"
)

// median returns the median of xs: the middle value, or the mean of the
// two middle values for an even count (benchstat's median; ministat's
// blocks print ministat's own, the upper middle value). NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianCI returns a distribution-free confidence interval for the median
// of xs at the given level (e.g. 0.95), from order statistics, as
// benchstat computes it: the widest interval [x(k), x(n+1-k)] whose
// coverage, from the binomial distribution with p = 1/2, is at least the
// level. ok is false when the sample is too small for any such interval
// (fewer than 6 values at 95%).
func medianCI(xs []float64, level float64) (lo, hi float64, ok bool) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	alpha := (1 - level) / 2
	// cdf accumulates P(B ≤ j) for B ~ Binomial(n, 1/2).
	cdf, pj := 0.0, math.Pow(0.5, float64(n))
	k := 0
	for j := 0; j < n/2; j++ {
		cdf += pj
		if cdf > alpha {
			break
		}
		k = j + 1 // P(B ≤ j) ≤ alpha: x(j+1) can be the lower end
		pj *= float64(n-j) / float64(j+1)
	}
	if k == 0 {
		return s[0], s[n-1], false
	}
	return s[k-1], s[n-k], true
}
