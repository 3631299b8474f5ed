package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

const tuneUsage = `usage: halbench tune [flags]

Measure, on this machine, every variant of every op that has more than one
variant this CPU can run (haltool.Ops, haltool.Variants, haltool.Runnable:
nothing is hard-coded, so new ops are tuned as they appear), each forced
with haltool.Force, at 1 goroutine and contended on one shared word, samples
interleaved across the variants after a warm-up. Then recommend, per op, the variant for the
workload: the feature choice unless another variant is faster with 95%
confidence by more than -min-gain (the report's one rule: the Mann–Whitney
interval of the ratio). Ops that run all hardware variants or all portable
ones (the 128-bit ops: a portable one takes the others to the striped locks)
are judged as one group: "all hardware" against "all portable" on a mix of
their ops and on each op alone; portable only if the mix gains and no op is
significantly slower. The asymmetric fence pair (op fenceheavy) is judged
as a pair, on the workload it exists for: FenceLight between a store and a
load in every goroutine, FenceHeavy every 1ms on one more; never
FenceHeavy alone. The last line is a GOHAL value to paste; it is empty
when nothing should change.

Then the kit: which lock (sync.Mutex and the spin locks, around an empty and
a 50 ns critical section), which counter (Add) and which object cache
(percpu.Cache, a mutex-guarded free list, sync.Pool), each at 1 and
GOMAXPROCS×4 goroutines, printed as advice lines by the same rule: "use X"
only when X is significantly faster than every other candidate, otherwise
the tie is named as a tie.

Results go to standard output; progress goes to standard error: a status
line on a terminal, else a line per op, group and kit kind as it starts.

Flags:
  -workload W     uncontended (1 goroutine), contended (the thread counts
                  above 1) or mixed (all of them; the default)
  -min-gain P     the least gain, in percent, worth a departure from the
                  feature choice (default 5)
  -threads LIST   comma-separated goroutine counts (default 1 and GOMAXPROCS)
  -count N        samples per variant and thread count, at least 4
                  (default 20; -quick 6)
  -benchtime D    time per sample (default 20ms; -quick 2ms), or Nx: N
                  iterations per sample, as go test
  -quick          few short samples, for CI: a smoke test, not advice
  -kit=false      skip the kit questions (locks, counters, caches)
  -check LINE     do not tune: apply the GOHAL line LINE in new processes
                  and re-measure every op whose choice it changes (directly
                  or by taking it along) and every kit type whose code runs
                  one (the RW lock for fenceheavy, also with a writer every
                  1ms and 10ms; locks, counters, caches, Uint128 for
                  theirs) against processes without GOHAL; exit 1 if one
                  is significantly slower. tune runs this check on its own
                  line (unless -quick), withdraws each setting that changes
                  an op a slower one runs, saying why with the figures,
                  re-checks the rest, and prints only what survived.
  -json           print every sample, interval and decision as JSON
`

// tuneConfig is the parsed command line of halbench tune.
type tuneConfig struct {
	workload   string
	minGain    float64 // fraction: 0.05 for 5%
	threads    []int
	count      int
	sampleTime time.Duration
	// sampleIters, if positive, is the iteration count of every sample
	// (-benchtime Nx); sampleTime then only bounds a lock's run.
	sampleIters int
	quick       bool
	json        bool
	kit         bool
	check       string // -check LINE
	checkSet    bool
	worker      string // the hidden -worker OPS of -check's processes
	workerKit   string // the hidden -kitbench NAMES of -check's processes
	samples     int    // -worker's samples per op
}

// Workloads tune can recommend for.
const (
	workloadUncontended = "uncontended"
	workloadContended   = "contended"
	workloadMixed       = "mixed"
)

func parseTuneArgs(args []string) (*tuneConfig, error) {
	fs := flag.NewFlagSet("halbench tune", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	workload := fs.String("workload", workloadMixed, "")
	minGain := fs.String("min-gain", "5", "")
	threads := fs.String("threads", "", "")
	count := fs.Int("count", 0, "")
	var benchtime benchtimeValue
	fs.Var(&benchtime, "benchtime", "")
	quick := fs.Bool("quick", false, "")
	asJSON := fs.Bool("json", false, "")
	kit := fs.Bool("kit", true, "")
	check := fs.String("check", "", "")
	worker := fs.String("worker", "", "")
	workerKit := fs.String("kitbench", "", "")
	samples := fs.Int("samples", 1, "")
	set, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	cfg := &tuneConfig{workload: *workload, quick: *quick, json: *asJSON, kit: *kit, count: 20, sampleTime: 20 * time.Millisecond,
		check: *check, checkSet: set["check"], worker: *worker, workerKit: *workerKit, samples: *samples}
	if *samples < 1 {
		return nil, &usageError{fmt.Sprintf("-samples %d: must be positive", *samples)}
	}
	if cfg.checkSet {
		if err := checkGOHALLine(cfg.check); err != nil {
			return nil, &usageError{fmt.Sprintf("-check %q: %v", cfg.check, err)}
		}
	}
	if cfg.quick {
		cfg.count, cfg.sampleTime = 6, 2*time.Millisecond
	}
	switch cfg.workload {
	case workloadUncontended, workloadContended, workloadMixed:
	default:
		return nil, &usageError{fmt.Sprintf("-workload %q: want uncontended, contended or mixed", *workload)}
	}
	g, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(*minGain), "%"), 64)
	if err != nil || g < 0 || g >= 100 || math.IsNaN(g) {
		return nil, &usageError{fmt.Sprintf("-min-gain %q: want a percentage from 0 to below 100, like 5", *minGain)}
	}
	cfg.minGain = g / 100
	if set["threads"] {
		ts, err := parseThreads(*threads)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("-threads %q: %v", *threads, err)}
		}
		cfg.threads = ts
	} else {
		cfg.threads = []int{1}
		if p := gomaxprocs(); p > 1 {
			cfg.threads = append(cfg.threads, p)
		}
	}
	if cfg.workload == workloadUncontended && !slices.Contains(cfg.threads, 1) {
		return nil, &usageError{"-workload uncontended needs 1 among the -threads"}
	}
	if cfg.workload == workloadContended && slices.Max(cfg.threads) < 2 {
		return nil, &usageError{"-workload contended needs a thread count above 1 among the -threads"}
	}
	if set["count"] {
		if *count < minRuleSamples {
			return nil, &usageError{fmt.Sprintf("-count %d: need at least %d samples (fewer can prove no difference at 95%%)", *count, minRuleSamples)}
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
	}
	return cfg, nil
}

// sampleTimeText is the sample time for the report: "20ms", or "100x"
// for -benchtime 100x.
func (cfg *tuneConfig) sampleTimeText() string {
	if cfg.sampleIters > 0 {
		return strconv.Itoa(cfg.sampleIters) + "x"
	}
	return roundDuration(cfg.sampleTime).String()
}

// tuneReport is what tune measured and decided; -json prints it.
type tuneReport struct {
	Tool       string         `json:"tool"`
	GoVersion  string         `json:"go_version"`
	GOOS       string         `json:"goos"`
	GOARCH     string         `json:"goarch"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	Machine    featuresReport `json:"machine"`
	Workload   string         `json:"workload"`
	MinGain    float64        `json:"min_gain"`
	Threads    []int          `json:"threads"`
	Count      int            `json:"count"`
	SampleTime string         `json:"sample_time"`
	Quick      bool           `json:"quick"`
	Confidence float64        `json:"confidence"`
	Rule       string         `json:"significance_rule"`
	Ops        []*tuneOp      `json:"ops"`
	// Groups are the ops that run all hardware variants or all portable
	// ones, judged together (see tuneGroup).
	Groups []*tuneGroup `json:"groups"`
	// NotTuned names the ops with several variants in this build of
	// which fewer than two run on this CPU, and why.
	NotTuned []string `json:"not_tuned,omitempty"`
	// GOHAL is the override to paste: op=variant for every op whose
	// recommendation departs from the feature choice, "" for none.
	GOHAL string `json:"gohal"`
	// GOHALBefore is the GOHAL this run found in its environment: tune
	// compares against the feature choices regardless, and GOHAL replaces
	// it.
	GOHALBefore string `json:"gohal_in_environment,omitempty"`
	// Kit is the advice on the kit's types for this machine, one report
	// per kind (lock, counter, cache); empty with -kit=false.
	Kit []*kitReport `json:"kit"`
	// Check is the re-measurement of the line applied in new processes
	// (not with -quick), and Rechecks those of what was left of it after
	// each withdrawal. Withdrawn are the settings withdrawn (op=variant,
	// comma-separated), WithdrawnWhy each with why and its figures; GOHAL
	// keeps only the settings that survived.
	Check        *checkReport    `json:"check,omitempty"`
	Rechecks     []*checkReport  `json:"rechecks,omitempty"`
	Withdrawn    string          `json:"withdrawn,omitempty"`
	WithdrawnWhy []*checkSetting `json:"withdrawn_why,omitempty"`
	Elapsed      float64         `json:"elapsed_seconds"`
}

// tuneOp is one op: its variants, their measurements and the decision.
type tuneOp struct {
	Op string `json:"op"`
	// FeatureChoice is the variant the CPU's features choose (what hal
	// runs without GOHAL), and FeatureReason why.
	FeatureChoice string `json:"feature_choice"`
	FeatureReason string `json:"feature_reason"`
	// Body says what was timed: hal's exported function (the suite's
	// contended body) or the func value in haltool.Table (for ops the suite
	// has no body for; the indirect call is the same for every variant).
	Body     string         `json:"body"`
	Variants []*tuneVariant `json:"variants"`
	// Error is set when the op could not be measured at all.
	Error    string       `json:"error,omitempty"`
	Decision tuneDecision `json:"decision"`

	loops map[string]func(threads int) func(*testing.B) // variant → body
}

// tuneVariant is one variant of an op.
type tuneVariant struct {
	Name string `json:"variant"`
	// Error says why the variant was not measured or failed: it is
	// reported and never chosen.
	Error   string        `json:"error,omitempty"`
	Results []*tuneResult `json:"results,omitempty"`
}

// tuneResult is one variant at one thread count.
type tuneResult struct {
	Threads     int     `json:"threads"`
	NsPerOp     summary `json:"ns_per_op"`
	CyclesPerOp summary `json:"cycles_per_op"`
	// Ratio is ns/op against the feature choice at the same thread
	// count, with its interval; nil for the feature choice itself.
	Ratio   *ratioJSON `json:"ratio_to_feature_choice,omitempty"`
	Samples []sample   `json:"samples"`
}

// tuneDecision is the recommendation for one op.
type tuneDecision struct {
	Variant string `json:"variant"`
	// Change reports a departure from the feature choice.
	Change bool   `json:"change"`
	Why    string `json:"why"`
}

// find returns the first of xs that ok accepts, or the zero value (nil).
func find[T any](xs []T, ok func(T) bool) (zero T) {
	if i := slices.IndexFunc(xs, ok); i >= 0 {
		return xs[i]
	}
	return zero
}

func (v *tuneVariant) at(threads int) *tuneResult {
	return find(v.Results, func(r *tuneResult) bool { return r.Threads == threads })
}

func (o *tuneOp) variant(name string) *tuneVariant {
	return find(o.Variants, func(v *tuneVariant) bool { return v.Name == name })
}

// tuneMeasurer measures contestants (an op's variants, a group's sides, a
// kit question's candidates) and returns their samples by name; the real
// one runs the harness, tests use fakes.
type tuneMeasurer func(benchs []suite.Benchmark) (map[string][]sample, error)

// tuneName names a contestant.
func tuneName(op, variant string, threads int) string {
	return fmt.Sprintf("Tune/op=%s/variant=%s/threads=%d", op, variant, threads)
}

// featureChoices returns what the CPU's features choose for every op,
// whatever GOHAL says now (so that a run with tune's own line pasted
// compares against the same choice).
func featureChoices() map[string]hal.Choice {
	var ops []dispatch.Op
	for _, op := range haltool.Ops() {
		vs, _ := haltool.Variants(op)
		ops = append(ops, dispatch.Op{Name: op, Variants: vs})
	}
	out := map[string]hal.Choice{}
	cs, err := dispatch.Select(dispatch.Host(), ops, nil)
	if err != nil { // unreachable without an override; fall back to hal's
		cs = hal.Selected()
	}
	for _, c := range cs {
		out[c.Op] = c
	}
	return out
}

// discoverAll lists the ops with more than one variant this CPU can run,
// from hal at run time, with a body to time each variant, the groups, and,
// for every op that has several variants in this build but fewer than two
// this CPU can run, why it is not tuned. The ops of a group (see tuneGroup) are tuned per op among
// their hardware variants only; their portable variant is judged with the
// group.
func discoverAll(threads []int) (ops []*tuneOp, groups []*tuneGroup, notTuned []string) {
	choices := featureChoices()
	groups = discoverGroups(choices)
	var out []*tuneOp
	for _, op := range haltool.Ops() {
		vs, _ := haltool.Variants(op)
		o := &tuneOp{Op: op, FeatureChoice: choices[op].Variant, FeatureReason: choices[op].Reason}
		runnable := 0
		var group *tuneGroup
		for _, g := range groups {
			if g.has(op) && g.Error == "" {
				group = g
			}
		}
		for _, v := range vs {
			tv := &tuneVariant{Name: v.Name}
			if group != nil && v.Name == portableVariant {
				tv.Error = "judged with its group, never alone: it takes " + strings.Join(group.Ops, ", ") + " to the striped locks"
			} else if ok, missing := haltool.Runnable(op, v.Name); !ok {
				tv.Error = "not runnable here: the CPU lacks " + missing
			} else if restore, err := haltool.Force(op, v.Name); err != nil {
				tv.Error = "haltool.Force: " + err.Error()
			} else {
				restore()
				runnable++
			}
			o.Variants = append(o.Variants, tv)
		}
		if runnable < 2 {
			if len(vs) > 1 && group == nil {
				var why []string
				for _, v := range o.Variants {
					if v.Error != "" {
						why = append(why, v.Name+": "+v.Error)
					}
				}
				notTuned = append(notTuned, fmt.Sprintf("%s (only %s runs; %s)", op, o.FeatureChoice, strings.Join(why, "; ")))
			}
			continue
		}
		attachBodies(o, threads)
		out = append(out, o)
	}
	for _, g := range groups {
		attachGroupBodies(g)
	}
	return out, groups, notTuned
}

// fencePairOp is the asymmetric fence pair's op: FenceHeavy, whose
// choice also sets what FenceLight runs.
const fencePairOp = "fenceheavy"

// attachBodies finds what to time for each variant of o: the pair's
// workload for the asymmetric fence pair (fencePairBody), else the suite's
// contended body of hal's exported function when it has one for o, else
// the func value of o's row in haltool.Table(), called in the loop gen wrote
// for its signature (suite.TableRows) on one shared word.
func attachBodies(o *tuneOp, threads []int) {
	o.loops = map[string]func(int) func(*testing.B){}
	if o.Op == fencePairOp {
		// The pair is judged as a pair, on the workload it exists for:
		// FenceHeavy alone is a locked instruction under portable and a
		// system call under membarrier, and says nothing of FenceLight,
		// which runs in every reader.
		o.Body = fmt.Sprintf("the pair on its workload: hal.FenceLight between a store and a load in each goroutine, hal.FenceHeavy every %s on one more (ns per FenceLight operation, wall time)", fencePairPeriod)
		for _, v := range o.Variants {
			if v.Error == "" {
				o.loops[v.Name] = func(t int) func(*testing.B) { return fencePairBody(t, fencePairPeriod) }
			}
		}
		return
	}
	var names []string
	for _, t := range threads {
		names = append(names, regexp.QuoteMeta(suite.ContendedName(o.Op, suite.ModeAPI, t)))
	}
	re := regexp.MustCompile("^(" + strings.Join(names, "|") + ")$")
	byThreads := map[int]func(*testing.B){}
	for _, bm := range suite.Select(suite.Options{Threads: threads, Filter: re, Full: true}) {
		byThreads[bm.Threads] = bm.F
	}
	if len(byThreads) == len(threads) {
		o.Body = "hal's exported function (the suite's body " + suite.ContendedName(o.Op, suite.ModeAPI, 0) + ")"
		for _, v := range o.Variants {
			if v.Error == "" {
				o.loops[v.Name] = func(t int) func(*testing.B) { return byThreads[t] }
			}
		}
		return
	}
	row, ok := suite.TableRows[o.Op]
	if !ok {
		o.Error = "no row of haltool.Table() for this op: nothing to time"
		return
	}
	o.Body = "the func value of haltool.Table()." + row.Field + " (an indirect call, the same for every variant)"
	for _, v := range o.Variants {
		if v.Error != "" {
			continue
		}
		o.loops[v.Name] = func(t int) func(*testing.B) {
			return func(b *testing.B) {
				cyclebench.RunLoop(b, t, row.Loop(new(tuneWord)))
			}
		}
	}
}

// tuneWord is the shared word of a table body (suite.TableWord: room for
// every operand shape); the group bodies use its Uint128.
type tuneWord = suite.TableWord

// tuneSink keeps results alive.
var tuneSink atomic.Uint64

// contestants returns the benchmarks of o: every measurable variant at
// every thread count, forced while it runs.
func contestants(o *tuneOp, threads []int) []suite.Benchmark {
	var out []suite.Benchmark
	for _, v := range o.Variants {
		body := o.loops[v.Name]
		if v.Error != "" || body == nil {
			continue
		}
		for _, t := range threads {
			out = append(out, suite.Benchmark{Name: tuneName(o.Op, v.Name, t), Section: "Tune/op=" + o.Op, Threads: t,
				F: forced(o.Op, v.Name, body(t))})
		}
	}
	return out
}

// forced is f run with op forced to variant (haltool.Force), restored
// after.
func forced(op, variant string, f func(*testing.B)) func(*testing.B) {
	return func(b *testing.B) {
		restore, err := haltool.Force(op, variant)
		if err != nil {
			b.Fatal(err)
		}
		defer restore()
		f(b)
	}
}

// harnessMeasurer measures with halbench's harness: warm-up, then count
// rounds of interleaved samples.
func harnessMeasurer(cfg *tuneConfig, budget func() time.Duration, progress func(done, total int, what string)) tuneMeasurer {
	return func(benchs []suite.Benchmark) (map[string][]sample, error) {
		h := &harness{sampleTime: cfg.sampleTime, iters: cfg.sampleIters, minSample: minSampleTime, count: cfg.count, budget: budget(), progress: progress}
		return h.measure(benchs)
	}
}

// tuneBudget is the wall time a default tune's measurements of hal's ops
// fit in, and kitBudget that of the kit questions, so that the whole run
// takes about a minute and a half.
const (
	tuneBudget = 45 * time.Second
	kitBudget  = 45 * time.Second
)

// runTuneOps measures every op and group with m and decides.
func runTuneOps(cfg *tuneConfig, ops []*tuneOp, groups []*tuneGroup, m tuneMeasurer) {
	for _, o := range ops {
		if o.Error == "" {
			benchs := contestants(o, cfg.threads)
			samples, err := m(benchs)
			if err != nil {
				o.Error = "measuring failed: " + err.Error()
			}
			analyzeOp(o, cfg.threads, samples)
		}
		o.Decision = decide(o, cfg)
	}
	for _, g := range groups {
		if g.Error == "" {
			samples, err := m(groupContestants(g, cfg.threads))
			if err != nil {
				g.Error = "measuring failed: " + err.Error()
			}
			analyzeGroup(g, cfg.threads, samples)
		}
		g.Decision = decideGroup(g, cfg)
	}
}

// analyzeOp fills in each variant's results from the samples.
func analyzeOp(o *tuneOp, threads []int, samples map[string][]sample) {
	base := o.variant(o.FeatureChoice)
	for _, v := range o.Variants {
		if v.Error != "" {
			continue
		}
		v.Results = nil
		for _, t := range threads {
			ss := samples[tuneName(o.Op, v.Name, t)]
			if len(ss) == 0 {
				continue
			}
			r := &tuneResult{Threads: t, Samples: ss, NsPerOp: summarize(nsOf(ss)), CyclesPerOp: cyclesOf(ss)}
			v.Results = append(v.Results, r)
		}
		if len(v.Results) == 0 && o.Error == "" {
			v.Error = "no samples"
		}
	}
	if base == nil || base.Error != "" {
		return
	}
	for _, v := range o.Variants {
		if v == base || v.Error != "" {
			continue
		}
		for _, r := range v.Results {
			if b := base.at(r.Threads); b != nil {
				r.Ratio = ratioOf(nsOf(b.Samples), nsOf(r.Samples))
			}
		}
	}
}

func nsOf(ss []sample) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.NsPerOp
	}
	return out
}

func metricOf(ss []sample, unit string) []float64 {
	var out []float64
	for _, s := range ss {
		if v, ok := s.Metrics[unit]; ok {
			out = append(out, v)
		}
	}
	return out
}

// workloadThreads returns the thread counts a workload is judged on.
func workloadThreads(cfg *tuneConfig) []int {
	return slices.DeleteFunc(slices.Clone(cfg.threads), func(t int) bool {
		return cfg.workload == workloadUncontended && t != 1 || cfg.workload == workloadContended && t <= 1
	})
}

// tally counts the gains, losses and missing ratios among ratios, one per
// thread count of the workload. A gain is a ratio whose whole 95%
// interval lies below 1/(1+minGain) (faster by more than the threshold,
// with 95% confidence), a loss one whose interval lies above 1
// (significantly slower). ok says whether they prove a gain for the
// workload: at every thread count for uncontended and contended, at one
// at least and a loss at none for mixed.
func tally(cfg *tuneConfig, ratios []*ratioJSON) (ok bool, gains, losses, missing int) {
	for _, r := range ratios {
		switch {
		case r == nil || math.IsNaN(float64(r.Lo)):
			missing++
		case r.Significant && float64(r.Hi) < 1/(1+cfg.minGain):
			gains++
		case r.Significant && float64(r.Lo) > 1:
			losses++
		}
	}
	if cfg.workload != workloadMixed {
		return missing == 0 && gains == len(ratios), gains, losses, missing
	}
	return missing == 0 && losses == 0 && gains > 0, gains, losses, missing
}

// decide is the recommendation for o. It departs from the feature choice
// d only for a variant v that, at the workload's thread counts, is faster
// than d by more than -min-gain with 95% confidence (the whole interval of
// v/d below 1/(1+min-gain)): at every one of them for "uncontended" and
// "contended", at one at least and significantly slower at none for
// "mixed". If several variants qualify, the one that is significantly
// faster than each of the others somewhere and slower nowhere wins;
// without such a one the feature choice stays. A variant that failed is
// never chosen; ties (no significant difference) keep the feature choice.
//
// Why two runs do not contradict each other: the only departure tune ever
// makes is to a variant whose gain is proven at 95% with margin, and
// otherwise it withholds advice (keeps the feature choice, the GOHAL line
// stays empty for that op) rather than advising the other way. A run
// contradicting an earlier one would need a departure to a second variant
// w after one to v, which requires w significantly faster than v: two
// intervals of the same exact, conservative rule pointing opposite ways,
// at most a few percent of the time even in the worst case of equal
// speeds, and far less as the difference grows.
func decide(o *tuneOp, cfg *tuneConfig) tuneDecision {
	keep := tuneDecision{Variant: o.FeatureChoice}
	if o.Error != "" {
		keep.Why = "keep " + o.FeatureChoice + ": " + o.Error
		return keep
	}
	base := o.variant(o.FeatureChoice)
	if base == nil || base.Error != "" {
		why := "not measured"
		if base != nil {
			why = base.Error
		}
		keep.Why = "keep " + o.FeatureChoice + ": the feature choice itself could not be measured (" + why + "), so nothing is compared"
		return keep
	}
	ts := workloadThreads(cfg)
	var eligible []*tuneVariant
	var notes []string
	for _, v := range o.Variants {
		if v == base {
			continue
		}
		if v.Error != "" {
			notes = append(notes, v.Name+" not measured ("+v.Error+")")
			continue
		}
		var parts []string
		var ratios []*ratioJSON
		for _, t := range ts {
			var ratio *ratioJSON
			if r := v.at(t); r != nil && r.Ratio != nil {
				ratio = r.Ratio
				parts = append(parts, fmt.Sprintf("%s at %d", ratioShort(*r.Ratio), t))
			}
			ratios = append(ratios, ratio)
		}
		ok, gains, losses, missing := tally(cfg, ratios)
		desc := v.Name + " " + strings.Join(parts, ", ")
		if ok {
			eligible = append(eligible, v)
		} else {
			switch {
			case missing > 0:
				desc += " (no verdict: too few samples)"
			case losses > 0 && gains > 0:
				desc += " (faster at one thread count, slower at another)"
			case losses == len(ts):
				desc += " (slower)"
			case losses > 0:
				desc += fmt.Sprintf(" (slower where the interval excludes 1, no gain over %.0f%% proven elsewhere)", 100*cfg.minGain)
			case gains > 0:
				desc += " (not faster at every thread count of the workload)"
			default:
				desc += fmt.Sprintf(" (no gain over %.0f%% proven)", 100*cfg.minGain)
			}
		}
		notes = append(notes, desc)
	}
	threadsText := fmt.Sprintf("goroutines %s", joinInts(ts))
	switch len(eligible) {
	case 0:
		keep.Why = fmt.Sprintf("keep %s: %s (ratios to %s, %s)", o.FeatureChoice, strings.Join(notes, "; "), o.FeatureChoice, threadsText)
		return keep
	case 1:
		return departure(o, eligible[0], ts, cfg)
	}
	// Several beat the feature choice: one must beat the rest.
	var winners []*tuneVariant
	for _, v := range eligible {
		beatsAll := true
		for _, w := range eligible {
			if w == v {
				continue
			}
			better, worse := false, false
			for _, t := range ts {
				rv, rw := v.at(t), w.at(t)
				rc := compareRatio(nsOf(rw.Samples), nsOf(rv.Samples), confidence/100.0)
				better = better || (rc.Significant && rc.Ratio < 1)
				worse = worse || (rc.Significant && rc.Ratio > 1)
			}
			beatsAll = beatsAll && better && !worse
		}
		if beatsAll {
			winners = append(winners, v)
		}
	}
	if len(winners) == 1 {
		return departure(o, winners[0], ts, cfg)
	}
	var names []string
	for _, v := range eligible {
		names = append(names, v.Name)
	}
	keep.Why = fmt.Sprintf("keep %s: %s all beat it, but none of them beats the others: advice withheld", o.FeatureChoice, strings.Join(names, ", "))
	return keep
}

func departure(o *tuneOp, v *tuneVariant, ts []int, cfg *tuneConfig) tuneDecision {
	var parts []string
	for _, t := range ts {
		if r := v.at(t); r != nil && r.Ratio != nil {
			parts = append(parts, fmt.Sprintf("%s of %s's ns/op at %d goroutine(s)", ratioShort(*r.Ratio), o.FeatureChoice, t))
		}
	}
	return tuneDecision{Variant: v.Name, Change: true,
		Why: fmt.Sprintf("use %s: %s; faster by more than %.0f%% with %v%% confidence for the %s workload", v.Name, strings.Join(parts, ", "), 100*cfg.minGain, confidence, cfg.workload)}
}

// ratioShort is "0.62× [0.55, 0.70]".
func ratioShort(r ratioJSON) string {
	if math.IsNaN(float64(r.Lo)) {
		return fmt.Sprintf("%.2f×", float64(r.Ratio))
	}
	return fmt.Sprintf("%.2f× [%.2f, %.2f]", float64(r.Ratio), float64(r.Lo), float64(r.Hi))
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}

// gohalLine is the override for the decisions: op=variant for each
// departure, in the ops' order, then op=portable for every op of a group
// that departs to portable (which replaces the per-op choices of its
// ops).
func gohalLine(ops []*tuneOp, groups []*tuneGroup) string {
	var items []string
	portable := map[string]bool{}
	for _, g := range groups {
		if g.Decision.Change {
			for _, op := range g.Ops {
				portable[op] = true
			}
		}
	}
	for _, o := range ops {
		if o.Decision.Change && !portable[o.Op] {
			items = append(items, o.Op+"="+o.Decision.Variant)
		}
	}
	for _, g := range groups {
		if g.Decision.Change {
			for _, op := range g.Ops {
				items = append(items, op+"="+portableVariant)
			}
		}
	}
	return strings.Join(items, ",")
}

// runTune implements `halbench tune`.
func runTune(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseTuneArgs(args)
	if code, done := argsDone(stderr, "tune", tuneUsage, err); done {
		return code
	}
	if cfg.worker != "" {
		return exitFor(stderr, "halbench tune -worker", runWorker(cfg, stdout))
	}
	if cfg.checkSet {
		return runCheckCmd(cfg, stdout, stderr)
	}
	return exitFor(stderr, "halbench tune", writeOut(stdout, cfg.json, measureTune(cfg, stderr), writeTuneText))
}

// measureTune measures what cfg asks (hal's ops and groups, the kit
// unless -kit=false, and the check of the resulting line unless -quick),
// with progress on stderr (a status line on a terminal, else a line per
// op, group and kit kind as it starts), and returns the report: halbench
// tune and halbench results both tune through it.
func measureTune(cfg *tuneConfig, stderr io.Writer) *tuneReport {
	start := time.Now()
	hal.CycleFrequency()
	cyclebench.Calibrate()
	ops, groups, notTuned := discoverAll(cfg.threads)
	var progress func(done, total int, what string)
	terminal := isTerminal(stderr)
	if terminal {
		progress = func(done, total int, what string) {
			fmt.Fprintf(stderr, "\r\033[K[%3d%%] %s", done*100/max(total, 1), what)
		}
	}
	// measurer is harnessMeasurer, which on a log (not a terminal) also
	// prints a line as each op, group or kit kind starts.
	measurer := func(n int, budget func() time.Duration) tuneMeasurer {
		m := harnessMeasurer(cfg, budget, progress)
		if !terminal {
			m = sectionMeasurer(sectionLogger(stderr, "halbench tune"), n, m)
		}
		return m
	}
	// Share a budget from start among the n measurements still to make
	// (none with -quick).
	share := func(start time.Time, total time.Duration, n int) func() time.Duration {
		return func() time.Duration {
			if cfg.quick {
				return 0
			}
			d := (total - time.Since(start)) / time.Duration(max(n, 1))
			n--
			return max(d, time.Millisecond)
		}
	}
	rep := tuneWith(cfg, ops, groups, measurer(measuredOps(ops, groups), share(start, tuneBudget, len(ops)+len(groups))))
	if cfg.kit {
		kit := discoverKit(kitThreads())
		runKit(kit, measurer(len(kit), share(time.Now(), kitBudget, len(kit))))
		rep.Kit = kit
	}
	if terminal {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if !cfg.quick {
		applyCheck(rep, func(line string) *checkReport { return checkLine(cfg, line) })
	}
	rep.Elapsed = time.Since(start).Seconds()
	rep.NotTuned = notTuned
	return rep
}

// applyCheck checks rep.GOHAL with check, withdraws the settings the
// check blames, and checks what is left again, until a line passes or
// nothing is left: the line printed holds only settings that survived a
// check of that very line.
func applyCheck(rep *tuneReport, check func(line string) *checkReport) {
	var withdrawn []string
	for line := rep.GOHAL; line != ""; {
		c := check(line)
		if rep.Check == nil {
			rep.Check = c
		} else {
			rep.Rechecks = append(rep.Rechecks, c)
		}
		if len(c.Withdraw) == 0 {
			break
		}
		var keep []string
		for _, p := range strings.Split(line, ",") {
			if i := slices.IndexFunc(c.Withdraw, func(w *checkSetting) bool { return w.Setting == p }); i >= 0 {
				withdrawn = append(withdrawn, p)
				rep.WithdrawnWhy = append(rep.WithdrawnWhy, c.Withdraw[i])
			} else {
				keep = append(keep, p)
			}
		}
		if len(keep) == len(strings.Split(line, ",")) {
			// Blame that names no setting of the line: withdraw all
			// rather than print a line that made something slower.
			for _, p := range keep {
				withdrawn = append(withdrawn, p)
				rep.WithdrawnWhy = append(rep.WithdrawnWhy, &checkSetting{Setting: p, Why: "the line made something slower: " + strings.Join(c.Harm, ", ")})
			}
			keep = nil
		}
		line = strings.Join(keep, ",")
		rep.GOHAL = line
	}
	rep.Withdrawn = strings.Join(withdrawn, ",")
}

// tuneWith measures ops with m, decides, and returns the report.
func tuneWith(cfg *tuneConfig, ops []*tuneOp, groups []*tuneGroup, m tuneMeasurer) *tuneReport {
	runTuneOps(cfg, ops, groups, m)
	return &tuneReport{
		Tool: "halbench tune", GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		GOMAXPROCS: gomaxprocs(), Machine: buildFeaturesReport(), Workload: cfg.workload, MinGain: cfg.minGain,
		Threads: cfg.threads, Count: cfg.count, SampleTime: cfg.sampleTimeText(), Quick: cfg.quick,
		Confidence: confidence, Rule: ruleName, Ops: append([]*tuneOp{}, ops...), Groups: append([]*tuneGroup{}, groups...),
		GOHAL: gohalLine(ops, groups), GOHALBefore: os.Getenv(dispatch.EnvVar), Kit: []*kitReport{},
	}
}

// writeTuneText prints the tune report for people.
func writeTuneText(w io.Writer, r *tuneReport) error {
	var b strings.Builder
	f := r.Machine.Features.Features
	fmt.Fprintf(&b, "halbench tune: %s %s/%s, GOMAXPROCS %d; %s (features: %s)\n", r.GoVersion, r.GOOS, r.GOARCH, r.GOMAXPROCS, f.Brand, strings.Join(f.Names(), " "))
	fmt.Fprintf(&b, "workload %s, min gain %.0f%%, goroutines %s; %d samples of %s per variant and goroutine count, interleaved after a warm-up\n",
		r.Workload, 100*r.MinGain, joinInts(r.Threads), r.Count, r.SampleTime)
	fmt.Fprintf(&b, "significant: the %v%% %s of the ratio to the feature choice excludes 1\n", r.Confidence, ruleName)
	if r.Quick {
		b.WriteString("-quick: a smoke test with few short samples, not advice\n")
	}
	if r.GOHALBefore != "" {
		fmt.Fprintf(&b, "The environment sets GOHAL to %q: every variant is compared with the feature choice all the same, and the line at the end replaces it\n", r.GOHALBefore)
	}
	if len(r.Ops) == 0 {
		b.WriteString("\nNo op has more than one variant this CPU can run: nothing to tune.\n")
	}
	for _, o := range r.Ops {
		fmt.Fprintf(&b, "\n%s: feature choice %s (%s); timed: %s\n", o.Op, o.FeatureChoice, o.FeatureReason, o.Body)
		if o.Error != "" {
			fmt.Fprintf(&b, "  %s\n", o.Error)
		}
		fmt.Fprintf(&b, "  %-14s %7s %9s %9s  %s\n", "variant", "threads", "ns/op", "cycles/op", "vs "+o.FeatureChoice)
		for _, v := range o.Variants {
			if v.Error != "" {
				fmt.Fprintf(&b, "  %-14s %s\n", v.Name, v.Error)
				continue
			}
			for _, res := range v.Results {
				cell := "feature choice"
				if res.Ratio != nil {
					cell = ratioCell(*res.Ratio)
				}
				fmt.Fprintf(&b, "  %-14s %7d %9s %9s  %s\n", v.Name, res.Threads, num(float64(res.NsPerOp.Median)), num(float64(res.CyclesPerOp.Median)), cell)
			}
		}
		fmt.Fprintf(&b, "  → %s\n", o.Decision.Why)
	}
	for _, g := range r.Groups {
		fmt.Fprintf(&b, "\n%s, one group (all hardware or all portable): hardware is", strings.Join(g.Ops, ", "))
		for _, op := range g.Ops {
			fmt.Fprintf(&b, " %s=%s", op, g.Hardware[op])
		}
		b.WriteString("; timed through Uint128's methods on one shared word\n")
		if g.Error != "" {
			fmt.Fprintf(&b, "  %s\n", g.Error)
		}
		if len(g.Results) > 0 {
			fmt.Fprintf(&b, "  %-9s %-9s %7s %9s %9s  %s\n", "side", "body", "threads", "ns/op", "cycles/op", "vs hardware")
		}
		for _, res := range g.Results {
			cell := "-"
			if res.Ratio != nil {
				cell = ratioCell(*res.Ratio)
			}
			fmt.Fprintf(&b, "  %-9s %-9s %7d %9s %9s  %s\n", res.Side, res.Body, res.Threads, num(float64(res.NsPerOp.Median)), num(float64(res.CyclesPerOp.Median)), cell)
		}
		fmt.Fprintf(&b, "  → %s\n", g.Decision.Why)
	}
	if len(r.NotTuned) > 0 {
		fmt.Fprintf(&b, "\nNot tuned, fewer than two variants run here: %s.\n", strings.Join(r.NotTuned, "; "))
	}
	if len(r.Kit) > 0 {
		fmt.Fprintf(&b, "\nThe kit on this machine, at %s goroutines (the same rule: \"use X\" only when X is significantly faster than every other; ties named as ties):\n", joinInts(r.Kit[0].threads()))
		writeKitText(&b, r.Kit)
		b.WriteString("\nAdvice for this machine:\n")
		for _, kr := range r.Kit {
			fmt.Fprintf(&b, "  %s\n", kr.Overall)
		}
	}
	if r.Check != nil {
		writeCheckText(&b, r.Check)
	}
	for _, c := range r.Rechecks {
		writeCheckText(&b, c)
	}
	b.WriteString("\n")
	for _, w := range r.WithdrawnWhy {
		fmt.Fprintf(&b, "Withdrawn: %s: %s.\n", w.Setting, w.Why)
	}
	if r.Withdrawn != "" && r.GOHAL == "" {
		b.WriteString("No setting survived the check: the feature choices stand. The line to paste is empty:\n")
	} else if r.Withdrawn != "" {
		b.WriteString("Paste this, what survived the check, into the environment of the program (it overrides the feature choice at init):\n")
	} else if r.GOHAL == "" {
		b.WriteString("Nothing to change: the feature choices stand. The line to paste is empty:\n")
	} else if r.GOHAL != "" {
		b.WriteString("Paste this into the environment of the program (it overrides the feature choice at init):\n")
	}
	fmt.Fprintf(&b, "GOHAL=%s\n", r.GOHAL)
	_, err := io.WriteString(w, b.String())
	return err
}
