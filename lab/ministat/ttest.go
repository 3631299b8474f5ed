package ministat

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidences lists the confidence levels ministat supports, in percent.
//
// As in ministat, the level 99.5 uses the t quantile at probability 0.999,
// which is a two-sided 99.8% interval: ministat's table column labelled 99.5
// holds those values (318.313 for df=1, 3.090 for ∞), and this package
// reproduces ministat's numbers rather than the label.
var Confidences = []float64{80, 90, 95, 98, 99, 99.5}

// tableProb gives, for each entry of Confidences, the cumulative probability
// whose Student's t quantile ministat's table lists in that column. The
// first five are the two-sided levels (1+c)/2. The "99.5" column is not the
// 0.9975 quantile but the 0.999 one (df=1: 318.313, ∞: 3.090), i.e. a
// two-sided 99.8% interval; it is kept so that the numbers match ministat.
var tableProb = []float64{0.90, 0.95, 0.975, 0.99, 0.995, 0.999}

// tableMaxDF is the last degrees-of-freedom row of ministat's table; beyond
// it ministat uses its "∞" row, the normal quantile.
const tableMaxDF = 100

// ConfidenceError reports an unsupported confidence level.
type ConfidenceError struct {
	Confidence float64
}

// Error lists the supported levels.
func (e *ConfidenceError) Error() string {
	return "confidence must be one of " + confidenceList()
}

func confidenceList() string {
	s := make([]string, len(Confidences))
	for i, c := range Confidences {
		s[i] = fmt.Sprint(c)
	}
	return strings.Join(s, ", ")
}

// confIndex returns the index of c in Confidences.
func confIndex(c float64) (int, error) {
	for i, v := range Confidences {
		if c == v {
			return i, nil
		}
	}
	return -1, &ConfidenceError{Confidence: c}
}

// CheckConfidence returns a *ConfidenceError unless c is one of Confidences.
func CheckConfidence(c float64) error {
	_, err := confIndex(c)
	return err
}

// TQuantile returns the critical value of Student's t that ministat uses for
// a two-sided test at the given confidence (one of Confidences) with df
// degrees of freedom.
//
// The value comes from gonum: distuv.StudentsT's quantile for df ≤ 100 and
// distuv.Normal's quantile (ministat's "∞" row) for df > 100, taken at the
// probability of ministat's table column and rounded to three decimals, the
// precision of ministat's table. The result equals ministat's table entry
// everywhere except seven misprints in its 99.5 column (df 1 and 7–12, off
// by 0.001 to 0.003; the table has 4.782 for df=7 where the quantile is
// 4.785). Note that ministat's 99.5 column holds the 0.999 quantile; see
// Confidences.
func TQuantile(confidence float64, df int) (float64, error) {
	i, err := confIndex(confidence)
	if err != nil {
		return 0, err
	}
	if df < 1 {
		return 0, fmt.Errorf("ministat: %d degrees of freedom; need at least 1", df)
	}
	p := tableProb[i]
	var q float64
	if df > tableMaxDF {
		q = distuv.Normal{Mu: 0, Sigma: 1}.Quantile(p)
	} else {
		q = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
	}
	// Dividing the exact integer by 1000 rounds correctly, so this is the
	// same double as the table's three-decimal literal.
	return math.Round(q*1000) / 1000, nil
}

// Result is the outcome of comparing one sample against the baseline with
// Student's t test, as ministat's "Difference at ..." block reports it.
type Result struct {
	// Confidence is the level in percent, one of Confidences.
	Confidence float64
	// DF is the degrees of freedom, n₁+n₂−2, and T the critical value
	// used (see TQuantile).
	DF int
	T  float64
	// Diff is mean(other) − mean(base); Err is the half width of its
	// confidence interval, T·s·√(1/n₁+1/n₂).
	Diff, Err float64
	// DiffPct and ErrPct are Diff and Err as percentages of the
	// baseline's mean.
	DiffPct, ErrPct float64
	// PooledS is the pooled standard deviation.
	PooledS float64
	// Significant reports |Diff| > Err: the difference is proven at this
	// confidence. A NaN Err (degenerate data) is never significant.
	Significant bool
}

// Compare runs ministat's two-sided Student's t test with pooled variance of
// other against base. Both samples need at least MinSamples values and the
// confidence must be one of Confidences.
func Compare(base, other Sample, confidence float64) (Result, error) {
	if err := base.check(); err != nil {
		return Result{}, err
	}
	if err := other.check(); err != nil {
		return Result{}, err
	}
	return compareStats(base.Stats(), other.Stats(), confidence)
}

// compareStats is ministat's Relative(ds=other, rs=base).
func compareStats(rs, ds Stats, confidence float64) (Result, error) {
	df := ds.N + rs.N - 2
	t, err := TQuantile(confidence, df)
	if err != nil {
		return Result{}, err
	}
	// Each operation goes through sse (nan.go): a NaN gets the sign x86
	// gives it. The explicit conversions forbid FMA fusion.
	a := sse(float64(float64(ds.N-1)*ds.Var), ds.Var)
	b := sse(float64(float64(rs.N-1)*rs.Var), rs.Var)
	spool := sse(float64(a+b), a, b)
	spool = sse(spool/float64(df), spool)
	spool = sse(math.Sqrt(spool), spool)
	s := sse(float64(spool*math.Sqrt(1.0/float64(ds.N)+1.0/float64(rs.N))), spool)
	d := sse(ds.Mean-rs.Mean, ds.Mean, rs.Mean)
	e := sse(t*s, s)
	dp := sse(float64(d*100), d)
	ep := sse(float64(e*100), e)
	return Result{
		Confidence:  confidence,
		DF:          df,
		T:           t,
		Diff:        d,
		Err:         e,
		DiffPct:     sse(dp/rs.Mean, dp, rs.Mean),
		ErrPct:      sse(ep/rs.Mean, ep, rs.Mean),
		PooledS:     spool,
		Significant: math.Abs(d) > e,
	}, nil
}

// String returns ministat's report of r, ending in a newline: either
//
//	Difference at 95.0% confidence
//		240 +/- 212.215
//		80% +/- 70.7384%
//		(Student's t, pooled s = 264.159)
//
// or "No difference proven at 95.0% confidence".
func (r Result) String() string {
	var b strings.Builder
	if r.Significant {
		fmt.Fprintf(&b, "Difference at %.1f%% confidence\n", r.Confidence)
		fmt.Fprintf(&b, "\t%s +/- %s\n", cfmtG(r.Diff, 0, 6), cfmtG(r.Err, 0, 6))
		fmt.Fprintf(&b, "\t%s%% +/- %s%%\n", cfmtG(r.DiffPct, 0, 6), cfmtG(r.ErrPct, 0, 6))
		fmt.Fprintf(&b, "\t(Student's t, pooled s = %s)\n", cfmtG(r.PooledS, 0, 6))
	} else {
		fmt.Fprintf(&b, "No difference proven at %.1f%% confidence\n", r.Confidence)
	}
	return b.String()
}
