package main

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
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

// ratioCI is the ratio of the median of other to the median of base with
// a bootstrap confidence interval.
type ratioCI struct {
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// Significant reports that the interval excludes 1.
	Significant bool `json:"significant"`
}

// bootstrapResamples is the number of bootstrap resamples behind every
// ratio's interval.
const bootstrapResamples = 2000

// ratioOfMedians returns median(other)/median(base) and its percentile
// bootstrap confidence interval at the given level: both samples are
// resampled with replacement, independently, bootstrapResamples times,
// and the interval runs between the (1−level)/2 and (1+level)/2 quantiles
// of the resampled ratios. We bootstrap the ratio of medians rather than
// use Fieller's or the log-t interval because those are about means and
// assume normal data, while benchmark samples on a shared machine are
// skewed by the odd descheduled run, and the medians are what the table
// prints. The generator is seeded from seed (the samples' names), so a
// report is reproducible from its samples.
func ratioOfMedians(base, other []float64, level float64, seed string) ratioCI {
	r, _ := bootstrapMedians(base, other, level, seed)
	return r
}

// diffCI is the difference median(other) − median(base) with a bootstrap
// confidence interval.
type diffCI struct {
	Diff, Lo, Hi float64
	// Significant reports that the interval excludes 0.
	Significant bool
}

// diffOfMedians is ratioOfMedians for the difference of the medians,
// from the same resamples.
func diffOfMedians(base, other []float64, level float64, seed string) diffCI {
	_, d := bootstrapMedians(base, other, level, seed)
	return d
}

func bootstrapMedians(base, other []float64, level float64, seed string) (ratioCI, diffCI) {
	mb, mo := median(base), median(other)
	r := ratioCI{Ratio: mo / mb, Lo: math.NaN(), Hi: math.NaN()}
	d := diffCI{Diff: mo - mb, Lo: math.NaN(), Hi: math.NaN()}
	if len(base) < 2 || len(other) < 2 {
		return r, d
	}
	h := fnv.New64a()
	h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	ratios := make([]float64, bootstrapResamples)
	diffs := make([]float64, bootstrapResamples)
	rb := make([]float64, len(base))
	ro := make([]float64, len(other))
	for i := range ratios {
		for j := range rb {
			rb[j] = base[rng.IntN(len(base))]
		}
		for j := range ro {
			ro[j] = other[rng.IntN(len(other))]
		}
		b, o := median(rb), median(ro)
		ratios[i], diffs[i] = o/b, o-b
	}
	slices.Sort(ratios)
	slices.Sort(diffs)
	r.Lo, r.Hi = quantile(ratios, (1-level)/2), quantile(ratios, (1+level)/2)
	r.Significant = r.Lo > 1 || r.Hi < 1
	d.Lo, d.Hi = quantile(diffs, (1-level)/2), quantile(diffs, (1+level)/2)
	d.Significant = d.Lo > 0 || d.Hi < 0
	return r, d
}

// quantile returns the q-quantile of the sorted values s by linear
// interpolation between order statistics.
func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	f := pos - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}
