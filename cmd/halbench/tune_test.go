package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// TestHalbenchChild is not a test: a child process started by runChild
// runs halbench's main with the arguments in HALBENCH_CHILD_ARGS.
func TestHalbenchChild(t *testing.T) {
	args, ok := os.LookupEnv("HALBENCH_CHILD_ARGS")
	if !ok {
		t.Skip("only a child process runs this")
	}
	os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
}

// The checks of tune -check start workers through selfCommand: in the
// test binary, that is the binary itself running TestHalbenchChild.
func init() {
	selfCommand = func(args []string) (*exec.Cmd, error) {
		cmd := testexec.Self("-test.run=^TestHalbenchChild$")
		cmd.Env = append(os.Environ(), "HALBENCH_CHILD_ARGS="+strings.Join(args, " "))
		return cmd, nil
	}
}

// runChild runs halbench in a new process (the test binary itself) with
// extra environment, so that GOHAL is read at init. Under qemu-user
// without binfmt_misc set GOHAL_TEST_EXEC to the emulator command.
func runChild(t *testing.T, args string, env ...string) (string, string, int) {
	t.Helper()
	cmd := testexec.Self("-test.run=^TestHalbenchChild$")
	cmd.Env = append(append(os.Environ(), "HALBENCH_CHILD_ARGS="+args), env...)
	return testexec.Run(t, cmd)
}

func TestTuneUsage(t *testing.T) {
	for _, args := range [][]string{
		{"tune", "-workload", "busy"}, {"tune", "-min-gain", "x"}, {"tune", "-min-gain", "-1"},
		{"tune", "-count", "3"}, {"tune", "-threads", "0"}, {"tune", "extra"}, {"tune", "-benchtime", "0s"},
		{"tune", "-workload", "contended", "-threads", "1"},
	} {
		code, out, errOut := runHalbench(t, args...)
		checkUsageError(t, args, code, out, errOut, "tune", "")
	}
	if code, _, errOut := runHalbench(t, "tune", "-h"); code != 0 || !strings.Contains(errOut, "-min-gain") {
		t.Errorf("tune -h: exit %d, %q", code, errOut)
	}
	cfg, err := parseTuneArgs([]string{"-min-gain", "7.5%"})
	if err != nil || cfg.minGain != 0.075 || cfg.workload != "mixed" || cfg.threads[0] != 1 {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
}

// fakeOp is an op "fake" whose feature choice is "a", with the given other
// variants; failing ones carry an error as a variant haltool.Force refused would.
func fakeOp(variants []string, failing ...string) *tuneOp {
	o := &tuneOp{Op: "fake", FeatureChoice: "a", FeatureReason: "preferred", Body: "fake",
		loops: map[string]func(int) func(*testing.B){}}
	for _, v := range append([]string{"a"}, variants...) {
		tv := &tuneVariant{Name: v}
		for _, f := range failing {
			if f == v {
				tv.Error = "not runnable here: the CPU lacks magic"
			}
		}
		o.Variants = append(o.Variants, tv)
		o.loops[v] = func(int) func(*testing.B) { return nil }
	}
	return o
}

// fakeMeasurer returns, for each contestant, count samples of
// level(variant, threads)·(1 + noise·N(0,1)), deterministically.
func fakeMeasurer(count int, noise float64, level func(variant string, threads int) float64) tuneMeasurer {
	return fakeByName(count, noise, func(bm suite.Benchmark) float64 {
		v, _ := cutElement(bm.Name, "variant")
		return level(v, bm.Threads)
	})
}

// fakeByName is fakeMeasurer with the level a function of the whole
// benchmark.
func fakeByName(count int, noise float64, level func(bm suite.Benchmark) float64) tuneMeasurer {
	return func(benchs []suite.Benchmark) (map[string][]sample, error) {
		rng := rand.New(rand.NewPCG(7, 7))
		out := map[string][]sample{}
		for _, bm := range benchs {
			for range count {
				ns := level(bm) * (1 + noise*rng.NormFloat64())
				out[bm.Name] = append(out[bm.Name], sample{Iters: 1000, NsPerOp: ns, Metrics: map[string]float64{cyclebench.CyclesUnit: 2 * ns}})
			}
		}
		return out, nil
	}
}

// TestTuneDecisions is the decision logic of issue 14 with a fake
// measurer: no departure without significance and gain, ties keep the
// feature choice, a variant that fails is reported and never chosen.
func TestTuneDecisions(t *testing.T) {
	type tc struct {
		name     string
		others   []string
		failing  []string
		workload string
		noise    float64
		level    map[string][2]float64 // variant → ns at 1 and 2 goroutines
		want     string                // the variant recommended ("a": keep)
		why      string                // a word the reason must hold
	}
	cases := []tc{
		{"tie", []string{"b"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {10, 20}}, "a", "no gain over 5% proven"},
		{"clear gain", []string{"b"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {7, 14}}, "b", "faster by more than 5%"},
		{"significant but below min-gain", []string{"b"}, nil, "mixed", 0.002, map[string][2]float64{"a": {10, 20}, "b": {9.8, 19.6}}, "a", "no gain over 5% proven"},
		{"gain hidden by noise", []string{"b"}, nil, "mixed", 0.6, map[string][2]float64{"a": {10, 20}, "b": {8, 16}}, "a", "keep a"},
		{"slower", []string{"b"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {15, 30}}, "a", "(slower)"},
		{"mixed: faster alone, slower contended", []string{"b"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {7, 30}}, "a", "slower at another"},
		{"uncontended: the same numbers", []string{"b"}, nil, "uncontended", 0.01, map[string][2]float64{"a": {10, 20}, "b": {7, 30}}, "b", "uncontended workload"},
		{"contended: the same numbers", []string{"b"}, nil, "contended", 0.01, map[string][2]float64{"a": {10, 20}, "b": {7, 30}}, "a", "(slower)"},
		{"mixed: faster contended only", []string{"b"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {10, 12}}, "b", "use b"},
		{"failing variant never chosen", []string{"b", "c"}, []string{"c"}, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {10, 20}, "c": {1, 2}}, "a", "c not measured (not runnable here"},
		{"two winners, one better", []string{"b", "c"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {6, 12}, "c": {8, 16}}, "b", "use b"},
		{"two equal winners: withheld", []string{"b", "c"}, nil, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {7, 14}, "c": {7, 14}}, "a", "advice withheld"},
		{"feature choice failed", []string{"b"}, []string{"a"}, "mixed", 0.01, map[string][2]float64{"a": {10, 20}, "b": {1, 2}}, "a", "could not be measured"},
	}
	for _, c := range cases {
		cfg := &tuneConfig{workload: c.workload, minGain: 0.05, threads: []int{1, 2}, count: 10}
		o := fakeOp(c.others, c.failing...)
		level := func(v string, t int) float64 { return c.level[v][min(t, 2)-1] }
		rep := tuneWith(cfg, []*tuneOp{o}, nil, fakeMeasurer(10, c.noise, level))
		d := o.Decision
		if d.Variant != c.want || d.Change != (c.want != "a") || !strings.Contains(d.Why, c.why) {
			t.Errorf("%s: decision %+v; want %s with %q in the reason", c.name, d, c.want, c.why)
		}
		wantLine := ""
		if c.want != "a" {
			wantLine = "fake=" + c.want
		}
		if rep.GOHAL != wantLine {
			t.Errorf("%s: GOHAL line %q, want %q", c.name, rep.GOHAL, wantLine)
		}
		for _, f := range c.failing {
			if v := o.variant(f); v.Error == "" || len(v.Results) > 0 {
				t.Errorf("%s: failing variant %s measured: %+v", c.name, f, v)
			}
		}
	}
	// A measurer that fails: the op is reported, nothing changes.
	o := fakeOp([]string{"b"})
	cfg := &tuneConfig{workload: "mixed", minGain: 0.05, threads: []int{1}, count: 10}
	rep := tuneWith(cfg, []*tuneOp{o}, nil, func([]suite.Benchmark) (map[string][]sample, error) {
		return nil, errors.New("the benchmark failed")
	})
	if o.Decision.Change || !strings.Contains(o.Decision.Why, "the benchmark failed") || rep.GOHAL != "" {
		t.Errorf("failing measurer: %+v, line %q", o.Decision, rep.GOHAL)
	}
	var buf bytes.Buffer
	if err := writeTuneText(&buf, rep); err != nil || !strings.Contains(buf.String(), "measuring failed") || !strings.HasSuffix(buf.String(), "\nGOHAL=\n") {
		t.Errorf("text of a failed op:\n%s", buf.String())
	}
}

// tunedOps returns the ops tune finds in this build and CPU, skipping the
// test when there are none (purego and race builds, a CPU with one
// runnable variant per op).
func tunedOps(t *testing.T) []*tuneOp {
	ops, _, _ := discoverAll([]int{1, 2})
	if len(ops) == 0 {
		t.Skip("no op has two runnable variants in this build on this CPU")
	}
	return ops
}

// featuresJSON runs `halbench features -json` in a child with GOHAL=line.
func featuresWith(t *testing.T, line string) featuresReportJSON {
	t.Helper()
	out, errOut, code := runChild(t, "features -json", "GOHAL="+line)
	if code != 0 {
		t.Fatalf("GOHAL=%s halbench features -json: exit %d: %s", line, code, errOut)
	}
	var fr featuresReportJSON
	if err := json.Unmarshal([]byte(out), &fr); err != nil {
		t.Fatalf("features -json: %v\n%s", err, out)
	}
	return fr
}

// checkLineAccepted feeds a GOHAL line from tune back to hal, in a new
// process, and checks that features -json reports each op=variant with the
// override as its reason.
func checkLineAccepted(t *testing.T, line string) {
	t.Helper()
	want, err := dispatch.ParseOverride(line)
	if err != nil {
		t.Fatalf("tune printed a malformed line %q: %v", line, err)
	}
	fr := featuresWith(t, line)
	for _, p := range want {
		op, v := p.Op, p.Variant
		got, ok := fr.Selected[op]
		if !ok || got.Variant == nil || got.Reason == nil || *got.Variant != v || !strings.Contains(*got.Reason, "override GOHAL="+op+"="+v) {
			t.Errorf("GOHAL=%s: features -json reports %s: %+v", line, op, got)
		}
	}
}

// TestTuneLineRoundTrip: with a fake measurer that finds each op's last
// runnable variant 30% faster, tune prints a line departing for every op
// it found, and hal accepts that line (GOHAL override in features -json).
func TestTuneLineRoundTrip(t *testing.T) {
	ops := tunedOps(t)
	faster := map[string]string{}
	for _, o := range ops {
		for _, v := range o.Variants {
			if v.Error == "" && v.Name != o.FeatureChoice {
				faster[o.Op] = v.Name
			}
		}
	}
	cfg := &tuneConfig{workload: "mixed", minGain: 0.05, threads: []int{1, 2}, count: 8}
	rep := tuneWith(cfg, ops, nil, fakeByName(8, 0.01, func(bm suite.Benchmark) float64 {
		op, _ := cutElement(bm.Name, "op")
		v, _ := cutElement(bm.Name, "variant")
		if v == faster[op] {
			return 7 * float64(bm.Threads)
		}
		return 10 * float64(bm.Threads)
	}))
	var want []string
	for _, o := range ops {
		want = append(want, o.Op+"="+faster[o.Op])
	}
	if rep.GOHAL != strings.Join(want, ",") {
		t.Fatalf("GOHAL line %q, want %q", rep.GOHAL, strings.Join(want, ","))
	}
	var buf bytes.Buffer
	writeTuneText(&buf, rep)
	if !strings.HasSuffix(buf.String(), "\nGOHAL="+rep.GOHAL+"\n") {
		t.Errorf("the text does not end in the line:\n%s", buf.String())
	}
	checkLineAccepted(t, rep.GOHAL)
}

// TestTuneQuick runs `halbench tune -quick -json` for real, twice: every
// pair of runnable variants is measured at every thread count, the line is
// accepted by hal, and the two runs do not recommend different variants for
// one op (a recommendation holds or is withheld). Under qemu this is the
// emulation check of issue 14; its numbers mean nothing there.
func TestTuneQuick(t *testing.T) {
	ops := tunedOps(t)
	lines := make([]dispatch.Override, 2)
	if testexec.Emulated() {
		// Under emulation one run proves that tune runs, measures every
		// pair and prints a line hal accepts; the second costs half a
		// minute of CI and its numbers mean nothing there.
		lines = lines[:1]
	}
	for i := range lines {
		code, out, errOut := runHalbench(t, "tune", "-quick", "-json", "-threads", "1,2")
		if code != 0 {
			t.Fatalf("tune -quick: exit %d: %s", code, errOut)
		}
		checkTuneProgress(t, errOut)
		var rep struct {
			GOHAL    string
			NotTuned []string `json:"not_tuned"`
			Ops      []struct {
				Op            string
				FeatureChoice string `json:"feature_choice"`
				Error         string
				Variants      []struct {
					Variant string
					Error   string
					Results []struct {
						Threads int
						NsPerOp struct{ Median *float64 } `json:"ns_per_op"`
						Ratio   *struct{ Ratio *float64 } `json:"ratio_to_feature_choice"`
						Samples []sample
					}
				}
				Decision tuneDecision
			}
			Groups []struct {
				Ops      []string
				Error    string
				Results  []json.RawMessage
				Decision tuneDecision
			}
			Kit []struct {
				Kind      string
				Overall   string
				Questions []struct {
					Threads int
					Advice  string
					Result  adviceResult
					Results []struct {
						Candidate string
						Error     string
						Samples   []sample
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("tune -json: %v\n%.500s", err, out)
		}
		if len(rep.Ops) != len(ops) {
			t.Errorf("%d ops tuned, want %d", len(rep.Ops), len(ops))
		}
		for _, o := range rep.Ops {
			if o.Error != "" {
				t.Errorf("%s: %s", o.Op, o.Error)
			}
			measured := 0
			for _, v := range o.Variants {
				if v.Error != "" {
					continue
				}
				measured++
				if len(v.Results) != 2 {
					t.Errorf("%s/%s: results at %d thread counts, want 2", o.Op, v.Variant, len(v.Results))
				}
				for _, r := range v.Results {
					if len(r.Samples) != 6 || r.NsPerOp.Median == nil || !(*r.NsPerOp.Median > 0) {
						t.Errorf("%s/%s/%d: %d samples, median %v", o.Op, v.Variant, r.Threads, len(r.Samples), r.NsPerOp.Median)
					}
					if (v.Variant == o.FeatureChoice) != (r.Ratio == nil) {
						t.Errorf("%s/%s/%d: ratio %v", o.Op, v.Variant, r.Threads, r.Ratio)
					}
				}
			}
			if measured < 2 {
				t.Errorf("%s: %d variants measured", o.Op, measured)
			}
			if o.Decision.Why == "" || (o.Decision.Variant != o.FeatureChoice) != o.Decision.Change {
				t.Errorf("%s: decision %+v", o.Op, o.Decision)
			}
		}
		// An op with several variants of which fewer than two run here
		// is named, with why.
		for _, op := range haltool.Ops() {
			vs, _ := haltool.Variants(op)
			runnable := 0
			for _, v := range vs {
				if ok, _ := haltool.Runnable(op, v.Name); ok {
					if restore, err := haltool.Force(op, v.Name); err == nil {
						restore()
						runnable++
					}
				}
			}
			named := slices.ContainsFunc(rep.NotTuned, func(n string) bool { return strings.HasPrefix(n, op+" (") })
			if want := len(vs) > 1 && runnable < 2; named != want {
				t.Errorf("%s: %d variants, %d runnable: named as not tuned %v, want %v (%q)", op, len(vs), runnable, named, want, rep.NotTuned)
			}
		}
		// The 128-bit group, where the CPU has hardware variants, is
		// judged whole: 2 sides × 4 bodies × 2 thread counts.
		for _, g := range rep.Groups {
			if g.Error == "" && len(g.Results) != 16 || g.Decision.Why == "" {
				t.Errorf("group %v: %d results, decision %+v, error %q", g.Ops, len(g.Results), g.Decision, g.Error)
			}
		}
		// The kit: every kind, every candidate measured, advice by the rule.
		if len(rep.Kit) != 4 {
			t.Errorf("kit: %d kinds, want 4", len(rep.Kit))
		}
		for _, kr := range rep.Kit {
			if kr.Overall == "" || len(kr.Questions) == 0 {
				t.Errorf("kit %s: overall %q, %d questions", kr.Kind, kr.Overall, len(kr.Questions))
			}
			for _, q := range kr.Questions {
				if q.Advice == "" || q.Result.Verdict == "" || (q.Threads != 1 && q.Threads != 4*gomaxprocs()) {
					t.Errorf("kit %s at %d: advice %q, result %+v", kr.Kind, q.Threads, q.Advice, q.Result)
				}
				for _, r := range q.Results {
					if r.Error != "" || len(r.Samples) != 6 {
						t.Errorf("kit %s/%s at %d: %d samples, error %q", kr.Kind, r.Candidate, q.Threads, len(r.Samples), r.Error)
					}
				}
			}
		}
		checkLineAccepted(t, rep.GOHAL)
		lines[i], _ = dispatch.ParseOverride(rep.GOHAL)
	}
	for i := 1; i < len(lines); i++ {
		for _, p := range lines[0] {
			op, v := p.Op, p.Variant
			if w, ok := lines[i].Lookup(op); ok && w != v {
				t.Errorf("two runs recommend %s=%s and %s=%s", op, v, op, w)
			}
		}
	}
	t.Logf("lines: %v", lines)
}

// TestTuneTableLoops: every op of hal has a row in suite.TableRows, whose
// field is the op's row of haltool.Table() (its Variant is the op's chosen
// one), and whose loop runs and touches the word, so that an op the suite
// has no body for is still timed.
func TestTuneTableLoops(t *testing.T) {
	table := reflect.ValueOf(haltool.Table()).Elem()
	selected := selectedMap()
	x := new(tuneWord)
	for _, op := range haltool.Ops() {
		row, ok := suite.TableRows[op]
		if !ok {
			t.Errorf("%s: no row in suite.TableRows", op)
			continue
		}
		f := table.FieldByName(row.Field)
		if !f.IsValid() {
			t.Errorf("%s: haltool.DispatchTable has no field %s", op, row.Field)
			continue
		}
		if got := f.FieldByName("Variant").String(); got != selected[op] {
			t.Errorf("%s: row %s runs variant %q, hal chose %q", op, row.Field, got, selected[op])
		}
		row.Loop(x)(0, 10)
	}
	if len(suite.TableRows) != len(haltool.Ops()) {
		t.Errorf("suite.TableRows has %d rows, hal %d ops", len(suite.TableRows), len(haltool.Ops()))
	}
	if x.U64 == 0 || x.U32 == 0 || math.IsNaN(float64(x.Uptr)) {
		t.Errorf("the loops did not touch the word: %+v", x)
	}
}

// FuzzParseTuneArgs: any command line is a config that makes sense, a
// usage error or a request for help; never a panic.
func FuzzParseTuneArgs(f *testing.F) {
	for _, s := range []string{"", "-quick", "-workload contended", "-workload busy", "-min-gain 7.5%", "-min-gain NaN",
		"-min-gain 100", "-threads 1", "-threads 2,4 -workload uncontended", "-count 3", "-benchtime 1ms", "-h", "-json extra"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		cfg, err := parseTuneArgs(args)
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) && !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("parseTuneArgs(%q): %T %v", args, err, err)
			}
			return
		}
		if cfg.count < minRuleSamples || cfg.sampleTime <= 0 || len(cfg.threads) == 0 || !(cfg.minGain >= 0 && cfg.minGain < 1) {
			t.Fatalf("parseTuneArgs(%q) = %+v", args, cfg)
		}
		if len(workloadThreads(cfg)) == 0 {
			t.Fatalf("parseTuneArgs(%q): workload %s judged on no thread count of %v", args, cfg.workload, cfg.threads)
		}
	})
}

// TestTuneWithGOHALSet: a run in an environment that already sets GOHAL
// (tune's own line pasted) still compares with the feature choices, says
// so, and ends in exactly one GOHAL= line.
func TestTuneWithGOHALSet(t *testing.T) {
	ops := tunedOps(t)
	o := ops[0]
	var other string
	for _, v := range o.Variants {
		if v.Error == "" && v.Name != o.FeatureChoice {
			other = v.Name
		}
	}
	line := o.Op + "=" + other
	out, errOut, code := runChild(t, "tune -quick -kit=false -count 4 -threads 1", "GOHAL="+line)
	if code != 0 {
		t.Fatalf("GOHAL=%s tune: exit %d: %s", line, code, errOut)
	}
	if !strings.Contains(out, "The environment sets GOHAL to \""+line+"\"") ||
		!strings.Contains(out, o.Op+": feature choice "+o.FeatureChoice+" (") ||
		strings.Count(out, "\nGOHAL=") != 1 || !strings.HasPrefix(out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:], "GOHAL=") {
		t.Errorf("tune under GOHAL=%s:\n%s", line, out)
	}
}

// z3Group is the 128-bit group as tune finds it on amd64 with AVX: each
// op with its hardware variants and the portable one judged with the
// group.
func z3Group() ([]*tuneOp, []*tuneGroup) {
	mk := func(op string, hw ...string) *tuneOp {
		o := &tuneOp{Op: op, FeatureChoice: hw[0], FeatureReason: "preferred", Body: "fake",
			loops: map[string]func(int) func(*testing.B){}}
		for _, v := range hw {
			o.Variants = append(o.Variants, &tuneVariant{Name: v})
			o.loops[v] = func(int) func(*testing.B) { return nil }
		}
		o.Variants = append(o.Variants, &tuneVariant{Name: "portable", Error: "judged with its group, never alone"})
		return o
	}
	ops := []*tuneOp{mk("load128", "vmovdqa", "cmpxchg16b"), mk("store128", "vmovdqa", "cmpxchg16b")}
	g := &tuneGroup{Ops: []string{"cas128", "load128", "store128"},
		Hardware: map[string]string{"cas128": "cmpxchg16b", "load128": "vmovdqa", "store128": "vmovdqa"}}
	attachGroupBodies(g)
	return ops, []*tuneGroup{g}
}

// TestTuneGroupZ3 is issue 20 item 5 with fake numbers: machine Z3's
// figures, where the striped-lock store beats VMOVDQA + LOCK OR but the
// loads (2.27 → 5.31 ns) and CASes it takes along are slower. The old
// per-op decision printed GOHAL=store128=portable; judged as one group,
// tune keeps the hardware variants and names load128 as the op portable
// would slow down. When portable wins the mix and slows no op, the line
// names every op of the group.
func TestTuneGroupZ3(t *testing.T) {
	cfg := &tuneConfig{workload: "mixed", minGain: 0.05, threads: []int{1, 2}, count: 10}
	type lv = map[string][2]float64 // "side/body" or "op/variant" → ns at 1 and 2 goroutines
	level := func(levels lv) tuneMeasurer {
		return fakeByName(10, 0.01, func(bm suite.Benchmark) float64 {
			var key string
			if side, _ := cutElement(bm.Name, "side"); side != "" {
				body, _ := cutElement(bm.Name, "body")
				key = side + "/" + body
			} else {
				op, _ := cutElement(bm.Name, "op")
				v, _ := cutElement(bm.Name, "variant")
				key = op + "/" + v
			}
			l, ok := levels[key]
			if !ok {
				t.Fatalf("no level for %s", bm.Name)
			}
			return l[bm.Threads-1]
		})
	}
	z3 := lv{
		"load128/vmovdqa": {2.27, 1.2}, "load128/cmpxchg16b": {8, 30},
		"store128/vmovdqa": {9, 40}, "store128/cmpxchg16b": {11, 50},
		"hardware/mix": {14, 90}, "portable/mix": {12, 60}, // portable even wins the mix at 2
		"hardware/load128": {2.27, 1.2}, "portable/load128": {5.31, 20},
		"hardware/store128": {9, 40}, "portable/store128": {6, 18},
		"hardware/cas128": {8, 27}, "portable/cas128": {12, 26},
	}
	ops, groups := z3Group()
	rep := tuneWith(cfg, ops, groups, level(z3))
	if rep.GOHAL != "" || groups[0].Decision.Change || !strings.Contains(groups[0].Decision.Why, "load128 2.3") {
		t.Errorf("Z3: line %q, group decision %+v; want no change, load128 named", rep.GOHAL, groups[0].Decision)
	}
	var buf bytes.Buffer
	writeTuneText(&buf, rep)
	if !strings.Contains(buf.String(), "cas128, load128, store128, one group") || !strings.HasSuffix(buf.String(), "\nGOHAL=\n") {
		t.Errorf("Z3 text:\n%s", buf.String())
	}

	// Portable faster on the mix and on every op alone: all three move.
	cheap := maps.Clone(z3)
	for _, body := range []string{"mix", "load128", "store128", "cas128"} {
		h := cheap["hardware/"+body]
		cheap["portable/"+body] = [2]float64{h[0] * 0.7, h[1] * 0.7}
	}
	ops, groups = z3Group()
	rep = tuneWith(cfg, ops, groups, level(cheap))
	if rep.GOHAL != "cas128=portable,load128=portable,store128=portable" {
		t.Errorf("portable everywhere faster: line %q, decision %+v", rep.GOHAL, groups[0].Decision)
	}
	// Gains on the mix, one op merely tied: still allowed (not slower).
	cheap["portable/cas128"] = cheap["hardware/cas128"]
	ops, groups = z3Group()
	if rep = tuneWith(cfg, ops, groups, level(cheap)); rep.GOHAL != "cas128=portable,load128=portable,store128=portable" {
		t.Errorf("one op tied: line %q, decision %+v", rep.GOHAL, groups[0].Decision)
	}
	// A hardware departure of one op stays per op while the group stays
	// hardware: store128=cmpxchg16b, faster than vmovdqa.
	z3["store128/cmpxchg16b"] = [2]float64{6, 20}
	ops, groups = z3Group()
	if rep = tuneWith(cfg, ops, groups, level(z3)); rep.GOHAL != "store128=cmpxchg16b" {
		t.Errorf("hardware departure: line %q", rep.GOHAL)
	}
}

// checkJSON runs tune -check LINE -json here (the workers are new
// processes) and decodes it.
func checkJSON(t *testing.T, line string) (*checkReport, int) {
	t.Helper()
	code, out, errOut := runHalbench(t, "tune", "-check", line, "-quick", "-json", "-threads", "1,2")
	var c checkReport
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("tune -check %s: exit %d, %v: %s %s", line, code, err, out, errOut)
	}
	if c.Error != "" {
		testexec.SkipUnrunnable(t, errors.New(c.Error))
		t.Fatalf("tune -check %s: %s", line, c.Error)
	}
	return &c, code
}

// TestTuneLineApplied is issue 20 item 5 tested the way a user relies on
// tune: the line a real tune run prints is applied with GOHAL in new
// processes, every op whose choice it changes or takes along is
// re-measured against processes without GOHAL, and the exit status says
// whether anything was significantly slower. Z3's line store128=portable
// takes cas128 and load128 along. Whether a quick check finds harm is a
// timing, which a loaded machine moves (CI once saw store128=cmpxchg16b
// "slower" at 8 threads with the other packages' tests running): the
// figures are logged, not judged, here; TestTuneWithdrawsWhatSlowsTheKit
// and TestTuneDecisions judge injected figures, and the lab's benchmarks
// measure.
func TestTuneLineApplied(t *testing.T) {
	code, out, errOut := runHalbench(t, "tune", "-quick", "-kit=false", "-json", "-threads", "1,2")
	if code != 0 {
		t.Fatalf("tune -quick: exit %d: %s", code, errOut)
	}
	var rep struct{ GOHAL string }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// checked runs tune -check on line and asserts what does not depend
	// on timings: positive figures and an exit status that matches the
	// harm found.
	checked := func(line string) *checkReport {
		t.Helper()
		c, code := checkJSON(t, line)
		for _, r := range c.Results {
			if !(float64(r.Before.Median) > 0) || !(float64(r.After.Median) > 0) {
				t.Errorf("GOHAL=%s: %s at %d: %+v", line, r.Op, r.Threads, r)
			}
			t.Logf("GOHAL=%s: %s at %d: %.2f -> %.2f ns/op, %s", line, r.name(), r.Threads, float64(r.Before.Median), float64(r.After.Median), ratioShort(*r.Ratio))
		}
		if want := map[bool]int{false: 0, true: 1}[len(c.Harm) > 0]; code != want {
			t.Errorf("tune -check %s: exit %d with harm %v, want %d", line, code, c.Harm, want)
		}
		if len(c.Harm) > 0 {
			t.Logf("not judged (a timing): GOHAL=%s found %v significantly slower", line, c.Harm)
		}
		return c
	}
	c := checked(rep.GOHAL)
	want, _ := dispatch.ParseOverride(rep.GOHAL)
	for _, p := range want {
		if op := p.Op; !slices.Contains(c.Ops, op) && c.Before[op] != p.Variant {
			t.Errorf("the check did not re-measure %s, which the line changes: %v", op, c.Ops)
		}
	}

	if choices := featureChoices(); choices["load128"].Variant == "portable" || choices["store128"].Variant == "portable" {
		return // no hardware 128-bit variants here: no group to drag
	}
	if !hasVariant("store128", "portable") {
		t.Logf("store128 has no portable variant on %s: no slower group member to drag", runtime.GOARCH)
		return // arm64: every CPU has a 128-bit instruction (LDXP/STXP or CASP)
	}
	if c = checked("store128=portable"); !slices.Equal(c.Ops, []string{"cas128", "load128", "store128"}) {
		t.Errorf("GOHAL=store128=portable: re-measured %v, want the whole group", c.Ops)
	}
}

// hasVariant reports whether hal offers variant v of op on this GOARCH.
func hasVariant(op, v string) bool {
	vs, _ := haltool.Variants(op)
	return slices.ContainsFunc(vs, func(x dispatch.Variant) bool { return x.Name == v })
}

// checkTuneProgress is issue 21 item 8: on a stderr that is not a
// terminal, tune printed nothing until its report. Now a line starts each
// op, group and kit kind, numbered 1 to n within the ops and groups and
// again within the kit, and nothing else is there.
func checkTuneProgress(t *testing.T, errOut string) {
	t.Helper()
	re := regexp.MustCompile(`^halbench tune: measuring Tune/(op|group|kit)=\S+ \((\d+)/(\d+), \d+ benchmarks?\)$`)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	next, kit := 1, false
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("stderr line %q is not a progress line", l)
			continue
		}
		if m[1] == "kit" && !kit {
			kit, next = true, 1
		}
		if i, n := m[2], m[3]; i != strconv.Itoa(next) || next > atoi(n) {
			t.Errorf("stderr line %q: want number %d", l, next)
		}
		next++
	}
	if len(lines) < 2 || !kit {
		t.Errorf("want a progress line per op, group and kit kind; stderr:\n%s", errOut)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
