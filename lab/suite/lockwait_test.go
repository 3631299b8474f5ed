package suite

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The bucket functions must tile the values: every value lies in its
// bucket, buckets are contiguous and increasing, and no bucket is wider
// than 1/32 of its values.
func TestWaitBuckets(t *testing.T) {
	vals := []uint64{0, 1, 31, 32, 63, 64, 65, 127, 128, 1000, 1 << 20, 1e6, 32e6, 1<<63 - 1}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		vals = append(vals, r.Uint64N(1<<uint(r.IntN(63)+1)))
	}
	for _, v := range vals {
		i := waitBucket(v)
		if i < 0 || i >= waitBuckets {
			t.Fatalf("waitBucket(%d) = %d, out of [0, %d)", v, i, waitBuckets)
		}
		lo := uint64(0)
		if i > 0 {
			lo = waitBucketHigh(i-1) + 1
		}
		hi := waitBucketHigh(i)
		if v < lo || v > hi {
			t.Fatalf("%d in bucket %d = [%d, %d]", v, i, lo, hi)
		}
		if v < 64 && lo != hi {
			t.Fatalf("%d: bucket [%d, %d] is not exact below 64", v, lo, hi)
		}
		if float64(hi-lo+1) > float64(lo)/32+1 {
			t.Fatalf("%d: bucket [%d, %d] wider than 1/32 of its lower bound", v, lo, hi)
		}
	}
	for i := 1; i < waitBuckets; i++ {
		if waitBucketHigh(i) <= waitBucketHigh(i-1) {
			t.Fatalf("bucket %d ends at %d, bucket %d at %d", i, waitBucketHigh(i), i-1, waitBucketHigh(i-1))
		}
		if waitBucket(waitBucketHigh(i)) != i || waitBucket(waitBucketHigh(i-1)+1) != i {
			t.Fatalf("bucket %d's ends map elsewhere", i)
		}
	}
}

// Quantiles, counts and the maximum against known inputs.
func TestWaitHistKnown(t *testing.T) {
	var h WaitHist
	if h.Quantile(0.5) != 0 || h.Max() != 0 || h.Count() != 0 || h.Mean() != 0 {
		t.Fatal("empty histogram is not all zeros")
	}
	// 1..1000 ns, in shuffled order.
	vs := make([]int, 1000)
	for i := range vs {
		vs[i] = i + 1
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	for _, v := range vs {
		h.Record(time.Duration(v))
	}
	for _, c := range []struct {
		q    float64
		want int // the exact ⌈q·n⌉-th value
	}{{0.001, 1}, {0.05, 50}, {0.5, 500}, {0.99, 990}, {0.999, 999}, {1, 1000}} {
		got := int(h.Quantile(c.q))
		if got < c.want || float64(got) > float64(c.want)*(1+1.0/32) {
			t.Errorf("Quantile(%v) = %d, want %d to 3.1%% above", c.q, got, c.want)
		}
		if c.want < 64 && got != c.want {
			t.Errorf("Quantile(%v) = %d, want exactly %d below 64", c.q, got, c.want)
		}
	}
	if h.Max() != 1000 || h.Count() != 1000 || h.Mean() != 500 {
		t.Errorf("max %v count %d mean %v, want 1000 1000 500", h.Max(), h.Count(), h.Mean())
	}
	if h.AtLeast1ms() != 0 || h.AtLeast32ms() != 0 {
		t.Errorf("≥1ms %d ≥32ms %d, want 0 0", h.AtLeast1ms(), h.AtLeast32ms())
	}

	// The thresholds are exact at their edges, and the maximum is exact
	// where the bucket is not.
	var g WaitHist
	for _, d := range []time.Duration{time.Millisecond - 1, time.Millisecond, 32*time.Millisecond - 1,
		32 * time.Millisecond, 160*time.Millisecond + 7, -5} {
		g.Record(d)
	}
	if g.AtLeast1ms() != 4 || g.AtLeast32ms() != 2 || g.Max() != 160*time.Millisecond+7 || g.Count() != 6 {
		t.Errorf("≥1ms %d ≥32ms %d max %v n %d, want 4 2 160.000007ms 6", g.AtLeast1ms(), g.AtLeast32ms(), g.Max(), g.Count())
	}
	if g.Quantile(1) != g.Max() || g.Quantile(1.0/6) != 0 {
		t.Errorf("Quantile(1) = %v, Quantile(1/6) = %v; want the max and 0 (the negative sample)", g.Quantile(1), g.Quantile(1.0/6))
	}

	// The rank is ⌈q·n⌉: of 1..10, the 0.55-quantile is the 6th value,
	// the 0.5-quantile the 5th.
	var ten WaitHist
	for v := range 10 {
		ten.Record(time.Duration(v + 1))
	}
	if ten.Quantile(0.55) != 6 || ten.Quantile(0.5) != 5 || ten.Quantile(0.01) != 1 {
		t.Errorf("of 1..10: Quantile(0.55) = %v, (0.5) = %v, (0.01) = %v; want 6, 5, 1",
			ten.Quantile(0.55), ten.Quantile(0.5), ten.Quantile(0.01))
	}

	// Merge is the histogram of both sample sets.
	var m WaitHist
	m.Merge(&h)
	m.Merge(&g)
	if m.Count() != 1006 || m.Max() != g.Max() || m.AtLeast32ms() != 2 || m.Quantile(0.5) != h.Quantile(0.5) {
		t.Errorf("merged: n %d max %v ≥32ms %d p50 %v", m.Count(), m.Max(), m.AtLeast32ms(), m.Quantile(0.5))
	}
}

// Quantiles against random inputs: never below the exact order statistic,
// at most 3.1 % above it.
func TestWaitHistRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var h WaitHist
	xs := make([]uint64, 5000)
	for i := range xs {
		xs[i] = uint64(r.ExpFloat64() * 1e5)
		h.Record(time.Duration(xs[i]))
	}
	slices.Sort(xs)
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		exact := xs[int(q*float64(len(xs))+0.999999)-1]
		got := uint64(h.Quantile(q))
		if got < exact || float64(got) > float64(exact)*(1+1.0/32)+1 {
			t.Errorf("Quantile(%v) = %d, exact %d", q, got, exact)
		}
	}
	if uint64(h.Max()) != xs[len(xs)-1] {
		t.Errorf("Max = %v, want %d", h.Max(), xs[len(xs)-1])
	}
}

func TestWaitHistRecordAllocs(t *testing.T) {
	h := new(WaitHist)
	if a := testing.AllocsPerRun(100, func() { h.Record(12345) }); a != 0 {
		t.Errorf("Record allocates %v times", a)
	}
}

// A tiny run of the measurement: every kind gives exactly the samples
// asked for, with ordered quantiles. No timing is asserted.
func TestMeasureLockWaitSmoke(t *testing.T) {
	var seen []string
	cfg := LockWaitConfig{Acquisitions: 2000, Occasional: 6, Rounds: 2, Interval: 10 * time.Microsecond,
		Progress: func(r, rounds int, kind string) { seen = append(seen, kind) }}
	res, err := MeasureLockWait(cfg)
	if err != nil {
		t.Fatal(err)
	}
	kinds := LockWaitKinds()
	if len(res) != len(kinds) || kinds[len(kinds)-1] != "mutex" {
		t.Fatalf("%d results for kinds %v", len(res), kinds)
	}
	if len(seen) != 2*len(kinds) || seen[0] == seen[len(kinds)] {
		t.Errorf("run order %v: want every kind per round, rotated", seen)
	}
	for i, r := range res {
		if r.Kind != kinds[i] {
			t.Errorf("result %d is %q, want %q", i, r.Kind, kinds[i])
		}
		if r.Truncated != 0 {
			t.Errorf("%s: %d runs truncated without a cap", r.Kind, r.Truncated)
		}
		if r.Contended.Count() != 2000 || r.Occasional.Count() != 6 || r.Gap.Count() != 4 {
			t.Errorf("%s: %d contended, %d occasional, %d gaps; want 2000, 6, 4 (one fewer gap than waits per round)",
				r.Kind, r.Contended.Count(), r.Occasional.Count(), r.Gap.Count())
		}
		for _, h := range []*WaitHist{&r.Contended, &r.Occasional} {
			p50, p99, p999 := h.Quantile(0.5), h.Quantile(0.99), h.Quantile(0.999)
			if !(0 < p50 && p50 <= p99 && p99 <= p999 && p999 <= h.Max()) {
				t.Errorf("%s: p50 %v p99 %v p99.9 %v max %v: not ordered, or zero", r.Kind, p50, p99, p999, h.Max())
			}
			if h.AtLeast32ms() > h.AtLeast1ms() {
				t.Errorf("%s: more waits ≥32ms (%d) than ≥1ms (%d)", r.Kind, h.AtLeast32ms(), h.AtLeast1ms())
			}
		}
		if r.Gap.Quantile(0.5) < 10*time.Microsecond {
			t.Errorf("%s: gap p50 %v shorter than the 10µs sleep", r.Kind, r.Gap.Quantile(0.5))
		}
	}
}

func TestMeasureLockWaitBadConfig(t *testing.T) {
	for _, c := range []LockWaitConfig{
		{Acquisitions: 1, Occasional: 5, Rounds: 2},
		{Acquisitions: 10, Occasional: 0},
		{Acquisitions: 10, Occasional: 1, Kinds: []string{"nope"}},
		{Acquisitions: 10, Occasional: 1, Kinds: []string{}},
		{Acquisitions: 10, Occasional: 1, Goroutines: -1},
		{Acquisitions: 10, Occasional: 1, Interval: -time.Second},
	} {
		if _, err := MeasureLockWait(c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
