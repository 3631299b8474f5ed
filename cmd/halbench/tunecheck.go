package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// tune -check LINE: apply a GOHAL line the way a user does, in the
// environment of a new process, and re-measure every op whose choice it
// changes, directly or by taking it along (a 128-bit op's portable variant
// takes the group with it), against a process without GOHAL. The two
// sides run as worker processes in ABBA order, each timing the ops through
// hal's exported functions as bound at init (Uint128's methods for the
// 128-bit ops). An op significantly slower under the line, by the report's
// one rule, is harm; tune runs this check on its own line before printing
// it (unless -quick) and withdraws a line that does harm.

// selfCommand returns a command running this program with args; the tests
// replace it to re-exec the test binary.
var selfCommand = func(args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.Command(exe, args...), nil
}

// checkReport is what -check measured and found.
type checkReport struct {
	Line string `json:"line"`
	// Before and After are the choices without GOHAL and with the line.
	Before map[string]string `json:"before"`
	After  map[string]string `json:"after"`
	// Ops are the ops whose choice the line changes, and the results.
	Ops     []string       `json:"ops"`
	Results []*checkResult `json:"results"`
	// Harm names the ops significantly slower under the line.
	Harm  []string `json:"harm"`
	Error string   `json:"error,omitempty"`
}

// checkResult is one op at one thread count, before and after.
type checkResult struct {
	Op      string     `json:"op"`
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
	if cfg.worker != "-" {
		var benchs []suite.Benchmark
		for _, op := range strings.Split(cfg.worker, ",") {
			body, err := boundBody(op, cfg.threads)
			if err != nil {
				return err
			}
			for _, t := range cfg.threads {
				benchs = append(benchs, suite.Benchmark{Name: checkBenchName(op, t), Section: "Check", Threads: t, F: body(t)})
			}
		}
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
	if cfg.sampleIters > 0 {
		return strconv.Itoa(cfg.sampleIters) + "x"
	}
	return cfg.sampleTime.String()
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

// checkLine applies line in new processes and re-measures what it
// changes: launches workers per side, in ABBA order.
func checkLine(cfg *tuneConfig, line string) *checkReport {
	rep := &checkReport{Line: line, Results: []*checkResult{}, Harm: []string{}, Ops: []string{}}
	if _, err := dispatch.ParseOverride(line); err != nil {
		rep.Error = err.Error()
		return rep
	}
	before, err := runSide("", false, []string{"-"})
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	after, err := runSide(line, true, []string{"-"})
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	rep.Before, rep.After = before.Selected, after.Selected
	for _, op := range haltool.Ops() {
		if rep.Before[op] != rep.After[op] {
			rep.Ops = append(rep.Ops, op)
		}
	}
	if len(rep.Ops) == 0 {
		return rep
	}
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
	for i := range 2 * launches {
		side := (i + i/2) % 2 // 0 1 1 0 0 1 1 0: ABBA
		w, err := runSide(line, side == 1, args)
		if err != nil {
			rep.Error = err.Error()
			return rep
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
		rc := compareRatio(b, a, confidence/100.0)
		r.Ratio = &ratioJSON{jnum(rc.Ratio), jnum(rc.Lo), jnum(rc.Hi), rc.Significant}
		r.Slower = rc.Significant && rc.Ratio > 1
		if r.Slower && !slices.Contains(rep.Harm, r.Op) {
			rep.Harm = append(rep.Harm, r.Op)
		}
	}
	return rep
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
	fmt.Fprintf(b, " it changes %s (timed through hal's exported functions)\n", strings.Join(changes, ", "))
	fmt.Fprintf(b, "  %-12s %7s %9s %9s  %s\n", "op", "threads", "before", "after", "after/before")
	for _, r := range c.Results {
		fmt.Fprintf(b, "  %-12s %7d %9s %9s  %s\n", r.Op, r.Threads, num(float64(r.Before.Median)), num(float64(r.After.Median)), ratioCell(*r.Ratio))
	}
	if len(c.Harm) > 0 {
		fmt.Fprintf(b, "  → harmful: %s significantly slower under the line\n", strings.Join(c.Harm, ", "))
	} else {
		b.WriteString("  → no op significantly slower under the line\n")
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
		_, err = io.WriteString(stdout, strings.TrimPrefix(b.String(), "\n"))
	}
	if err != nil {
		fmt.Fprintln(stderr, "halbench tune:", err)
		return 1
	}
	if c.Error != "" || len(c.Harm) > 0 {
		return 1
	}
	return 0
}
