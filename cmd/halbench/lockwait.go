package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gohal/gohal/lab/suite"
)

// `halbench lockwait` measures how long Lock calls wait (issue 19.4): the
// distribution of every kit lock's waits beside sync.Mutex's, in a
// contended scenario and for an occasional locker among goroutines that
// re-lock at once (lab/suite/lockwait.go), and checks the issue's
// three targets against the mutex of the same run.

const lockWaitUsage = `usage: halbench lockwait [flags]

Measure, per lock kind and for sync.Mutex, how long each Lock call waits:
  contended   GOMAXPROCS×4 goroutines each Lock, ~50 ns busy critical
              section, Unlock, again, until -acquisitions in total
  occasional  GOMAXPROCS goroutines re-lock at once while one more
              sleeps -interval between its own -occasional acquisitions;
              its waits are reported
The kinds run interleaved in rounds (every kind once per round, the order
rotated), merged per kind. A wait is the time from before Lock to after it
returns (one monotonic clock read, whose cost is printed, is in each).
Progress goes to standard error: a status line on a terminal, else a line
per round as it starts.
Targets, each lock against sync.Mutex in the same run: contended waits
≥ 32 ms at most the mutex's + 1; contended max at most 2× the mutex's;
occasional median at most 2× the mutex's.

Flags:
  -quick           a short run: 160000 acquisitions, 100 occasional, 4 rounds
                   (about 10 s; the default run takes under a minute, most
                   of it the occasional goroutine's sleeps, which a busy
                   machine stretches to milliseconds)
  -acquisitions N  contended acquisitions per kind (default 1600000)
  -occasional N    the occasional goroutine's acquisitions per kind (default 500)
  -rounds N        interleaved rounds (default 8)
  -goroutines N    contended goroutines (default GOMAXPROCS×4)
  -interval D      the occasional goroutine's sleep (default 100µs)
  -cap D           wall-time bound of each kind's run of a scenario in a
                   round; a run cut short has fewer samples (default 10s)
  -kinds LIST      comma-separated kinds to run (mutex always runs)
  -json            print JSON instead of the table
  -rw              reader/writer locks instead: RLock and Lock waits of
                   percpu.RWMutex beside sync.RWMutex, under 2, 4 and 8
                   writers that each hold the lock 20µs beside one reader,
                   and 2, 4 and 8 such readers beside one writer; 100ms
                   per lock and cell in each of -rounds rounds (default 10,
                   at least 4; -quick: 30ms, 4 rounds); each figure is the
                   median over the rounds. Targets, round against round
                   by the report's rule: percpu's p50 and p99 at most 2×
                   sync.RWMutex's (a wait under 1µs counts as 1µs), and
                   ops/s not significantly fewer; each side's mean wait is
                   printed beside them. Takes -rounds, -quick, -control
                   and -json only
  -control         with -rw: also run a second sync.RWMutex, judged
                   against sync.RWMutex by the same rule as percpu: how
                   often this machine's noise alone misses a target
`

// lockWaitConfig is the parsed command line of halbench lockwait.
type lockWaitConfig struct {
	suite suite.LockWaitConfig
	json  bool
	quick bool
	rw    *suite.RWWaitConfig // -rw: the reader/writer measurement instead
}

func parseLockWaitArgs(args []string) (*lockWaitConfig, error) {
	fs := flag.NewFlagSet("halbench lockwait", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	quick := fs.Bool("quick", false, "")
	acq := fs.Int("acquisitions", 1600000, "")
	occ := fs.Int("occasional", 500, "")
	rounds := fs.Int("rounds", 8, "")
	gor := fs.Int("goroutines", 4*runtime.GOMAXPROCS(0), "")
	interval := fs.Duration("interval", 100*time.Microsecond, "")
	runCap := fs.Duration("cap", 10*time.Second, "")
	kinds := fs.String("kinds", "", "")
	asJSON := fs.Bool("json", false, "")
	rw := fs.Bool("rw", false, "")
	control := fs.Bool("control", false, "")
	set, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if *rw {
		return parseRWWaitArgs(set, *quick, *asJSON, *control, *rounds)
	}
	if set["control"] {
		return nil, &usageError{"-control: only with -rw"}
	}
	if *quick {
		for name, v := range map[string]*int{"acquisitions": acq, "occasional": occ, "rounds": rounds} {
			if !set[name] {
				*v = map[string]int{"acquisitions": 160000, "occasional": 100, "rounds": 4}[name]
			}
		}
	}
	switch {
	case *rounds < 1:
		return nil, &usageError{fmt.Sprintf("-rounds %d: must be at least 1", *rounds)}
	case *acq < *rounds:
		return nil, &usageError{fmt.Sprintf("-acquisitions %d: must be at least -rounds (%d)", *acq, *rounds)}
	case *occ < *rounds:
		return nil, &usageError{fmt.Sprintf("-occasional %d: must be at least -rounds (%d)", *occ, *rounds)}
	case *gor < 1 || *gor > maxThreads:
		return nil, &usageError{fmt.Sprintf("-goroutines %d: want 1 to %d", *gor, maxThreads)}
	case *interval <= 0 || *interval > time.Second:
		return nil, &usageError{fmt.Sprintf("-interval %v: want more than 0 and at most 1s", *interval)}
	case *runCap <= 0:
		return nil, &usageError{fmt.Sprintf("-cap %v: must be positive", *runCap)}
	}
	cfg := &lockWaitConfig{json: *asJSON, quick: *quick, suite: suite.LockWaitConfig{
		Acquisitions: *acq, Occasional: *occ, Rounds: *rounds, Goroutines: *gor,
		Interval: *interval, RunCap: *runCap,
	}}
	if *kinds != "" {
		known := map[string]bool{}
		for _, k := range suite.LockWaitKinds() {
			known[k] = true
		}
		seen := map[string]bool{}
		for _, k := range strings.Split(*kinds, ",") {
			k = strings.TrimSpace(k)
			switch {
			case !known[k]:
				return nil, &usageError{fmt.Sprintf("-kinds: unknown kind %q (want some of %s)", k, strings.Join(suite.LockWaitKinds(), ","))}
			case seen[k]:
				return nil, &usageError{fmt.Sprintf("-kinds: %q is given twice", k)}
			}
			seen[k] = true
		}
		for _, k := range suite.LockWaitKinds() { // the suite's order, the mutex last
			if seen[k] || k == lockWaitBaseline {
				cfg.suite.Kinds = append(cfg.suite.Kinds, k)
			}
		}
	}
	return cfg, nil
}

// lockWaitBaseline is the kind every lock is checked against.
const lockWaitBaseline = "mutex"

func runLockWait(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseLockWaitArgs(args)
	if code, done := argsDone(stderr, "lockwait", lockWaitUsage, err); done {
		return code
	}
	if cfg.rw != nil {
		return runRWWait(cfg, stdout, stderr)
	}
	terminal := isTerminal(stderr)
	if terminal {
		cfg.suite.Progress = func(r, rounds int, kind string) {
			fmt.Fprintf(stderr, "\r\033[K[round %d/%d] %s", r+1, rounds, kind)
		}
	} else {
		// A log: a line per round as it starts.
		last := -1
		cfg.suite.Progress = func(r, rounds int, kind string) {
			if r != last {
				last = r
				fmt.Fprintf(stderr, "halbench lockwait: round %d/%d (every kind, both scenarios)\n", r+1, rounds)
			}
		}
	}
	start := time.Now()
	clock := suite.ClockCost()
	res, err := suite.MeasureLockWait(cfg.suite)
	if terminal {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return exitFor(stderr, "halbench lockwait", err)
	}
	rep := buildLockWaitReport(cfg, res, clock, time.Since(start))
	return exitFor(stderr, "halbench lockwait", writeOut(stdout, cfg.json, rep, writeLockWaitText))
}

// waitStats is one histogram's summary, durations in nanoseconds.
type waitStats struct {
	N      uint64  `json:"n"`
	P50    float64 `json:"p50_ns"`
	P99    float64 `json:"p99_ns"`
	P999   float64 `json:"p99_9_ns"`
	Max    float64 `json:"max_ns"`
	Mean   float64 `json:"mean_ns"`
	Ge1ms  uint64  `json:"ge_1ms"`
	Ge32ms uint64  `json:"ge_32ms"`
}

func statsOf(h *suite.WaitHist) waitStats {
	ns := func(d time.Duration) float64 { return float64(d.Nanoseconds()) }
	return waitStats{N: h.Count(), P50: ns(h.Quantile(0.5)), P99: ns(h.Quantile(0.99)), P999: ns(h.Quantile(0.999)),
		Max: ns(h.Max()), Mean: ns(h.Mean()), Ge1ms: h.AtLeast1ms(), Ge32ms: h.AtLeast32ms()}
}

// targetMark is one target check of one lock against the mutex.
type targetMark struct {
	Pass  bool    `json:"pass"`
	Value float64 `json:"value"` // the lock's figure
	Limit float64 `json:"limit"` // the most it may be
}

// lockWaitRow is one kind's figures and, for a kit lock, its targets.
type lockWaitRow struct {
	Kind        string           `json:"kind"`
	Contended   waitStats        `json:"contended"`
	Occasional  waitStats        `json:"occasional"`
	GapP50      float64          `json:"occasional_gap_p50_ns"`
	SpinnerOps  uint64           `json:"spinner_ops"`
	Truncated   int              `json:"truncated_runs"`
	ContendedS  float64          `json:"contended_seconds"`
	OccasionalS float64          `json:"occasional_seconds"`
	Baseline    bool             `json:"baseline,omitempty"`
	Targets     *lockWaitTargets `json:"targets,omitempty"`
}

// lockWaitTargets are issue 19.4's three targets, each lock against the
// mutex of the same run.
type lockWaitTargets struct {
	Ge32ms    targetMark `json:"contended_ge_32ms"` // ≤ mutex's + 1
	Max       targetMark `json:"contended_max"`     // ≤ 2× mutex's
	OccMedian targetMark `json:"occasional_p50"`    // ≤ 2× mutex's
	All       bool       `json:"all_pass"`
}

// checkLockWaitTargets checks row against the mutex's row.
func checkLockWaitTargets(row, mutex waitStatsPair) lockWaitTargets {
	mark := func(v, limit float64) targetMark { return targetMark{Pass: v <= limit, Value: v, Limit: limit} }
	t := lockWaitTargets{
		Ge32ms:    mark(float64(row.contended.Ge32ms), float64(mutex.contended.Ge32ms)+1),
		Max:       mark(row.contended.Max, 2*mutex.contended.Max),
		OccMedian: mark(row.occasional.P50, 2*mutex.occasional.P50),
	}
	t.All = t.Ge32ms.Pass && t.Max.Pass && t.OccMedian.Pass
	return t
}

// waitStatsPair is the two scenarios' figures of one kind.
type waitStatsPair struct{ contended, occasional waitStats }

// hostInfo is the Go and the machine of a lockwait run, first in its
// reports.
type hostInfo struct {
	GoVersion  string         `json:"go_version"`
	GOOS       string         `json:"goos"`
	GOARCH     string         `json:"goarch"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	NumCPU     int            `json:"num_cpu"`
	Machine    featuresReport `json:"machine"`
}

func thisHost() hostInfo {
	return hostInfo{GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		GOMAXPROCS: gomaxprocs(), NumCPU: runtime.NumCPU(), Machine: buildFeaturesReport()}
}

// line is the text report's first line: what ran, on which Go and CPU.
func (h *hostInfo) line(b *strings.Builder, what string) {
	f := h.Machine.Features.Features
	fmt.Fprintf(b, "%s: %s %s/%s, GOMAXPROCS %d, %d CPUs; %s (features: %s)\n",
		what, h.GoVersion, h.GOOS, h.GOARCH, h.GOMAXPROCS, h.NumCPU, f.Brand, strings.Join(f.Names(), " "))
}

// lockWaitReport is the whole result, the JSON shape of -json.
type lockWaitReport struct {
	hostInfo
	Quick bool `json:"quick"`

	Acquisitions int     `json:"acquisitions"`
	Goroutines   int     `json:"goroutines"`
	Occasional   int     `json:"occasional"`
	Spinners     int     `json:"spinners"`
	IntervalNs   float64 `json:"interval_ns"`
	CSNs         int     `json:"cs_ns"`
	Rounds       int     `json:"rounds"`
	CapSeconds   float64 `json:"cap_seconds"`
	ClockNs      float64 `json:"clock_read_ns"`
	Elapsed      float64 `json:"elapsed_seconds"`

	Rows []lockWaitRow `json:"rows"`
}

func buildLockWaitReport(cfg *lockWaitConfig, res []suite.LockWaitResult, clock, elapsed time.Duration) *lockWaitReport {
	p := runtime.GOMAXPROCS(0)
	rep := &lockWaitReport{hostInfo: thisHost(), Quick: cfg.quick,
		Acquisitions: cfg.suite.Acquisitions, Goroutines: cfg.suite.Goroutines, Occasional: cfg.suite.Occasional,
		Spinners: p, IntervalNs: float64(cfg.suite.Interval.Nanoseconds()), CSNs: 50, Rounds: cfg.suite.Rounds,
		CapSeconds: cfg.suite.RunCap.Seconds(), ClockNs: float64(clock.Nanoseconds()), Elapsed: elapsed.Seconds(),
	}
	if rep.Goroutines == 0 {
		rep.Goroutines = 4 * p
	}
	for i := range res {
		r := &res[i]
		rep.Rows = append(rep.Rows, lockWaitRow{
			Kind: r.Kind, Contended: statsOf(&r.Contended), Occasional: statsOf(&r.Occasional),
			GapP50: float64(r.Gap.Quantile(0.5).Nanoseconds()), SpinnerOps: r.SpinnerOps, Truncated: r.Truncated,
			ContendedS: r.ContendedWall.Seconds(), OccasionalS: r.OccasionalWall.Seconds(), Baseline: r.Kind == lockWaitBaseline,
		})
	}
	markLockWaitTargets(rep.Rows)
	return rep
}

// markLockWaitTargets fills every non-baseline row's targets from the
// baseline row; without a baseline row nothing is marked.
func markLockWaitTargets(rows []lockWaitRow) {
	var base *lockWaitRow
	for i := range rows {
		if rows[i].Baseline {
			base = &rows[i]
		}
	}
	if base == nil {
		return
	}
	for i := range rows {
		if !rows[i].Baseline {
			t := checkLockWaitTargets(waitStatsPair{rows[i].Contended, rows[i].Occasional},
				waitStatsPair{base.Contended, base.Occasional})
			rows[i].Targets = &t
		}
	}
}

// durText prints nanoseconds compactly: 812ns, 3.4µs, 27ms, 1.2s.
func durText(ns float64) string {
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.0fns", ns)
	case ns < 1e6:
		return sig3(ns/1e3) + "µs"
	case ns < 1e9:
		return sig3(ns/1e6) + "ms"
	default:
		return sig3(ns/1e9) + "s"
	}
}

// sig3 prints x ≥ 1 with about three significant digits.
func sig3(x float64) string {
	switch {
	case x < 10:
		return fmt.Sprintf("%.2f", x)
	case x < 100:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.0f", x)
	}
}

// markText is a target mark for the table: "pass" or "MISS", with the
// figure against its limit.
func markText(m targetMark, count bool) string {
	word := "pass"
	if !m.Pass {
		word = "MISS"
	}
	if count {
		return fmt.Sprintf("%s %.0f≤%.0f", word, m.Value, m.Limit)
	}
	// Round towards the mark, so that the figure never contradicts it: a
	// ratio just over 2 reads "MISS 2.01×", not "MISS 2.00×".
	r := ratioOrInf(m.Value, m.Limit/2)
	if m.Pass {
		r = math.Floor(r*100) / 100
	} else {
		r = math.Ceil(r*100) / 100
	}
	return fmt.Sprintf("%s %.2f×", word, r)
}

// ratioOrInf is a/b, +Inf when b is 0 and a is not, 1 when both are.
func ratioOrInf(a, b float64) float64 {
	switch {
	case b != 0:
		return a / b
	case a == 0:
		return 1
	default:
		return math.Inf(1)
	}
}

func writeLockWaitText(w io.Writer, r *lockWaitReport) error {
	var b strings.Builder
	r.line(&b, "halbench lockwait")
	fmt.Fprintf(&b, "contended: %d goroutines (GOMAXPROCS×4 by default), Lock + %d ns busy critical section + Unlock, %d acquisitions per lock\n",
		r.Goroutines, r.CSNs, r.Acquisitions)
	fmt.Fprintf(&b, "occasional: %d goroutines re-lock at once; one more sleeps %s between its own %d acquisitions per lock (its waits below)\n",
		r.Spinners, durText(r.IntervalNs), r.Occasional)
	fmt.Fprintf(&b, "%d rounds, every lock once per round in rotated order; wait = before Lock to after it returns, one clock read (%s) included;\n",
		r.Rounds, durText(r.ClockNs))
	b.WriteString("quantiles from log buckets (at most 3.1% high), max and counts exact\n")
	if r.Quick {
		b.WriteString("-quick: a short run; tails (max, ≥32ms) need the full count\n")
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tcontended\t\t\t\t\t\t\toccasional\t\t\t\ttargets vs mutex\t\t\t")
	fmt.Fprintln(tw, "kind\tn\tp50\tp99\tp99.9\tmax\t≥1ms\t≥32ms\tn\tp50\tmax\tgap p50\t≥32ms ≤ m+1\tmax ≤ 2×m\tocc p50 ≤ 2×m\t")
	misses := 0
	for _, row := range r.Rows {
		c, o := row.Contended, row.Occasional
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t", row.Kind, c.N, durText(c.P50), durText(c.P99), durText(c.P999),
			durText(c.Max), c.Ge1ms, c.Ge32ms, o.N, durText(o.P50), durText(o.Max), durText(row.GapP50))
		if t := row.Targets; t != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t\n", markText(t.Ge32ms, true), markText(t.Max, false), markText(t.OccMedian, false))
			if !t.All {
				misses++
			}
		} else {
			fmt.Fprintf(tw, "baseline\t\t\t\n")
		}
	}
	tw.Flush()
	var cut []string
	for _, row := range r.Rows {
		if row.Truncated > 0 {
			cut = append(cut, fmt.Sprintf("%s (%d)", row.Kind, row.Truncated))
		}
	}
	if len(cut) > 0 {
		fmt.Fprintf(&b, "\nCut short by -cap %gs (runs): %s: fewer samples, and the tail may be missing.\n", r.CapSeconds, strings.Join(cut, ", "))
	}
	fmt.Fprintf(&b, "\n%d of %d locks miss a target. (Measured in %.0f s.)\n", misses, max(len(r.Rows)-1, 0), r.Elapsed)
	_, err := io.WriteString(w, b.String())
	return err
}
