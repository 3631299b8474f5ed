package main

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
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
	"github.com/gohal/gohal/lab/suite"
)

// The kit types' ops, derived from their source: kitTypeOps (tunekit.go)
// is the one list tune's check reads to know which kit types a GOHAL line
// can slow down, and TestKitTypeOpsCoverSource fails when a kit type's
// code starts to run an op that list does not name for it.

const modulePath = "github.com/gohal/gohal"

// opScan finds the hal ops that code reaches: every function, method,
// variable and type reachable from a root within its package, following
// calls into gohal's other packages (hal, internal/...), and mapping hal's
// exported functions to their ops. It over-approximates (a method call
// x.M reaches every method named M of the package, build constraints are
// ignored): a type's list must cover what it may run.
type opScan struct {
	root  string              // the module's directory
	pkgs  map[string]*scanPkg // by import path
	ops   map[string]bool     // found
	seen  map[string]bool     // pkg path + "." + key visited
	field map[string]string   // hal's exported function → op
}

// scanPkg is one parsed package.
type scanPkg struct {
	path    string
	decls   map[string][]ast.Node // key ("F", "T.M", a var, a type) → its declarations
	methods map[string][]string   // method name → keys "T.M"
	imports map[*ast.File]map[string]string
	fileOf  map[ast.Node]*ast.File
}

func newOpScan(t *testing.T) *opScan {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Skipf("no module source at %s: %v", dir, err)
	}
	s := &opScan{root: dir, pkgs: map[string]*scanPkg{}, ops: map[string]bool{}, seen: map[string]bool{}, field: map[string]string{}}
	for op, row := range suite.TableRows {
		s.field[row.Field] = op
	}
	// FenceLight is the pair's other side: it runs what the fenceheavy
	// choice sets.
	s.field["FenceLight"] = "fenceheavy"
	return s
}

func (s *opScan) pkg(t *testing.T, path string) *scanPkg {
	if p, ok := s.pkgs[path]; ok {
		return p
	}
	dir := filepath.Join(s.root, strings.TrimPrefix(strings.TrimPrefix(path, modulePath), "/"))
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("package %s: %v", path, err)
	}
	p := &scanPkg{path: path, decls: map[string][]ast.Node{}, methods: map[string][]string{}, imports: map[*ast.File]map[string]string{}, fileOf: map[ast.Node]*ast.File{}}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		imps := map[string]string{}
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			name := ip[strings.LastIndex(ip, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imps[name] = ip
		}
		p.imports[f] = imps
		add := func(key string, n ast.Node) {
			p.decls[key] = append(p.decls[key], n)
			p.fileOf[n] = f
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					add(d.Name.Name, d)
					continue
				}
				key := recvName(d.Recv.List[0].Type) + "." + d.Name.Name
				add(key, d)
				p.methods[d.Name.Name] = append(p.methods[d.Name.Name], key)
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						add(sp.Name.Name, sp)
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							add(id.Name, sp)
						}
					}
				}
			}
		}
	}
	s.pkgs[path] = p
	return p
}

// recvName is T for receivers T, *T, T[P] and *T[P].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// visit scans key of package path and what it reaches.
func (s *opScan) visit(t *testing.T, path, key string) {
	if s.seen[path+"."+key] {
		return
	}
	s.seen[path+"."+key] = true
	if path == modulePath+"/internal/fencelight" {
		// The byte hal.FenceLight tests, read by gohal's assembly
		// outside hal: the light side of the pair.
		s.ops["fenceheavy"] = true
		return
	}
	p := s.pkg(t, path)
	if path == modulePath+"/hal" {
		if op, ok := s.field[key]; ok {
			s.ops[op] = true
		}
	}
	for _, n := range p.decls[key] {
		if _, isType := n.(*ast.TypeSpec); isType {
			// A type reaches its fields' types and its methods.
			for k := range p.decls {
				if strings.HasPrefix(k, key+".") {
					s.visit(t, path, k)
				}
			}
		}
		s.walk(t, p, p.fileOf[n], n)
	}
}

func (s *opScan) walk(t *testing.T, p *scanPkg, f *ast.File, n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				if ip, ok := p.imports[f][id.Name]; ok {
					if strings.HasPrefix(ip, modulePath+"/") {
						s.visit(t, ip, x.Sel.Name)
					}
					return false
				}
			}
			for _, k := range p.methods[x.Sel.Name] {
				s.visit(t, p.path, k)
			}
		case *ast.Ident:
			if _, ok := p.decls[x.Name]; ok {
				s.visit(t, p.path, x.Name)
			}
		}
		return true
	})
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

// derivedOps returns the ops the source of kit type name reaches.
func derivedOps(t *testing.T, name string) []string {
	t.Helper()
	path, typ := kitTypeSource(name)
	if path == "" {
		return nil
	}
	s := newOpScan(t)
	if _, ok := s.pkg(t, path).decls[typ]; !ok {
		t.Fatalf("%s: no type %s in %s", name, typ, path)
	}
	s.visit(t, path, typ)
	var out []string
	for op := range s.ops {
		out = append(out, op)
	}
	slices.Sort(out)
	return out
}

// TestKitTypeOpsCoverSource: every kit type tune's advice covers lists,
// in kitTypeOps, every hal op its source reaches (by opScan), and every
// candidate of the kit questions has an entry, so a GOHAL line that
// changes an op re-measures every kit type that runs it.
func TestKitTypeOpsCoverSource(t *testing.T) {
	for _, k := range kitKinds() {
		for _, c := range k.candidates {
			if _, ok := kitTypeOps[c.Name]; !ok {
				t.Errorf("kit candidate %s has no entry in kitTypeOps", c.Name)
			}
		}
	}
	for name, listed := range kitTypeOps {
		got := derivedOps(t, name)
		t.Logf("%s: source reaches %v", name, got)
		for _, op := range got {
			if !slices.Contains(listed, op) {
				t.Errorf("%s runs op %s (found in its source), which kitTypeOps does not list for it: %v", name, op, listed)
			}
		}
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
	rep = tuneWith(cfg, []*tuneOp{fakeOp([]string{"b"})}, nil, fakeMeasurer(8, 0.01, func(v string, threads int) float64 {
		return map[string]float64{"a": 10, "b": 7}[v]
	}))
	applyCheck(rep, func(line string) *checkReport { return checkLineWith(cfg, line, run, typeOps) })
	buf.Reset()
	writeTuneText(&buf, rep)
	if rep.GOHAL != "" || rep.Withdrawn != "fake=b" || !strings.HasSuffix(buf.String(), "No setting survived the check: the feature choices stand. The line to paste is empty:\nGOHAL=\n") {
		t.Errorf("only fake=b: line %q, withdrawn %q:\n%s", rep.GOHAL, rep.Withdrawn, buf.String())
	}

	// A check that cannot run withdraws everything: nothing unchecked is
	// advised.
	rep = tuneWith(cfg, []*tuneOp{fakeOp([]string{"b"})}, nil, fakeMeasurer(8, 0.01, func(v string, threads int) float64 {
		return map[string]float64{"a": 10, "b": 7}[v]
	}))
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
	for _, want := range []string{serviceName("percpu", 8, time.Millisecond), serviceName("percpu", 8, 10*time.Millisecond), "RWLock/kind=percpu/threads=8/writes=10"} {
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
