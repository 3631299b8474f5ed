package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

const runUsage = `usage: halbench [run] [flags]

Measure, on this machine, what every gohal choice costs: the binding modes
of each op (uncontended and contended), the spin locks against sync.Mutex,
the refcounts and the counters, each at 1, 2, 4 and 8 goroutines. The
contestants of a section are interleaved (A B A B ...) after a warm-up, and
each gets -count samples.

The report opens with a summary, one table with a row per question users
bring (lab/suite/question.go): a lock, read-mostly data, a counter, an
object cache, two words that change together, how hal's ops are bound.
  use here        the fastest by the rule; "tie: X" when X and the
                  standard choice cannot be told apart; "X +N tied" when
                  N more tie with X, all faster than the standard choice
  instead of      the standard choice (sync.Mutex, sync.RWMutex,
                  atomic.Int64, sync.Pool, a mutex pair, sync/atomic
                  inlined), or the runner-up when the standard choice wins
  ratio [95 % interval]
                  use here's ns/op over instead of's (Hodges-Lehmann)
                  with its Mann-Whitney interval; holding 1: a tie
  goroutines      where the row is measured: the most goroutines run, on
                  the question's first workload
  depends on      the other goroutine counts and workloads whose answer
                  differs ("1 % writes -> sync.RWMutex"); - when none
The figures move with load: on a busy machine intervals widen and a
verdict can become a tie. Then follow every workload's answer and, per
section, the median ns/op, cycles/op and the ratio to the section's
baseline with its 95% interval.

Results go to standard output; progress goes to standard error: a status
line on a terminal, else a line per section as it starts.

Flags:
  -quick          the default: 10 samples of up to 20ms each, shortened
                  if needed to finish in under a minute
  -full           every benchmark, 20 samples of 100ms each: several minutes
  -filter REGEX   run only the benchmarks whose name matches REGEX
                  (names as in -list, e.g. 'Lock/kind=(ttas|mutex)/')
  -threads LIST   comma-separated goroutine counts (default 1,2,4,8)
  -count N        samples per benchmark, at least 3, 4 for a verdict
                  (default 10, -full 20)
  -benchtime D    time per sample, exactly (default: up to 20ms, -full
                  100ms), or Nx: N iterations per sample, as go test
  -json           print the whole report as JSON (same as -format json)
  -format F       text (default), json, or gobench: the Go benchmark
                  format, one line per sample, for benchstat
  -svg FILE       also write charts (contention scaling, binding modes)
                  as a self-contained SVG file
  -list           print the names of the selected benchmarks and exit

Other commands: halbench -h.
`

// runConfig is the parsed command line of halbench run.
type runConfig struct {
	full       bool
	filter     *regexp.Regexp
	threads    []int
	count      int
	sampleTime time.Duration
	// sampleIters, if positive, is the iteration count of every sample
	// (-benchtime Nx); sampleTime then only bounds a lock's run.
	sampleIters int
	format      string // "text", "json" or "gobench"
	svgPath     string
	svgFile     *os.File      // opened by parseRunArgs, so a bad path fails at once
	budget      time.Duration // wall time to fit the measurements in; 0 for none
	list        bool
}

func parseRunArgs(args []string) (*runConfig, error) {
	fs := flag.NewFlagSet("halbench run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	quick := fs.Bool("quick", false, "")
	full := fs.Bool("full", false, "")
	filter := fs.String("filter", "", "")
	threads := fs.String("threads", "1,2,4,8", "")
	count := fs.Int("count", 0, "")
	var benchtime benchtimeValue
	fs.Var(&benchtime, "benchtime", "")
	asJSON := fs.Bool("json", false, "")
	format := fs.String("format", "text", "")
	svg := fs.String("svg", "", "")
	list := fs.Bool("list", false, "")
	set, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}

	cfg := &runConfig{full: *full, list: *list}
	if *quick && *full {
		return nil, &usageError{"-quick and -full exclude each other"}
	}
	if *filter != "" {
		re, err := regexp.Compile(*filter)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("-filter %q: %v", *filter, err)}
		}
		cfg.filter = re
	}
	ts, err := parseThreads(*threads)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("-threads %q: %v", *threads, err)}
	}
	cfg.threads = ts

	cfg.count = 10
	cfg.sampleTime = 20 * time.Millisecond
	cfg.budget = quickBudget
	if cfg.full {
		cfg.count = 20
		cfg.sampleTime = 100 * time.Millisecond
		cfg.budget = 0
	}
	if set["count"] {
		if *count < 3 {
			return nil, &usageError{fmt.Sprintf("-count %d: need at least 3 samples per benchmark (for the confidence intervals and ministat)", *count)}
		}
		cfg.count = *count
	}
	if set["benchtime"] {
		// benchtimeValue.Set has checked it: positive either way.
		if benchtime.iters > 0 {
			cfg.sampleIters = benchtime.iters
		} else {
			cfg.sampleTime = benchtime.d
		}
		cfg.budget = 0 // a sample time asked for is a sample time given
	}

	cfg.format = *format
	switch cfg.format {
	case "text", "json", "gobench":
	default:
		return nil, &usageError{fmt.Sprintf("-format %q: want text, json or gobench", *format)}
	}
	if *asJSON {
		if set["format"] && cfg.format != "json" {
			return nil, &usageError{fmt.Sprintf("-json and -format %s exclude each other", cfg.format)}
		}
		cfg.format = "json"
	}
	if *svg != "" {
		// Open now, so that an unwritable path fails before a minute of
		// measuring rather than after.
		f, err := os.OpenFile(*svg, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("-svg: %v", err)}
		}
		cfg.svgPath, cfg.svgFile = *svg, f
	}
	return cfg, nil
}

// quickBudget is the wall time the measurements of a default (-quick) run
// should fit in, so that the whole run, start-up and report included,
// takes under a minute on a 2-core machine; samples shrink, down to
// minSampleTime, to fit.
const quickBudget = 48 * time.Second

// minSampleTime is the shortest sample the budget may impose.
const minSampleTime = 2 * time.Millisecond

// maxThreads bounds -threads: more goroutines than this measure the
// scheduler, not the hardware.
const maxThreads = 1024

// parseThreads parses a comma-separated list of distinct positive
// goroutine counts.
func parseThreads(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty list; want counts like 1,2,4,8")
	}
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%q is not a number; want counts like 1,2,4,8", f)
		case n < 1:
			return nil, fmt.Errorf("%d: a goroutine count must be at least 1", n)
		case n > maxThreads:
			return nil, fmt.Errorf("%d: at most %d goroutines", n, maxThreads)
		case seen[n]:
			return nil, fmt.Errorf("%d is given twice", n)
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}

// runBench implements `halbench run`; it returns the exit status: 0 on
// success, 2 for usage errors, 1 when measuring or writing fails.
func runBench(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseRunArgs(args)
	if code, done := argsDone(stderr, "run", runUsage, err); done {
		return code
	}
	svgDone := false
	if cfg.svgFile != nil {
		// Leave no empty or partial chart behind.
		defer func() {
			if !svgDone {
				cfg.svgFile.Close()
				os.Remove(cfg.svgPath)
			}
		}()
	}
	benchs := suite.Select(suite.Options{Threads: cfg.threads, Filter: cfg.filter, Full: cfg.full})
	if len(benchs) == 0 {
		return usageFail(stderr, "run", fmt.Sprintf("-filter %q matches no benchmark (see halbench -list)", cfg.filter))
	}
	if cfg.list {
		for _, bm := range benchs {
			fmt.Fprintln(stdout, bm.Name)
		}
		return 0
	}

	rep, err := measureRun(cfg, benchs, stderr)
	if err != nil {
		return exitFor(stderr, "halbench", err)
	}

	switch cfg.format {
	case "json":
		err = writeJSONValue(stdout, rep)
	case "gobench":
		err = writeGoBench(stdout, rep)
	default:
		err = writeText(stdout, rep)
	}
	if err == nil && cfg.svgFile != nil {
		if err = writeSVG(cfg.svgFile, rep); err == nil {
			err = cfg.svgFile.Close()
			svgDone = err == nil
		}
	}
	return exitFor(stderr, "halbench", err)
}

// measureRun measures benchs as cfg says, with progress on stderr (a
// status line on a terminal, else a line per section as it starts), and
// returns the report: halbench run and halbench results both measure
// through it.
func measureRun(cfg *runConfig, benchs []suite.Benchmark, stderr io.Writer) (*report, error) {
	h := &harness{sampleTime: cfg.sampleTime, iters: cfg.sampleIters, minSample: minSampleTime, count: cfg.count, budget: cfg.budget}
	if isTerminal(stderr) {
		h.progress = func(done, total int, what string) {
			fmt.Fprintf(stderr, "\r\033[K[%3d%%] %s", done*100/total, what)
		}
	} else {
		// A log, not a screen: a line per section as it starts, so
		// that a CI log is not silent for a minute.
		h.section = sectionLogger(stderr, "halbench")
	}
	start := time.Now()
	// Pay for the calibrations before measuring anything.
	hal.CycleFrequency()
	cyclebench.Calibrate()
	samples, err := h.measure(benchs)
	if h.progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return nil, err
	}
	rep := buildReport(cfg, benchs, samples, time.Since(start))
	rep.SampleTime = sampleTimeText(h.shortest, h.longest)
	if cfg.sampleIters > 0 {
		rep.SampleTime = fmt.Sprintf("%dx", cfg.sampleIters)
	}
	for name, d := range h.wall {
		if b := rep.byName[name]; b != nil {
			b.WallSeconds = d.Seconds()
		}
	}
	return rep, nil
}

// sampleTimeText is the sample time for the header: "20ms", or
// "2ms–18.4ms" when the budget shortened some samples, each rounded to
// three significant digits.
func sampleTimeText(shortest, longest time.Duration) string {
	a, b := roundDuration(shortest), roundDuration(longest)
	if a == b {
		return a.String()
	}
	return a.String() + "–" + b.String()
}

// roundDuration rounds d to three significant digits: 18.393156ms →
// 18.4ms, 2.0004ms → 2ms.
func roundDuration(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for x := d; x >= 1000; x /= 10 {
		unit *= 10
	}
	return d.Round(unit)
}

// gomaxprocs is recorded in the report and in Go benchmark names.
func gomaxprocs() int { return runtime.GOMAXPROCS(0) }
