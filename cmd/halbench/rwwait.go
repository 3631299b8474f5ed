package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gohal/gohal/lab/suite"
)

// `halbench lockwait -rw` measures how long RLock and Lock wait on
// percpu.RWMutex beside sync.RWMutex (lab/suite/rwwait.go), and checks
// issue 40's targets against sync.RWMutex in the same run.

// parseRWWaitArgs is parseLockWaitArgs with -rw: only -rounds, -quick and
// -json apply.
func parseRWWaitArgs(set map[string]bool, quick, asJSON bool, rounds int) (*lockWaitConfig, error) {
	for _, f := range []string{"acquisitions", "occasional", "goroutines", "interval", "cap", "kinds"} {
		if set[f] {
			return nil, &usageError{fmt.Sprintf("-%s: not used with -rw (which takes -rounds, -quick and -json)", f)}
		}
	}
	rw := &suite.RWWaitConfig{Goroutines: []int{2, 4, 8}, Window: 100 * time.Millisecond, Hold: 20 * time.Microsecond, Rounds: 3}
	if quick {
		rw.Window, rw.Rounds = 30*time.Millisecond, 2
	}
	if set["rounds"] {
		if rounds < 1 {
			return nil, &usageError{fmt.Sprintf("-rounds %d: must be at least 1", rounds)}
		}
		rw.Rounds = rounds
	}
	return &lockWaitConfig{json: asJSON, quick: quick, rw: rw}, nil
}

// rwWaitRow is one lock's figures in one cell and, for percpu, its targets.
type rwWaitRow struct {
	Shape      string         `json:"shape"`
	Goroutines int            `json:"goroutines"`
	Kind       string         `json:"kind"`
	Read       waitStats      `json:"rlock"`
	Write      waitStats      `json:"lock"`
	ReadsPerS  float64        `json:"reads_per_second"`
	WritesPerS float64        `json:"writes_per_second"`
	Baseline   bool           `json:"baseline,omitempty"`
	Targets    *rwWaitTargets `json:"targets,omitempty"`
}

// rwWaitTargets are issue 40.3's targets, against sync.RWMutex in the same
// cell: p50 and p99 of each side at most 2× (waits under 1 µs count as
// 1 µs), and as many operations (reads and writes) per second.
type rwWaitTargets struct {
	ReadP50  targetMark `json:"rlock_p50"`
	ReadP99  targetMark `json:"rlock_p99"`
	WriteP50 targetMark `json:"lock_p50"`
	WriteP99 targetMark `json:"lock_p99"`
	Ops      targetMark `json:"ops_per_second_shortfall"` // sync's ops/s ≤ percpu's
	All      bool       `json:"all_pass"`
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
		rep.Rows = append(rep.Rows, rwWaitRow{Shape: r.Shape, Goroutines: r.Goroutines, Kind: r.Kind,
			Read: statsOf(&r.Read), Write: statsOf(&r.Write), ReadsPerS: float64(r.Reads) / r.Seconds,
			WritesPerS: float64(r.Writes) / r.Seconds, Baseline: r.Kind == "rwmutex"})
	}
	markRWWaitTargets(rep.Rows)
	return exitFor(stderr, "halbench lockwait", writeOut(stdout, cfg.json, rep, writeRWWaitText))
}

// markRWWaitTargets fills each percpu row's targets from the baseline row
// of its cell (shape and goroutines).
func markRWWaitTargets(rows []rwWaitRow) {
	base := map[string]*rwWaitRow{}
	cell := func(r *rwWaitRow) string { return fmt.Sprintf("%s/%d", r.Shape, r.Goroutines) }
	for i := range rows {
		if rows[i].Baseline {
			base[cell(&rows[i])] = &rows[i]
		}
	}
	floor := func(ns float64) float64 { return max(ns, 1e3) }
	mark := func(v, b float64) targetMark {
		return targetMark{Pass: floor(v) <= 2*floor(b), Value: floor(v), Limit: 2 * floor(b)}
	}
	for i := range rows {
		r, b := &rows[i], base[cell(&rows[i])]
		if r.Baseline || b == nil {
			continue
		}
		ops, bops := r.ReadsPerS+r.WritesPerS, b.ReadsPerS+b.WritesPerS
		t := rwWaitTargets{ReadP50: mark(r.Read.P50, b.Read.P50), ReadP99: mark(r.Read.P99, b.Read.P99),
			WriteP50: mark(r.Write.P50, b.Write.P50), WriteP99: mark(r.Write.P99, b.Write.P99),
			Ops: targetMark{Pass: ops >= bops, Value: ops, Limit: bops}}
		t.All = t.ReadP50.Pass && t.ReadP99.Pass && t.WriteP50.Pass && t.WriteP99.Pass && t.Ops.Pass
		r.Targets = &t
	}
}

func writeRWWaitText(w io.Writer, r *rwWaitReport) error {
	var b strings.Builder
	r.line(&b, "halbench lockwait -rw")
	fmt.Fprintf(&b, "writers: g goroutines each hold the lock %s (Lock … Unlock, again) beside one reader that reads again at once;\n", durText(r.HoldNs))
	b.WriteString("readers: g goroutines each hold it for reading as long beside one writer that writes again at once.\n")
	fmt.Fprintf(&b, "%s per lock and cell in each of %d rounds, the locks in rotated order; a wait is before RLock or Lock to after it.\n",
		durText(r.WindowNs), r.Rounds)
	b.WriteString("Targets against sync.RWMutex in the same cell: p50 and p99 at most 2× (a wait under 1µs counts as 1µs); ops/s at least.\n")
	b.WriteString("The mean wait is shown beside them, not a target: where a lock's waits fall in two groups (most calls in at once,\n")
	b.WriteString("the rest after a whole hold) its median is the larger group's, and the mean says what the waits cost in all.\n\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shape\tg\tkind\treads/s\tRLock mean\tp50\tp99\twrites/s\tLock mean\tp50\tp99\ttargets vs rwmutex\t")
	misses, cells := 0, 0
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t", row.Shape, row.Goroutines, row.Kind, row.ReadsPerS,
			durText(row.Read.Mean), durText(row.Read.P50), durText(row.Read.P99), row.WritesPerS,
			durText(row.Write.Mean), durText(row.Write.P50), durText(row.Write.P99))
		t := row.Targets
		if t == nil {
			fmt.Fprintln(tw, "baseline\t")
			continue
		}
		cells++
		var miss []string
		for _, m := range []struct {
			name string
			m    targetMark
		}{{"RLock p50", t.ReadP50}, {"RLock p99", t.ReadP99}, {"Lock p50", t.WriteP50}, {"Lock p99", t.WriteP99}} {
			if !m.m.Pass {
				miss = append(miss, fmt.Sprintf("%s %.2f×", m.name, m.m.Value/(m.m.Limit/2)))
			}
		}
		if !t.Ops.Pass {
			miss = append(miss, fmt.Sprintf("ops %.2f×", t.Ops.Value/t.Ops.Limit))
		}
		if t.All {
			fmt.Fprintln(tw, "pass\t")
		} else {
			misses++
			fmt.Fprintf(tw, "MISS %s\t\n", strings.Join(miss, ", "))
		}
	}
	tw.Flush()
	fmt.Fprintf(&b, "\n%d of %d cells miss a target. (Measured in %.0f s.)\n", misses, cells, r.Elapsed)
	_, err := io.WriteString(w, b.String())
	return err
}
