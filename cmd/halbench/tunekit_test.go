package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/testexec"
	"github.com/gohal/gohal/lab/suite"
)

// The kit types' ops, derived from their source: kitTypeOps (tunekit.go)
// is the one list tune's check reads to know which kit types a GOHAL line
// can slow down, and TestKitTypeOpsCoverSource fails when a kit type's
// code starts to run an op that list does not name for it.

const modulePath = "github.com/gohal/gohal"

// opScan finds the hal ops a kit type's code reaches: it type-checks
// gohal's packages from source for this build (GOOS, GOARCH, tags) and
// follows, from every method of the type, each function, method and
// package variable the code uses, into gohal's other packages (hal,
// internal/...), mapping what it reaches in hal to ops: an exported
// function to its op (suite.TableRows' field), FenceLight to fenceheavy,
// an op's own functions (<op>, <op>U, <op>_<variant>) to the op, and
// internal/fencelight's byte (read by assembly outside hal) to fenceheavy,
// and an op named in a string constant to the op where the code also
// reads hal.Selected (it behaves by that op's choice). Calls through an
// interface are not followed, nor hal's table of every op (archOps),
// which code reads to look a choice up.
type opScan struct {
	ctx   build.Context
	root  string
	fset  *token.FileSet
	pkgs  map[string]*types.Package
	other types.Importer
	field map[string]string // hal's exported function → op
	decls map[types.Object]scanDecl
	seen  map[types.Object]bool
	ops   map[string]bool
	// lits are the string constants the code reached holds, and
	// selected whether it reached hal.Selected: code that reads an op's
	// choice by name (percpu: the pair's, hal.CPU's) behaves by it.
	lits     map[string]bool
	selected bool
}

// scanDecl is where an object is declared and the info to read it.
type scanDecl struct {
	node ast.Node
	info *types.Info
}

func newOpScan(t *testing.T, tags ...string) *opScan {
	t.Helper()
	if testexec.Emulated() {
		// Under emulation the scan reads the same source as the host's
		// run, type-checking the standard library under qemu for
		// minutes.
		t.Skip("under emulation: the host's run scans the source")
	}
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Skipf("no module source at %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	ctx := build.Default
	ctx.BuildTags = append(slices.Clone(ctx.BuildTags), tags...)
	s := &opScan{ctx: ctx, root: dir, fset: fset, pkgs: map[string]*types.Package{},
		other: importer.ForCompiler(fset, "source", nil), field: map[string]string{"FenceLight": "fenceheavy"},
		decls: map[types.Object]scanDecl{}, seen: map[types.Object]bool{}, ops: map[string]bool{}, lits: map[string]bool{}}
	for op, row := range suite.TableRows {
		s.field[row.Field] = op
	}
	return s
}

// Import type-checks a package of the module from the files this build
// takes. It records where each of its functions and variables is
// declared.
func (s *opScan) Import(path string) (*types.Package, error) {
	if path != modulePath && !strings.HasPrefix(path, modulePath+"/") {
		// One importer for the rest, so that a package the standard
		// library and x/sys both import is one package.
		return s.other.Import(path)
	}
	if p, ok := s.pkgs[path]; ok {
		return p, nil
	}
	dir := filepath.Join(s.root, strings.TrimPrefix(path, modulePath))
	bp, err := s.ctx.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, n := range bp.GoFiles {
		f, err := parser.ParseFile(s.fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	p, err := (&types.Config{Importer: s}).Check(path, s.fset, files, info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %v", path, err)
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				s.decls[info.Defs[n.Name]] = scanDecl{n, info}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					s.decls[info.Defs[id]] = scanDecl{n, info}
				}
			}
			return true
		})
	}
	s.pkgs[path] = p
	return p, nil
}

// visit records the ops obj maps to and scans what its declaration uses.
func (s *opScan) visit(obj types.Object) {
	if f, ok := obj.(*types.Func); ok {
		obj = f.Origin()
	}
	if s.seen[obj] || obj.Pkg() == nil {
		return
	}
	s.seen[obj] = true
	switch name := obj.Name(); obj.Pkg().Path() {
	case modulePath + "/internal/fencelight":
		s.ops["fenceheavy"] = true
	case modulePath + "/hal":
		if name == "archOps" {
			// hal's table of every op's rows, which code reaches to
			// read a choice (findOp), not to run the rows.
			return
		}
		s.selected = s.selected || name == "Selected"
		for field, op := range s.field {
			if name == field || name == op || name == op+"U" || strings.HasPrefix(name, op+"_") {
				s.ops[op] = true
			}
		}
	}
	d, ok := s.decls[obj]
	if !ok {
		return
	}
	// hal's own code names ops in its bookkeeping (Selected reports a
	// degraded fenceheavy by name): only a string outside hal says that
	// kit code behaves by an op's choice.
	inHal := obj.Pkg().Path() == modulePath+"/hal"
	ast.Inspect(d.node, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !inHal {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				s.lits[v] = true
			}
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		switch o := d.info.Uses[id].(type) {
		case *types.Func:
			s.visit(o)
		case *types.Var, *types.Const:
			if o.Pkg() != nil && o.Parent() == o.Pkg().Scope() {
				s.visit(o)
			}
		}
		return true
	})
}

// derivedOps returns the ops the source of kit type name reaches.
func derivedOps(t *testing.T, s *opScan, name string) []string {
	t.Helper()
	path, typ := kitTypeSource(name)
	if path == "" {
		return nil
	}
	p, err := s.Import(path)
	if err != nil {
		t.Fatal(err)
	}
	tn, ok := p.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		t.Fatalf("%s: no type %s in %s", name, typ, path)
	}
	clear(s.ops)
	clear(s.seen)
	clear(s.lits)
	s.selected = false
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	for i := range ms.Len() {
		s.visit(ms.At(i).Obj())
	}
	for _, op := range s.field {
		if s.selected && s.lits[op] {
			s.ops[op] = true
		}
	}
	return slices.Sorted(maps.Keys(s.ops))
}

// kitTypeSource names where each kit type of kitTypeOps lives: its
// package's import path and type name; "" for the standard library's.
func kitTypeSource(name string) (path, typ string) {
	pkg, typ, ok := strings.Cut(name, ".")
	if !ok {
		return "", ""
	}
	switch pkg {
	case "percpu", "counter", "spin", "hal", "refcount":
		return modulePath + "/" + pkg, typ
	}
	return "", ""
}

// TestKitTypeOpsCoverSource: every kit type tune's advice covers lists,
// in kitTypeOps, every hal op its source reaches (by opScan), and every
// candidate of the kit questions has an entry, so a GOHAL line that
// changes an op re-measures every kit type that runs it.
func TestKitTypeOpsCoverSource(t *testing.T) {
	types, _ := kitTypeBenchs(kitThreads())
	for _, name := range types {
		if _, ok := kitTypeOps[name]; !ok {
			t.Errorf("kit candidate %s has no entry in kitTypeOps", name)
		}
	}
	// The default build, whose pins hold the P, and the fallback build,
	// whose pins ask hal.CPU.
	for _, build := range []struct {
		tags   []string
		pinned bool
	}{{nil, true}, {[]string{"gohal_nolinkname"}, false}} {
		tags, lists := build.tags, kitTypeOpsFor(build.pinned)
		s := newOpScan(t, tags...)
		for _, name := range slices.Sorted(maps.Keys(lists)) {
			listed := lists[name]
			got := derivedOps(t, s, name)
			t.Logf("tags %v: %s: source reaches %v", tags, name, got)
			for _, op := range got {
				if !slices.Contains(listed, op) {
					t.Errorf("tags %v: %s runs op %s (found in its source), which kitTypeOps does not list for it: %v", tags, name, op, listed)
				}
			}
		}
	}
	for name, listed := range kitTypeOps {
		if path, _ := kitTypeSource(name); path == "" && len(listed) > 0 {
			t.Errorf("%s is not gohal's, yet lists ops %v", name, listed)
		}
	}
}

// fakeCheckRunner is a worker process of tune's check with injected
// measurements: Selected is before with the line's settings applied, and
// each benchmark's ns/op is level(name, gohal) with a little
// deterministic noise, -samples of them.
func fakeCheckRunner(before map[string]string, level func(name string, gohal bool) float64) checkRunner {
	launch := uint64(0)
	return func(line string, gohal bool, args []string) (*workerReport, error) {
		sel := maps.Clone(before)
		if gohal {
			over, err := dispatch.ParseOverride(line)
			if err != nil {
				return nil, err
			}
			for _, p := range over {
				sel[p.Op] = p.Variant
			}
		}
		rep := &workerReport{Selected: sel, Samples: map[string][]sample{}}
		if args[0] == "-" {
			return rep, nil
		}
		per, threads := 1, []int{1}
		var names []string
		for i := 1; i+1 < len(args); i += 2 {
			switch args[i] {
			case "-samples":
				per = atoi(args[i+1])
			case "-threads":
				threads, _ = parseThreads(args[i+1])
			case "-kitbench":
				names = append(names, strings.Split(args[i+1], ",")...)
			}
		}
		for _, op := range strings.Split(args[0], ",") {
			for _, t := range threads {
				names = append(names, checkBenchName(op, t))
			}
		}
		launch++
		rng := rand.New(rand.NewPCG(launch, 11))
		for _, n := range names {
			for range per {
				ns := level(n, gohal) * (1 + 0.01*rng.NormFloat64())
				rep.Samples[n] = append(rep.Samples[n], sample{Iters: 1000, NsPerOp: ns})
			}
		}
		return rep, nil
	}
}

// TestTuneWithdrawsWhatSlowsTheKit is issue 39 item 3 with injected
// measurements: op "fake"'s variant b is faster alone, so tune departs to
// it, but kit type fake.Kit, which runs op fake, is slower under it (as
// percpu.RWMutex under fenceheavy=portable on machine X: a locked
// instruction beats a system call alone, and the lock loses its reader
// bias). The check re-measures fake.Kit in the workers and withdraws
// fake=b, with the figures; op "other", faster too and run by no kit type
// that gets slower, survives, and the line printed is what survived.
func TestTuneWithdrawsWhatSlowsTheKit(t *testing.T) {
	cfg := &tuneConfig{workload: "mixed", minGain: 0.05, threads: []int{1, 2}, count: 8, sampleTime: time.Millisecond}
	fake, other := fakeOp([]string{"b"}), fakeOp([]string{"b"})
	other.Op = "other"
	rep := tuneWith(cfg, []*tuneOp{fake, other}, nil, fakeMeasurer(8, 0.01, func(v string, threads int) float64 {
		if v == "b" {
			return 7 * float64(threads)
		}
		return 10 * float64(threads)
	}))
	if rep.GOHAL != "fake=b,other=b" {
		t.Fatalf("tune's line before the check: %q, want fake=b,other=b", rep.GOHAL)
	}
	typeOps := map[string][]string{"fake.Kit": {"fake"}, "other.Kit": {"cas32"}}
	run := fakeCheckRunner(map[string]string{"fake": "a", "other": "a", "cas32": "lock"}, func(name string, gohal bool) float64 {
		switch {
		case !gohal:
			return 10
		case strings.Contains(name, "type=fake.Kit"):
			return 15 // the kit type is slower under the line
		default:
			return 7 // every op alone is faster
		}
	})
	var lines []string
	applyCheck(rep, func(line string) *checkReport {
		lines = append(lines, line)
		return checkLineWith(cfg, line, run, typeOps)
	})
	if rep.GOHAL != "other=b" || rep.Withdrawn != "fake=b" {
		t.Errorf("after the check: line %q, withdrawn %q; want other=b, fake=b withdrawn", rep.GOHAL, rep.Withdrawn)
	}
	if !slices.Equal(lines, []string{"fake=b,other=b", "other=b"}) {
		t.Errorf("lines checked %q: want the full line, then what survived", lines)
	}
	c := rep.Check
	if c == nil || !slices.Equal(c.KitTypes, []string{"fake.Kit"}) || !slices.Equal(c.Harm, []string{"fake.Kit"}) {
		t.Fatalf("check: %+v; want fake.Kit re-measured and harmed", c)
	}
	for _, r := range c.Results {
		if r.Op != "" && r.Slower {
			t.Errorf("op %s at %d found slower; it is faster alone", r.Op, r.Threads)
		}
	}
	if len(rep.WithdrawnWhy) != 1 || !strings.Contains(rep.WithdrawnWhy[0].Why, "fake.Kit (Kit/type=fake.Kit/threads=") ||
		!strings.Contains(rep.WithdrawnWhy[0].Why, "1.5") {
		t.Errorf("why withdrawn: %+v", rep.WithdrawnWhy)
	}
	var buf bytes.Buffer
	if err := writeTuneText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "Withdrawn: fake=b: significantly slower under the line: fake.Kit") || !strings.HasSuffix(out, "\nGOHAL=other=b\n") ||
		!strings.Contains(out, "the kit types that run them, re-measured: fake.Kit") {
		t.Errorf("text:\n%s", out)
	}

	// Only the harmful setting: nothing survives, the line is empty.
	fakeOnly := func() *tuneReport {
		return tuneWith(cfg, []*tuneOp{fakeOp([]string{"b"})}, nil, fakeMeasurer(8, 0.01, func(v string, threads int) float64 {
			return map[string]float64{"a": 10, "b": 7}[v]
		}))
	}
	rep = fakeOnly()
	applyCheck(rep, func(line string) *checkReport { return checkLineWith(cfg, line, run, typeOps) })
	buf.Reset()
	writeTuneText(&buf, rep)
	if rep.GOHAL != "" || rep.Withdrawn != "fake=b" || !strings.HasSuffix(buf.String(), "No setting survived the check: the feature choices stand. The line to paste is empty:\nGOHAL=\n") {
		t.Errorf("only fake=b: line %q, withdrawn %q:\n%s", rep.GOHAL, rep.Withdrawn, buf.String())
	}

	// A check that cannot run withdraws everything: nothing unchecked is
	// advised.
	rep = fakeOnly()
	applyCheck(rep, func(line string) *checkReport {
		return checkLineWith(cfg, line, func(string, bool, []string) (*workerReport, error) {
			return nil, errors.New("exec format error")
		}, typeOps)
	})
	if rep.GOHAL != "" || rep.Withdrawn != "fake=b" || !strings.Contains(rep.WithdrawnWhy[0].Why, "could not run: exec format error") {
		t.Errorf("failed check: line %q, withdrawn %q %+v", rep.GOHAL, rep.Withdrawn, rep.WithdrawnWhy)
	}
}

// TestKitUsers: a line changing fenceheavy re-measures the RW lock, also
// under a writer on a timer every 1 and 10 ms, and no type that does not
// run it; a line changing a 128-bit op re-measures Uint128's mix; every
// benchmark named has a body a worker can run.
func TestKitUsers(t *testing.T) {
	types, benchs := kitUsers([]string{"fenceheavy"}, kitTypeOps, []int{1, 8})
	if !slices.Contains(types, "percpu.RWMutex") || slices.Contains(types, "sync.RWMutex") || slices.Contains(types, "counter.Adder") {
		t.Errorf("fenceheavy: kit types %v", types)
	}
	for _, want := range []string{suite.RWLockTimerName("percpu", 8, "1ms"), suite.RWLockTimerName("percpu", 8, "10ms"), "RWLock/kind=percpu/threads=8/writes=10"} {
		if !slices.Contains(benchs["percpu.RWMutex"], want) {
			t.Errorf("percpu.RWMutex: benchmarks %v lack %s", benchs["percpu.RWMutex"], want)
		}
	}
	types, benchs = kitUsers([]string{"load128"}, kitTypeOps, kitThreads())
	if !slices.Contains(types, "hal.Uint128") {
		t.Errorf("load128: kit types %v", types)
	}
	for _, op := range []string{"fenceheavy", "cas128", "cas32", "cas64", "cpu"} {
		types, benchs = kitUsers([]string{op}, kitTypeOps, kitThreads())
		for _, kt := range types {
			for _, n := range benchs[kt] {
				if _, th, err := kitCheckBody(n); err != nil || th != benchThreads(n) {
					t.Errorf("%s: %s: %d goroutines, %v", kt, n, th, err)
				}
			}
		}
	}
}

// TestTuneFencePairTimedAsPair: where both of fenceheavy's variants run,
// tune times each on the pair's workload (FenceLight hot in every
// goroutine, FenceHeavy at a stated rate), never FenceHeavy alone; and
// the check's worker times the op the same way.
func TestTuneFencePairTimedAsPair(t *testing.T) {
	ops, _, _ := discoverAll([]int{1, 2})
	for _, o := range ops {
		if o.Op != fencePairOp {
			continue
		}
		if !strings.Contains(o.Body, "hal.FenceLight between a store and a load in each goroutine") || !strings.Contains(o.Body, "FenceHeavy every "+fencePairPeriod.String()) {
			t.Errorf("fenceheavy timed as: %s", o.Body)
		}
		for _, v := range o.Variants {
			if v.Error == "" && o.loops[v.Name] == nil {
				t.Errorf("fenceheavy/%s: no body", v.Name)
			}
		}
		return
	}
	t.Skip("fenceheavy has fewer than two runnable variants here (membarrier refused, or a portable build)")
}
