package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// tune -check LINE: apply a GOHAL line the way a user does, in the
// environment of a new process, and re-measure every op whose choice it
// changes, directly or by taking it along (a 128-bit op's portable variant
// takes the group with it), and every kit type whose code runs one of
// those ops (kitTypeOps: the RW lock, also under a timer-driven writer,
// for fenceheavy), against a process without GOHAL. A kit type is
// re-measured in new processes because some read a choice once at init
// (percpu.RWMutex biases toward readers only under membarrier): an op
// timed alone, or forced in one process, cannot show what the line does
// to them. The two sides run as worker processes in ABBA order. An op or
// kit type significantly slower under the line, by the report's one rule,
// is harm; every setting of the line that changes an op it runs is
// withdrawn. tune runs this check on its own line before printing it
// (unless -quick), re-checks what is left, and prints only settings that
// survived.

// selfCommand returns a command running this program with args, through
// the emulator GOHAL_TEST_EXEC names if set (testexec: `go run -exec
// qemu-…` runs halbench under qemu-user, whose binary the kernel may not
// run directly); the tests replace it to re-exec the test binary.
var selfCommand = func(args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return testexec.Command(exe, args...), nil
}

// checkReport is what -check measured and found.
type checkReport struct {
	Line string `json:"line"`
	// Before and After are the choices without GOHAL and with the line.
	Before map[string]string `json:"before"`
	After  map[string]string `json:"after"`
	// Ops are the ops whose choice the line changes, KitTypes the kit
	// types that run one of them, and Results both re-measured.
	Ops      []string       `json:"ops"`
	KitTypes []string       `json:"kit_types"`
	Results  []*checkResult `json:"results"`
	// Settings are the line's op=variant settings, each with the ops it
	// changes alone (itself and what it takes along).
	Settings []*checkSetting `json:"settings"`
	// Harm names the ops and kit types significantly slower under the
	// line.
	Harm []string `json:"harm"`
	// Withdraw are the settings that change an op a harmed op or kit
	// type runs, each with why.
	Withdraw []*checkSetting `json:"withdraw"`
	Error    string          `json:"error,omitempty"`
}

// checkSetting is one op=variant of a line.
type checkSetting struct {
	Setting string   `json:"setting"`
	Changes []string `json:"changes"`
	Why     string   `json:"why,omitempty"`
}

// checkResult is one op, or one kit type's benchmark, at one thread
// count, before and after.
type checkResult struct {
	Op      string     `json:"op,omitempty"`
	KitType string     `json:"kit_type,omitempty"`
	Bench   string     `json:"benchmark,omitempty"`
	Threads int        `json:"threads"`
	Before  summary    `json:"ns_per_op_before"`
	After   summary    `json:"ns_per_op_after"`
	Ratio   *ratioJSON `json:"ratio_after_to_before"`
	Slower  bool       `json:"significantly_slower"`
	samples [2][]sample
}

// workerReport is what a worker prints.
type workerReport struct {
	Selected map[string]string   `json:"selected"`
	Samples  map[string][]sample `json:"samples"`
}

func checkBenchName(op string, threads int) string {
	return fmt.Sprintf("Check/op=%s/threads=%d", op, threads)
}

// runWorker implements the hidden tune -worker OPS: time each op of OPS
// ("-" for none) as bound at init and print a workerReport.
func runWorker(cfg *tuneConfig, stdout io.Writer) error {
	rep := workerReport{Selected: selectedMap(), Samples: map[string][]sample{}}
	benchs, err := workerBenchs(cfg)
	if err != nil {
		return err
	}
	if len(benchs) > 0 {
		cyclebench.Calibrate()
		h := &harness{sampleTime: cfg.sampleTime, iters: cfg.sampleIters, minSample: minSampleTime, count: cfg.samples}
		s, err := h.measure(benchs)
		if err != nil {
			return err
		}
		rep.Samples = s
	}
	return json.NewEncoder(stdout).Encode(rep)
}

// workerBenchs returns what a worker times: each op of cfg.worker ("-"
// for none) at each thread count, and each kit benchmark of
// cfg.workerKit.
func workerBenchs(cfg *tuneConfig) ([]suite.Benchmark, error) {
	var benchs []suite.Benchmark
	if cfg.worker != "-" {
		for _, op := range strings.Split(cfg.worker, ",") {
			body, err := boundBody(op, cfg.threads)
			if err != nil {
				return nil, err
			}
			for _, t := range cfg.threads {
				benchs = append(benchs, suite.Benchmark{Name: checkBenchName(op, t), Section: "Check", Threads: t, F: body(t)})
			}
		}
	}
	if cfg.workerKit != "" {
		for _, name := range strings.Split(cfg.workerKit, ",") {
			f, t, err := kitCheckBody(name)
			if err != nil {
				return nil, err
			}
			benchs = append(benchs, suite.Benchmark{Name: name, Section: "Check", Threads: t, F: f})
		}
	}
	return benchs, nil
}

// boundBody is what the check times for op: Uint128's method for the
// 128-bit ops, else what tune times (the suite's body of hal's exported
// function, or the row of haltool.Table()), for the variant bound at init.
func boundBody(op string, threads []int) (func(int) func(*testing.B), error) {
	if slices.Contains([]string{"load128", "store128", "cas128"}, op) {
		return func(t int) func(*testing.B) { return api128Body(op, t) }, nil
	}
	v, ok := selectedMap()[op]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", op)
	}
	o := &tuneOp{Op: op, Variants: []*tuneVariant{{Name: v}}}
	attachBodies(o, threads)
	if o.Error != "" {
		return nil, fmt.Errorf("%s: %s", op, o.Error)
	}
	return o.loops[v], nil
}

// benchtimeArg is -benchtime for a worker: the sample time, or Nx.
func (cfg *tuneConfig) benchtimeArg() string {
	return (&benchtimeValue{d: cfg.sampleTime, iters: cfg.sampleIters}).String()
}

// runSide runs one worker with GOHAL set to line (unset when gohal is
// false).
func runSide(line string, gohal bool, args []string) (*workerReport, error) {
	cmd, err := selfCommand(append([]string{"tune", "-worker"}, args...))
	if err != nil {
		return nil, err
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(e string) bool { return strings.HasPrefix(e, dispatch.EnvVar+"=") })
	if gohal {
		env = append(env, dispatch.EnvVar+"="+line)
	}
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("worker (GOHAL=%q): %v: %s", line, err, strings.TrimSpace(errb.String()))
	}
	var rep workerReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("worker output: %v", err)
	}
	return &rep, nil
}

// checkRunner runs one worker process: with GOHAL set to line when gohal
// is true, unset otherwise, and args after "tune -worker". runSide is the
// real one; tests inject measurements through a fake.
type checkRunner func(line string, gohal bool, args []string) (*workerReport, error)

// checkLine applies line in new processes and re-measures what it
// changes: the ops and the kit types that run them (kitTypeOps).
func checkLine(cfg *tuneConfig, line string) *checkReport {
	return checkLineWith(cfg, line, runSide, kitTypeOps)
}

// checkLineWith is checkLine with the workers run by run and the kit
// types' ops from typeOps. It learns from a worker per setting (which
// times nothing) which ops each setting changes, then launches measuring
// workers per side in ABBA order, and names the settings to withdraw.
func checkLineWith(cfg *tuneConfig, line string, run checkRunner, typeOps map[string][]string) *checkReport {
	rep := &checkReport{Line: line, Results: []*checkResult{}, Harm: []string{}, Ops: []string{}, KitTypes: []string{},
		Settings: []*checkSetting{}, Withdraw: []*checkSetting{}}
	fail := func(err error) *checkReport {
		rep.Error = err.Error()
		// Nothing unchecked is advised: every setting goes.
		rep.Withdraw = rep.Withdraw[:0]
		for _, p := range strings.Split(line, ",") {
			rep.Withdraw = append(rep.Withdraw, &checkSetting{Setting: p, Why: "the check could not run: " + rep.Error})
		}
		return rep
	}
	over, err := dispatch.ParseOverride(line)
	if err != nil {
		return fail(err)
	}
	before, err := run("", false, []string{"-"})
	if err != nil {
		return fail(err)
	}
	after, err := run(line, true, []string{"-"})
	if err != nil {
		return fail(err)
	}
	rep.Before, rep.After = before.Selected, after.Selected
	changed := func(sel map[string]string) []string {
		var ops []string
		for _, op := range slices.Sorted(maps.Keys(rep.Before)) {
			if rep.Before[op] != sel[op] {
				ops = append(ops, op)
			}
		}
		return ops
	}
	rep.Ops = orderOps(changed(rep.After))
	for _, p := range over {
		setting := p.Op + "=" + p.Variant
		cs := &checkSetting{Setting: setting, Changes: rep.Ops}
		if len(over) > 1 {
			w, err := run(setting, true, []string{"-"})
			if err != nil {
				return fail(err)
			}
			cs.Changes = orderOps(changed(w.Selected))
		}
		rep.Settings = append(rep.Settings, cs)
	}
	if len(rep.Ops) == 0 {
		return rep
	}
	kitTypes, kitBenchs := kitUsers(rep.Ops, typeOps, kitThreads())
	rep.KitTypes = append(rep.KitTypes, kitTypes...)
	launches := 4
	if cfg.quick {
		launches = 2
	}
	per := max((cfg.count+launches-1)/launches, 1)
	args := []string{strings.Join(rep.Ops, ","), "-threads", joinInts(cfg.threads), "-samples", strconv.Itoa(per), "-benchtime", cfg.benchtimeArg()}
	results := map[string]*checkResult{}
	for _, op := range rep.Ops {
		for _, t := range cfg.threads {
			r := &checkResult{Op: op, Threads: t}
			results[checkBenchName(op, t)] = r
			rep.Results = append(rep.Results, r)
		}
	}
	var kitNames []string
	for _, kt := range kitTypes {
		for _, name := range kitBenchs[kt] {
			r := &checkResult{KitType: kt, Bench: name, Threads: benchThreads(name)}
			results[name] = r
			rep.Results = append(rep.Results, r)
			kitNames = append(kitNames, name)
		}
	}
	if len(kitNames) > 0 {
		args = append(args, "-kitbench", strings.Join(kitNames, ","))
	}
	for i := range 2 * launches {
		side := (i + i/2) % 2 // 0 1 1 0 0 1 1 0: ABBA
		w, err := run(line, side == 1, args)
		if err != nil {
			return fail(err)
		}
		for name, ss := range w.Samples {
			if r := results[name]; r != nil {
				r.samples[side] = append(r.samples[side], ss...)
			}
		}
	}
	for _, r := range rep.Results {
		b, a := nsOf(r.samples[0]), nsOf(r.samples[1])
		r.Before, r.After = summarize(b), summarize(a)
		r.Ratio = ratioOf(b, a)
		r.Slower = r.Ratio.Significant && r.Ratio.Ratio > 1
		if r.Slower && !slices.Contains(rep.Harm, r.name()) {
			rep.Harm = append(rep.Harm, r.name())
		}
	}
	// Withdraw every setting that changes an op a harmed op or kit type
	// runs, naming the harm with its figures.
	for _, cs := range rep.Settings {
		var why []string
		for _, r := range rep.Results {
			if !r.Slower {
				continue
			}
			runs := []string{r.Op}
			if r.KitType != "" {
				runs = typeOps[r.KitType]
			}
			var via []string
			for _, op := range cs.Changes {
				if slices.Contains(runs, op) {
					via = append(via, op)
				}
			}
			if len(via) > 0 {
				why = append(why, fmt.Sprintf("%s %s→%s ns/op, %s (it changes %s)", r.label(), num(float64(r.Before.Median)), num(float64(r.After.Median)),
					ratioShort(*r.Ratio), strings.Join(via, ", ")))
			}
		}
		if len(why) > 0 {
			rep.Withdraw = append(rep.Withdraw, &checkSetting{Setting: cs.Setting, Changes: cs.Changes,
				Why: "significantly slower under the line: " + strings.Join(why, "; ")})
		}
	}
	return rep
}

// orderOps puts ops in hal's order.
func orderOps(ops []string) []string {
	var out []string
	for _, op := range haltool.Ops() {
		if slices.Contains(ops, op) {
			out = append(out, op)
		}
	}
	for _, op := range ops { // not hal's (a test's fake)
		if !slices.Contains(out, op) {
			out = append(out, op)
		}
	}
	return out
}

// benchThreads is the goroutine count in a benchmark's name.
func benchThreads(name string) int {
	v, _ := cutElement(name, "threads")
	n, _ := strconv.Atoi(v)
	return n
}

// name is what a harmed result names: its op or its kit type.
func (r *checkResult) name() string {
	if r.KitType != "" {
		return r.KitType
	}
	return r.Op
}

// label is the result in text: "fenceheavy at 2" or "percpu.RWMutex
// (RWLock/kind=percpu/threads=8/writer=1ms)".
func (r *checkResult) label() string {
	if r.KitType != "" {
		return fmt.Sprintf("%s (%s)", r.KitType, r.Bench)
	}
	return fmt.Sprintf("%s at %d", r.Op, r.Threads)
}

// writeCheckText prints a check.
func writeCheckText(b *strings.Builder, c *checkReport) {
	fmt.Fprintf(b, "\nGOHAL=%s applied in a new process, against one without GOHAL:", c.Line)
	if c.Error != "" {
		fmt.Fprintf(b, " could not check: %s\n", c.Error)
		return
	}
	if len(c.Ops) == 0 {
		b.WriteString(" it changes no op's choice.\n")
		return
	}
	var changes []string
	for _, op := range c.Ops {
		changes = append(changes, fmt.Sprintf("%s %s → %s", op, c.Before[op], c.After[op]))
	}
	fmt.Fprintf(b, " it changes %s (timed through hal's exported functions)", strings.Join(changes, ", "))
	if len(c.KitTypes) > 0 {
		fmt.Fprintf(b, ";\n  the kit types that run them, re-measured: %s", strings.Join(c.KitTypes, ", "))
	}
	b.WriteString("\n")
	w := len("op or kit type (benchmark)")
	for _, r := range c.Results {
		w = max(w, len(r.label()))
	}
	fmt.Fprintf(b, "  %-*s %9s %9s  %s\n", w, "op or kit type (benchmark)", "before", "after", "after/before")
	for _, r := range c.Results {
		fmt.Fprintf(b, "  %-*s %9s %9s  %s\n", w, r.label(), num(float64(r.Before.Median)), num(float64(r.After.Median)), ratioCell(*r.Ratio))
	}
	if len(c.Harm) > 0 {
		fmt.Fprintf(b, "  → harmful: %s significantly slower under the line\n", strings.Join(c.Harm, ", "))
	} else {
		b.WriteString("  → no op or kit type significantly slower under the line\n")
	}
}

// runCheckCmd implements tune -check LINE.
func runCheckCmd(cfg *tuneConfig, stdout, stderr io.Writer) int {
	start := time.Now()
	c := checkLine(cfg, cfg.check)
	var err error
	if cfg.json {
		err = writeJSONValue(stdout, struct {
			*checkReport
			Elapsed float64 `json:"elapsed_seconds"`
		}{c, time.Since(start).Seconds()})
	} else {
		var b strings.Builder
		writeCheckText(&b, c)
		for _, w := range c.Withdraw {
			fmt.Fprintf(&b, "  → tune would withdraw %s: %s\n", w.Setting, w.Why)
		}
		_, err = io.WriteString(stdout, strings.TrimPrefix(b.String(), "\n"))
	}
	if err != nil || c.Error != "" || len(c.Harm) > 0 || len(c.Withdraw) > 0 {
		return max(exitFor(stderr, "halbench tune", err), 1)
	}
	return 0
}
