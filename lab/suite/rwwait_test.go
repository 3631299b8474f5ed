package suite

import (
	"strings"
	"testing"
	"time"
)

// TestMeasureRWWait: a short run has one result per shape, goroutine count
// and kind, in that order, with every call's wait recorded and both sides
// making progress, even with a window shorter than a goroutine's start
// (each goroutine makes one call at least, so a loaded machine that starts
// one late still gets waits from it).
//
// With Control, the control is measured as the others, before the
// baseline.
func TestMeasureRWWait(t *testing.T) {
	for _, w := range []time.Duration{5 * time.Millisecond, time.Nanosecond} {
		t.Run(w.String(), func(t *testing.T) { testMeasureRWWait(t, w, false, RWWaitKinds) })
	}
	t.Run("control", func(t *testing.T) {
		testMeasureRWWait(t, time.Millisecond, true, []string{"percpu", RWWaitControl, "rwmutex"})
	})
}

func testMeasureRWWait(t *testing.T, window time.Duration, control bool, kinds []string) {
	var rounds []int
	res, err := MeasureRWWait(RWWaitConfig{Goroutines: []int{1, 2}, Window: window, Rounds: 2, Control: control},
		func(r, n int) { rounds = append(rounds, r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || rounds[0] != 1 || rounds[1] != 2 {
		t.Errorf("progress saw rounds %v, want [1 2]", rounds)
	}
	i := 0
	for _, shape := range RWWaitShapes {
		for _, g := range []int{1, 2} {
			for _, k := range kinds {
				r := res[i]
				i++
				if r.Shape != shape || r.Goroutines != g || r.Kind != k {
					t.Fatalf("result %d is %s/%d/%s, want %s/%d/%s", i-1, r.Shape, r.Goroutines, r.Kind, shape, g, k)
				}
				if r.Reads == 0 || r.Writes == 0 || r.Read.Count() != r.Reads || r.Write.Count() != r.Writes || r.Seconds < 2*window.Seconds() {
					t.Errorf("%s/%d/%s: %d reads (%d waits), %d writes (%d waits) in %.3f s",
						shape, g, k, r.Reads, r.Read.Count(), r.Writes, r.Write.Count(), r.Seconds)
				}
				// Each round is kept, and the merged figures are their sum.
				if len(r.PerRound) != 2 {
					t.Fatalf("%s/%d/%s: %d rounds kept, want 2", shape, g, k, len(r.PerRound))
				}
				var sum RWWaitRound
				for j := range r.PerRound {
					one := &r.PerRound[j]
					if one.Reads == 0 || one.Writes == 0 || one.Read.Count() != one.Reads || one.Seconds < window.Seconds() {
						t.Errorf("%s/%d/%s round %d: %d reads (%d waits), %d writes in %.3f s",
							shape, g, k, j+1, one.Reads, one.Read.Count(), one.Writes, one.Seconds)
					}
					sum.add(one)
				}
				if sum.Reads != r.Reads || sum.Writes != r.Writes || sum.Read.Count() != r.Read.Count() ||
					sum.Write.Max() != r.Write.Max() || sum.Seconds != r.Seconds {
					t.Errorf("%s/%d/%s: the rounds sum to %d reads, %d writes, %.6f s; merged %d, %d, %.6f s",
						shape, g, k, sum.Reads, sum.Writes, sum.Seconds, r.Reads, r.Writes, r.Seconds)
				}
			}
		}
	}
	if i != len(res) {
		t.Errorf("%d results, want %d", len(res), i)
	}
}

func TestMeasureRWWaitBadConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  RWWaitConfig
		want string
	}{
		{RWWaitConfig{Goroutines: []int{2, 0}}, "Goroutines: 0 goroutines"},
		{RWWaitConfig{Window: -time.Second}, "must not be negative"},
		{RWWaitConfig{Rounds: -1}, "must not be negative"},
	} {
		if _, err := MeasureRWWait(c.cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MeasureRWWait(%+v) = %v, want an error with %q", c.cfg, err, c.want)
		}
	}
}
