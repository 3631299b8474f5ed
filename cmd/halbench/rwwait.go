package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gohal/gohal/lab/suite"
)

// `halbench lockwait -rw` measures how long RLock and Lock wait on
// percpu.RWMutex beside sync.RWMutex (lab/suite/rwwait.go), and checks
// issue 40's targets against sync.RWMutex in the same run.

// parseRWWaitArgs is parseLockWaitArgs with -rw: only -rounds, -quick,
// -control and -json apply.
func parseRWWaitArgs(set map[string]bool, quick, asJSON, control bool, rounds int) (*lockWaitConfig, error) {
	for _, f := range []string{"acquisitions", "occasional", "goroutines", "interval", "cap", "kinds"} {
		if set[f] {
			return nil, &usageError{fmt.Sprintf("-%s: not used with -rw (which takes -rounds, -quick, -control and -json)", f)}
		}
	}
	rw := &suite.RWWaitConfig{Goroutines: []int{2, 4, 8}, Window: 100 * time.Millisecond, Hold: 20 * time.Microsecond, Rounds: 10, Control: control}
	if quick {
		rw.Window, rw.Rounds = 30*time.Millisecond, minRuleSamples
	}
	if set["rounds"] {
		if rounds < minRuleSamples {
			return nil, &usageError{fmt.Sprintf("-rounds %d: -rw needs at least %d (the targets compare the locks' rounds by the report's rule)", rounds, minRuleSamples)}
		}
		rw.Rounds = rounds
	}
	return &lockWaitConfig{json: asJSON, quick: quick, rw: rw}, nil
}

// rwWaitRow is one lock's figures in one cell and, for percpu and the
// control, its targets. Read, Write and the rates summarize its rounds
// (fillMedians), which Rounds holds.
type rwWaitRow struct {
	Shape      string         `json:"shape"`
	Goroutines int            `json:"goroutines"`
	Kind       string         `json:"kind"`
	Read       waitStats      `json:"rlock"`
	Write      waitStats      `json:"lock"`
	ReadsPerS  float64        `json:"reads_per_second"`
	WritesPerS float64        `json:"writes_per_second"`
	Rounds     []rwWaitFigs   `json:"rounds"`
	Baseline   bool           `json:"baseline,omitempty"`
	Targets    *rwWaitTargets `json:"targets,omitempty"`
}

// rwWaitFigs are one lock's figures in one round of a cell.
type rwWaitFigs struct {
	Read       waitStats `json:"rlock"`
	Write      waitStats `json:"lock"`
	ReadsPerS  float64   `json:"reads_per_second"`
	WritesPerS float64   `json:"writes_per_second"`
}

// rwWaitTargets are issue 40.3's targets, against sync.RWMutex in the same
// cell, each judged over the rounds by the report's rule: the
// Hodges–Lehmann estimate of percpu/sync.RWMutex over the rounds, with its
// Mann–Whitney interval. p50 and p99 of each side: the estimate at most
// 2× (in each round a wait under 1 µs counts as 1 µs). Operations
// (reads and writes) per second: as many, that is not significantly
// fewer (the interval does not lie below 1).
type rwWaitTargets struct {
	ReadP50  rwRatioMark `json:"rlock_p50"`
	ReadP99  rwRatioMark `json:"rlock_p99"`
	WriteP50 rwRatioMark `json:"lock_p50"`
	WriteP99 rwRatioMark `json:"lock_p99"`
	Ops      rwRatioMark `json:"ops_per_second"`
	All      bool        `json:"all_pass"`
}

// rwRatioMark is one target: percpu's figure over sync.RWMutex's across
// the rounds, and whether it meets its limit.
type rwRatioMark struct {
	Pass  bool    `json:"pass"`
	Ratio ratioCI `json:"ratio"`
	// Limit is the most the ratio may be (waits) or, for operations,
	// the least its interval's top may be.
	Limit float64 `json:"limit"`
}

// rwWaitReport is the -rw result, the JSON shape of -rw -json.
type rwWaitReport struct {
	hostInfo
	WindowNs float64     `json:"window_ns"`
	HoldNs   float64     `json:"hold_ns"`
	Rounds   int         `json:"rounds"`
	Elapsed  float64     `json:"elapsed_seconds"`
	Rows     []rwWaitRow `json:"rows"`
}

func runRWWait(cfg *lockWaitConfig, stdout, stderr io.Writer) int {
	start := time.Now()
	res, err := suite.MeasureRWWait(*cfg.rw, func(r, n int) {
		fmt.Fprintf(stderr, "halbench lockwait -rw: round %d/%d\n", r, n)
	})
	if err != nil {
		return exitFor(stderr, "halbench lockwait", err)
	}
	c := cfg.rw
	rep := &rwWaitReport{hostInfo: thisHost(), WindowNs: float64(c.Window), HoldNs: float64(c.Hold), Rounds: c.Rounds, Elapsed: time.Since(start).Seconds()}
	for i := range res {
		r := &res[i]
		row := rwWaitRow{Shape: r.Shape, Goroutines: r.Goroutines, Kind: r.Kind, Baseline: r.Kind == "rwmutex"}
		for j := range r.PerRound {
			one := &r.PerRound[j]
			row.Rounds = append(row.Rounds, rwWaitFigs{Read: statsOf(&one.Read), Write: statsOf(&one.Write),
				ReadsPerS: float64(one.Reads) / one.Seconds, WritesPerS: float64(one.Writes) / one.Seconds})
		}
		row.fillMedians()
		rep.Rows = append(rep.Rows, row)
	}
	markRWWaitTargets(rep.Rows)
	return exitFor(stderr, "halbench lockwait", writeOut(stdout, cfg.json, rep, writeRWWaitText))
}

// perRound returns f of each of the row's rounds, in order.
func (r *rwWaitRow) perRound(f func(*rwWaitFigs) float64) []float64 {
	v := make([]float64, len(r.Rounds))
	for i := range r.Rounds {
		v[i] = f(&r.Rounds[i])
	}
	return v
}

// fillMedians sets the row's figures from its rounds: each duration and
// rate the median over the rounds, each count (calls, waits of 1 ms and
// of 32 ms or more) their sum.
func (r *rwWaitRow) fillMedians() {
	med := func(f func(*rwWaitFigs) float64) float64 { return median(r.perRound(f)) }
	side := func(s func(*rwWaitFigs) *waitStats) waitStats {
		var st waitStats
		for i := range r.Rounds {
			one := s(&r.Rounds[i])
			st.N, st.Ge1ms, st.Ge32ms = st.N+one.N, st.Ge1ms+one.Ge1ms, st.Ge32ms+one.Ge32ms
		}
		st.P50 = med(func(f *rwWaitFigs) float64 { return s(f).P50 })
		st.P99 = med(func(f *rwWaitFigs) float64 { return s(f).P99 })
		st.P999 = med(func(f *rwWaitFigs) float64 { return s(f).P999 })
		st.Max = med(func(f *rwWaitFigs) float64 { return s(f).Max })
		st.Mean = med(func(f *rwWaitFigs) float64 { return s(f).Mean })
		return st
	}
	r.Read = side(func(f *rwWaitFigs) *waitStats { return &f.Read })
	r.Write = side(func(f *rwWaitFigs) *waitStats { return &f.Write })
	r.ReadsPerS = med(func(f *rwWaitFigs) float64 { return f.ReadsPerS })
	r.WritesPerS = med(func(f *rwWaitFigs) float64 { return f.WritesPerS })
}

// markRWWaitTargets fills each percpu row's targets from the baseline row
// of its cell (shape and goroutines), round against round.
func markRWWaitTargets(rows []rwWaitRow) {
	base := map[string]*rwWaitRow{}
	cell := func(r *rwWaitRow) string { return fmt.Sprintf("%s/%d", r.Shape, r.Goroutines) }
	for i := range rows {
		if rows[i].Baseline {
			base[cell(&rows[i])] = &rows[i]
		}
	}
	wait := func(r, b *rwWaitRow, f func(*rwWaitFigs) float64) rwRatioMark {
		floor := func(g *rwWaitFigs) float64 { return max(f(g), 1e3) }
		ci := compareRatio(b.perRound(floor), r.perRound(floor), 0.95)
		return rwRatioMark{Pass: ci.Ratio <= 2, Ratio: ci, Limit: 2}
	}
	for i := range rows {
		r, b := &rows[i], base[cell(&rows[i])]
		if r.Baseline || b == nil {
			continue
		}
		ops := func(f *rwWaitFigs) float64 { return f.ReadsPerS + f.WritesPerS }
		oc := compareRatio(b.perRound(ops), r.perRound(ops), 0.95)
		t := rwWaitTargets{
			ReadP50:  wait(r, b, func(f *rwWaitFigs) float64 { return f.Read.P50 }),
			ReadP99:  wait(r, b, func(f *rwWaitFigs) float64 { return f.Read.P99 }),
			WriteP50: wait(r, b, func(f *rwWaitFigs) float64 { return f.Write.P50 }),
			WriteP99: wait(r, b, func(f *rwWaitFigs) float64 { return f.Write.P99 }),
			// Fewer only if the interval lies below 1; too few rounds
			// for an interval give no verdict, and parseRWWaitArgs
			// asks for enough.
			Ops: rwRatioMark{Pass: !math.IsNaN(oc.Hi) && oc.Hi >= 1, Ratio: oc, Limit: 1},
		}
		t.All = t.ReadP50.Pass && t.ReadP99.Pass && t.WriteP50.Pass && t.WriteP99.Pass && t.Ops.Pass
		r.Targets = &t
	}
}

func writeRWWaitText(w io.Writer, r *rwWaitReport) error {
	var b strings.Builder
	r.line(&b, "halbench lockwait -rw")
	fmt.Fprintf(&b, "writers: g goroutines each hold the lock %s (Lock … Unlock, again) beside one reader that reads again at once;\n", durText(r.HoldNs))
	b.WriteString("readers: g goroutines each hold it for reading as long beside one writer that writes again at once.\n")
	fmt.Fprintf(&b, "%s per lock and cell in each of %d rounds, the locks in rotated order, a fresh lock each time; a wait is before\n",
		durText(r.WindowNs), r.Rounds)
	b.WriteString("RLock or Lock to after it. Each figure is the median over the rounds of that round's: a round settles into one of a few\n")
	b.WriteString("schedules, for either lock, and one where the lone reader or writer runs on makes many times the calls, so merged\n")
	b.WriteString("rounds would report mostly that round (-json has every round).\n")
	fmt.Fprintf(&b, "Targets against sync.RWMutex in the same cell, round against round by the report's rule, the %s:\n", ruleName)
	b.WriteString("p50 and p99 at most 2× (in each round a wait under 1µs counts as 1µs), and ops/s not significantly fewer.\n")
	b.WriteString("The mean wait is shown beside them, not a target: where a lock's waits fall in two groups (most calls in at once,\n")
	b.WriteString("the rest after a whole hold) its median is the larger group's, and the mean says what the waits cost in all.\n\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shape\tg\tkind\treads/s\tRLock mean\tp50\tp99\twrites/s\tLock mean\tp50\tp99\ttargets vs rwmutex\t")
	// Cells and misses of percpu [0] and of the control [1].
	var misses, cells [2]int
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t", row.Shape, row.Goroutines, row.Kind, row.ReadsPerS,
			durText(row.Read.Mean), durText(row.Read.P50), durText(row.Read.P99), row.WritesPerS,
			durText(row.Write.Mean), durText(row.Write.P50), durText(row.Write.P99))
		t := row.Targets
		if t == nil {
			fmt.Fprintln(tw, "baseline\t")
			continue
		}
		who := 0
		if row.Kind == suite.RWWaitControl {
			who = 1
		}
		cells[who]++
		var miss []string
		for _, m := range []struct {
			name string
			m    rwRatioMark
		}{{"RLock p50", t.ReadP50}, {"RLock p99", t.ReadP99}, {"Lock p50", t.WriteP50}, {"Lock p99", t.WriteP99}} {
			if !m.m.Pass {
				miss = append(miss, fmt.Sprintf("%s %.2f×", m.name, m.m.Ratio.Ratio))
			}
		}
		if o := t.Ops.Ratio; !t.Ops.Pass {
			miss = append(miss, fmt.Sprintf("ops %.2f× [%.2f, %.2f]", o.Ratio, o.Lo, o.Hi))
		}
		if t.All {
			fmt.Fprintln(tw, "pass\t")
		} else {
			misses[who]++
			fmt.Fprintf(tw, "MISS %s\t\n", strings.Join(miss, ", "))
		}
	}
	tw.Flush()
	fmt.Fprintf(&b, "\n%d of %d cells miss a target. (Measured in %.0f s.)\n", misses[0], cells[0], r.Elapsed)
	if cells[1] > 0 {
		fmt.Fprintf(&b, "The control, a second sync.RWMutex judged by the same rule, misses a target in %d of %d cells: this machine's\n", misses[1], cells[1])
		b.WriteString("noise alone. A miss of percpu in a cell where the control misses too says little.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
