package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// `halbench peers` runs the benchmarks of the peers module (lab/peers/, a module
// of its own so that xsync and the other peer libraries never enter the
// library's go.mod) with `go test` as a subprocess, reads the output with
// lab/benchfile and prints the registry's questions (suite.Questions)
// answered by the report's rule, then, per task, every implementation's
// median ns/op, cycles/op beside it, and its ratio to the best peer at
// the same thread count.
//
// Why a subprocess and not in-process: halbench is in the library's module,
// which must not depend on the peers, so it cannot link their code. Running
// `go test` needs the go command and the peers' module download, which is
// what the peers module needs anyway; -in reads a saved run instead.

// peersModule is the module path lab/peers/go.mod must declare.
const peersModule = "github.com/gohal/gohal/lab/peers"

// peerTruncatedUnit is the metric of a peers lock benchmark cut short by
// its run cap: the number of operations done.
const peerTruncatedUnit = "truncated-ops"

// peerGohalPrefix starts the impl name of every gohal implementation, and
// peerFloorPrefix that of a floor (what one kind of implementation cannot
// avoid, done alone: no implementation, and no peer); any other impl is a
// peer.
const (
	peerGohalPrefix = "gohal-"
	peerFloorPrefix = "floor-"
)

func runPeers(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("halbench peers", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "the peers module `directory` (default: lab/peers/ in the current directory or a parent, else in gohal's module directory)")
	count := fs.Int("count", 6, "samples per benchmark: rounds, each one sample of every benchmark")
	benchtime := fs.String("benchtime", "100ms", "go test -benchtime of each sample")
	bench := fs.String("bench", "^BenchmarkPeer$", "go test -bench `regexp`, e.g. 'Peer/what=counter'")
	in := fs.String("in", "", "read a saved `file` of go test -bench output instead of running the benchmarks")
	out := fs.String("o", "", "also write the raw go test output to `file`")
	markdown := fs.Bool("markdown", false, "print the ratio table as Markdown (the README's table)")
	fail := func(msg string) int { return usageFail(stderr, "peers", msg) }
	if err := fs.Parse(args); err != nil {
		if err = flagError(fs, err); errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: halbench peers [-dir DIR] [-count N] [-benchtime D] [-bench RE] [-o FILE] [-markdown]")
			fmt.Fprintln(stderr, "       halbench peers -in FILE [-markdown]")
			fmt.Fprintln(stderr, "\nRun the peers module's benchmarks (or read a saved run) and print, per task,\neach implementation's median and its ratio to the best peer.\n\nFlags:")
			fs.PrintDefaults()
			return 0
		}
		return fail(err.Error())
	}
	if fs.NArg() > 0 {
		return fail(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *count < 1 {
		return fail(fmt.Sprintf("-count %d: must be at least 1", *count))
	}
	if err := checkBenchtime(*benchtime); err != nil {
		return fail(fmt.Sprintf("-benchtime %q: %v", *benchtime, err))
	}
	if _, err := regexp.Compile(*bench); err != nil {
		return fail(fmt.Sprintf("-bench: %v", err))
	}
	if *in != "" && (*dir != "" || *out != "") {
		return fail("-in reads a saved run; -dir and -o apply only to a new run")
	}

	var data []byte
	var file, command string
	if *in != "" {
		var err error
		if data, err = readPeersInput(*in); err != nil {
			return fail("-in " + err.Error())
		}
		file, command = *in, "halbench peers -in "+*in
	} else {
		d := *dir
		if d == "" {
			var err error
			if d, err = findPeersDir(); err != nil {
				fmt.Fprintln(stderr, "halbench peers:", err) // one line: what to do
				return 2
			}
		} else if err := checkPeersDir(d); err != nil {
			return fail("-dir: " + err.Error())
		}
		testArgs := []string{"-test.run", "^$", "-test.bench", *bench, "-test.benchtime", *benchtime, "-test.count", "1"}
		command = fmt.Sprintf("cd %s && go test -c -o $TMP/peers.test . && for i in $(seq %d); do $TMP/peers.test %s; done (TMP: a private temporary directory, removed after)",
			d, *count, shellJoin(testArgs))
		fmt.Fprintln(stderr, "halbench peers: running", command)
		var err error
		data, err = runPeerRounds(d, testArgs, *count, stderr)
		if *out != "" {
			if werr := os.WriteFile(*out, data, 0o644); werr != nil {
				return exitFor(stderr, "halbench peers", werr)
			}
		}
		if err != nil {
			stderr.Write(data)
			return exitFor(stderr, "halbench peers", err)
		}
		file = "the peers' output"
	}

	var tab *peerTab
	g, err := benchfile.ParseGoBench(bytes.NewReader(data), file)
	if err == nil {
		if tab, err = peerTable(g); err != nil {
			err = fmt.Errorf("%s: %w", file, err)
			if *in != "" && benchfile.DetectFormat(data) != benchfile.FormatGoBench {
				err = fmt.Errorf("%s: not Go benchmark output (no Benchmark or Unit line); %s", file, peersInWant)
			} else if *in != "" {
				err = fmt.Errorf("%w; %s", err, peersInWant)
			}
		}
	}
	if err != nil {
		if *in != "" {
			// The file given is not a peers run: a bad argument.
			return fail("-in " + err.Error())
		}
		return exitFor(stderr, "halbench peers", err)
	}
	machine := peerMachineLine()
	if *in != "" {
		machine = "" // the file's machine is not necessarily this one
	}
	if *markdown {
		tab.writeMarkdown(stdout)
	} else {
		tab.writeText(stdout, machine, command)
	}
	return 0
}

// checkBenchtime accepts what go test's -benchtime does: a positive
// duration or a positive count of iterations, "Nx".
func checkBenchtime(s string) error {
	if new(benchtimeValue).Set(s) != nil {
		return errors.New("want a duration such as 100ms or an iteration count such as 10x")
	}
	return nil
}

// readPeersInput reads -in's file. Its errors start with the file's name
// when it cannot be read or is empty; runPeers reports a malformed line
// (with its number) or content that is not a peers run.
func readPeersInput(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %v", path, pe.Err)
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the file is empty; %s", path, peersInWant)
	}
	return data, nil
}

// peersInWant says what -in reads.
const peersInWant = "want what halbench peers -o FILE saves (go test -bench in the peers module)"

// findPeersDir looks for the peers module in the current directory and its
// parents: a directory lab/peers/ whose go.mod declares peersModule; then,
// from a user's module that requires gohal (go tool halbench), in gohal's
// own directory, as go list -m names it: a clone the user's replace names
// has lab/peers, a module download does not (it leaves nested modules out).
func findPeersDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		p := filepath.Join(d, "lab", "peers")
		if checkPeersDir(p) == nil {
			return p, nil
		}
		up := filepath.Dir(d)
		if up == d {
			gohal := strings.TrimSuffix(peersModule, "/lab/peers")
			if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", gohal).Output(); err == nil {
				if p := filepath.Join(strings.TrimSpace(string(out)), "lab", "peers"); checkPeersDir(p) == nil {
					return p, nil
				}
			}
			return "", fmt.Errorf("no peers module (lab/peers/go.mod declaring %s) in %s or a parent, nor in %s's directory: "+
				"the peers are a module of their own, in a clone of gohal only; pass -dir CLONE/lab/peers, or run it in the clone", peersModule, wd, gohal)
		}
		d = up
	}
}

// checkPeersDir reports whether dir holds a go.mod declaring peersModule.
func checkPeersDir(dir string) error {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "module" {
			if strings.Trim(fields[1], `"`) == peersModule {
				return nil
			}
			return fmt.Errorf("%s: module %s, want %s", filepath.Join(dir, "go.mod"), fields[1], peersModule)
		}
	}
	return fmt.Errorf("%s: no module line", filepath.Join(dir, "go.mod"))
}

// runPeerRounds builds the peers module's test binary in a temporary
// directory, then runs it rounds times with args (one sample of every
// benchmark per round) in dir, and returns the standard output of all
// rounds; standard error goes to stderr as it comes.
//
// Rounds rather than one run of -count N: -count runs a benchmark's
// samples back to back, so a burst of somebody else's load on a shared
// machine lands on one implementation's samples; rounds spread it over
// all of them, which is what a ratio between implementations needs.
func runPeerRounds(dir string, args []string, rounds int, stderr io.Writer) ([]byte, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the go command is needed to run the peers module: %w", err)
	}
	bin, cleanup, err := peersTempBin()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	build := exec.Command(goCmd, "test", "-c", "-o", bin, ".")
	build.Dir = dir
	build.Stdout = stderr
	build.Stderr = stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go test -c: %w", err)
	}
	var buf bytes.Buffer
	for i := range rounds {
		fmt.Fprintf(stderr, "halbench peers: round %d of %d\n", i+1, rounds)
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Stdout = &buf
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return buf.Bytes(), fmt.Errorf("round %d: %w", i+1, err)
		}
	}
	return buf.Bytes(), nil
}

// peersTempBin returns the path of the peers' test binary in a private
// temporary directory, which cleanup removes: two runs at once, by one
// user or two, never share (or clobber) a binary.
func peersTempBin() (bin string, cleanup func(), err error) {
	tmp, err := os.MkdirTemp("", "halbench-peers-")
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(tmp, "peers.test"), func() { os.RemoveAll(tmp) }, nil
}

// shellJoin quotes args for a POSIX shell where needed.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=", r))
		}) < 0 {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// peerMachineLine is `halbench features` in one line: CPU, GOARCH,
// features and the cycle counter's rate.
func peerMachineLine() string {
	r := buildFeaturesReport()
	f := r.Features.Features
	names := f.Names()
	if len(names) == 0 {
		names = []string{"(none that gohal uses)"}
	}
	return fmt.Sprintf("%s, %s, features %s, counter %.4g MHz", f.Brand, f.GOARCH,
		strings.Join(names, " "), r.Features.CounterHz/1e6)
}

// peerNameRE matches a peer benchmark's name as benchfile gives it
// ("Benchmark" removed, GOMAXPROCS suffix kept).
var peerNameRE = regexp.MustCompile(`^Peer/what=([a-z0-9]+)/impl=([A-Za-z0-9.-]+)/threads=([0-9]+)(?:/op=([a-z0-9]+))?(?:-[0-9]+)?$`)

// peerTab is the result: tasks in order of first appearance.
type peerTab struct {
	Unit      string
	Truncated bool // some sample was cut short
	Threads   []int
	Tasks     []*peerTask
}

// peerTask is one task (what, and op for uint128) and its implementations.
type peerTask struct {
	Name  string // "counter", "uint128 cas"
	Impls []*peerImpl
}

// peerImpl is one implementation's medians, by thread count.
type peerImpl struct {
	Name   string
	Gohal  bool
	Floor  bool // a floor: shown with its ratio, never the best of either side
	Median map[int]float64
	// Samples are the values of the table's unit; Cycles the median
	// cycles/op beside a table in ns/op.
	Samples map[int][]float64
	Cycles  map[int]float64
	N       map[int]int
	// Truncated counts, per thread count, the samples cut short by the
	// peers' lock run cap (a "truncated-ops" metric).
	Truncated map[int]int
}

// peerTable groups the ns/op series of g (cycles/op when a file has no
// ns/op) by task and implementation, with the median cycles/op beside.
func peerTable(g *benchfile.GoBench) (*peerTab, error) {
	unit := "ns/op"
	has := func(u string) bool {
		return slices.ContainsFunc(g.Series, func(s *benchfile.Series) bool { return s.Unit == u && peerNameRE.MatchString(s.Name) })
	}
	if !has(unit) {
		unit = cyclebench.CyclesUnit
		if !has(unit) {
			return nil, fmt.Errorf("no BenchmarkPeer/what=…/impl=…/threads=… results")
		}
	}
	t := &peerTab{Unit: unit}
	tasks := map[string]*peerTask{}
	impls := map[[2]string]*peerImpl{}
	threads := map[int]bool{}
	for _, s := range g.Series {
		m := peerNameRE.FindStringSubmatch(s.Name)
		if m == nil || s.Unit != unit {
			continue
		}
		task := m[1]
		if m[4] != "" {
			task += " " + m[4]
		}
		n, err := strconv.Atoi(m[3])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("line %d: bad thread count in %s", s.Lines[0], s.Name)
		}
		pt := groupOf(tasks, &t.Tasks, task, func() *peerTask { return &peerTask{Name: task} })
		pi := groupOf(impls, &pt.Impls, [2]string{task, m[2]}, func() *peerImpl {
			return &peerImpl{Name: m[2], Gohal: strings.HasPrefix(m[2], peerGohalPrefix), Floor: strings.HasPrefix(m[2], peerFloorPrefix),
				Median: map[int]float64{}, Samples: map[int][]float64{}, Cycles: map[int]float64{}, N: map[int]int{}, Truncated: map[int]int{}}
		})
		if _, dup := pi.Median[n]; dup {
			return nil, fmt.Errorf("line %d: %s appears under two names", s.Lines[0], s.Name)
		}
		pi.Median[n] = median(s.Values)
		pi.Samples[n] = s.Values
		if cs := g.Lookup(s.Pkg, s.Name, cyclebench.CyclesUnit); cs != nil && unit != cyclebench.CyclesUnit {
			pi.Cycles[n] = median(cs.Values)
		}
		pi.N[n] = len(s.Values)
		if ts := g.Lookup(s.Pkg, s.Name, peerTruncatedUnit); ts != nil {
			pi.Truncated[n] = len(ts.Values)
			t.Truncated = true
		}
		threads[n] = true
	}
	t.Threads = slices.Sorted(maps.Keys(threads))
	return t, nil
}

// best returns the implementation with the lowest median at n threads
// among gohal's (gohal true) or the peers, or nil. A floor is neither.
func (pt *peerTask) best(n int, gohal bool) *peerImpl {
	var b *peerImpl
	for _, pi := range pt.Impls {
		v, ok := pi.Median[n]
		if !ok || pi.Gohal != gohal || pi.Floor || v <= 0 {
			continue
		}
		if b == nil || v < b.Median[n] {
			b = pi
		}
	}
	return b
}

// ratio is pi's median at n over the best peer's, or 0 if either is
// missing.
func (pt *peerTask) ratio(pi *peerImpl, n int) float64 {
	bp := pt.best(n, false)
	v, ok := pi.Median[n]
	if bp == nil || !ok {
		return 0
	}
	return v / bp.Median[n]
}

// mark is "*" when some sample at n threads was cut short.
func (pi *peerImpl) mark(n int) string {
	if pi.Truncated[n] > 0 {
		return "*"
	}
	return ""
}

// floorNote explains the floor-* rows, where a run has them.
const floorNote = "floor-* rows are no implementation: what one kind of implementation cannot avoid, done alone (lab/peers says which kind), so the least that kind can cost here"

// hasFloor reports whether some task has a floor row.
func (t *peerTab) hasFloor() bool {
	return slices.ContainsFunc(t.Tasks, func(pt *peerTask) bool {
		return slices.ContainsFunc(pt.Impls, func(pi *peerImpl) bool { return pi.Floor })
	})
}

// truncNote explains the "*" mark.
const truncNote = "* some samples cut short by the peers' lock run cap (-peers.lockcap): a FIFO lock's hand-overs waited for the scheduler; the figure is over the operations done"

func fmtRatio(r float64) string {
	if r == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", r)
}

// answers judges the registry's questions on the peers' tasks by the
// report's rule: a workload's Peer task, a contestant's Peer impl.
func (t *peerTab) answers() []*questionAnswer {
	return answerQuestions(t.Threads, func(_ suite.Question, w suite.Workload, c suite.Contestant, n int) []float64 {
		for _, pt := range t.Tasks {
			for _, pi := range pt.Impls {
				if w.Peer != "" && c.Peer != "" && pt.Name == w.Peer && pi.Name == c.Peer {
					return pi.Samples[n]
				}
			}
		}
		return nil
	})
}

// writeText prints the registry's questions answered on the peers' tasks,
// then, per task, each implementation's median and its ratio to the best
// peer, and the best of gohal against the best peer.
func (t *peerTab) writeText(w io.Writer, machine, command string) {
	if machine != "" {
		fmt.Fprintln(w, "machine:", machine)
	}
	fmt.Fprintln(w, "command:", command)
	if qas := t.answers(); len(qas) > 0 {
		fmt.Fprintln(w)
		writeAnswerDetails(w, "The questions (suite.Questions) answered on the peers' tasks by the report's rule:", qas)
		fmt.Fprintf(w, "ratio: use here's %s over instead of's, with its %v %% %s;\nan interval holding 1 is a tie.\n", t.Unit, confidence, ruleName)
	}
	beside := ""
	if t.Unit == "ns/op" {
		beside = " [cycles/op]"
	}
	fmt.Fprintf(w, "\nAgainst other libraries: median %s%s, and in parentheses the ratio to the best peer\n", t.Unit, beside)
	fmt.Fprintln(w, "at the same thread count (below 1.00: faster than every peer). gohal-* are gohal's.")
	for _, pt := range t.Tasks {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\t", pt.Name)
		for _, n := range t.Threads {
			fmt.Fprintf(tw, "threads=%d\t", n)
		}
		fmt.Fprintln(tw)
		for _, pi := range pt.Impls {
			fmt.Fprintf(tw, "%s\t", pi.Name)
			for _, n := range t.Threads {
				if v, ok := pi.Median[n]; ok {
					c := ""
					if cy, ok := pi.Cycles[n]; ok {
						c = fmt.Sprintf(" [%.4g]", cy)
					}
					fmt.Fprintf(tw, "%.4g%s (%s)%s\t", v, c, fmtRatio(pt.ratio(pi, n)), pi.mark(n))
				} else {
					fmt.Fprint(tw, "–\t")
				}
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprint(tw, "best gohal / best peer\t")
		for _, n := range t.Threads {
			bg := pt.best(n, true)
			if bg == nil || pt.best(n, false) == nil {
				fmt.Fprint(tw, "–\t")
				continue
			}
			fmt.Fprintf(tw, "%s %s\t", fmtRatio(pt.ratio(bg, n)), strings.TrimPrefix(bg.Name, peerGohalPrefix))
		}
		fmt.Fprintln(tw)
		tw.Flush()
	}
	if t.hasFloor() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, floorNote+".")
	}
	if t.Truncated {
		fmt.Fprintln(w)
		fmt.Fprintln(w, truncNote)
	}
}

// writeMarkdown prints the README's table: one row per implementation,
// the ratio to the best peer per thread count, and per task a row with
// the best peer's median.
func (t *peerTab) writeMarkdown(w io.Writer) {
	if qas := t.answers(); len(qas) > 0 {
		fmt.Fprintf(w, "The questions answered on these tasks by the report's rule (ratio of %s, its %v %% interval; an interval holding 1 is a tie):\n\n", t.Unit, confidence)
		writeAnswersMarkdown(w, qas)
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| task | impl |")
	for _, n := range t.Threads {
		fmt.Fprintf(w, " %d |", n)
	}
	fmt.Fprint(w, "\n| --- | --- |")
	for range t.Threads {
		fmt.Fprint(w, " ---: |")
	}
	fmt.Fprintln(w)
	for _, pt := range t.Tasks {
		for _, pi := range pt.Impls {
			name := "`" + pi.Name + "`"
			switch {
			case pi.Gohal:
				name = "**" + name + "**"
			case pi.Floor:
				name = "_" + name + "_"
			}
			fmt.Fprintf(w, "| %s | %s |", pt.Name, name)
			for _, n := range t.Threads {
				fmt.Fprintf(w, " %s%s |", fmtRatio(pt.ratio(pi, n)), pi.mark(n))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "| %s | best peer, %s |", pt.Name, t.Unit)
		for _, n := range t.Threads {
			if bp := pt.best(n, false); bp != nil {
				fmt.Fprintf(w, " %.3g `%s` |", bp.Median[n], bp.Name)
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		fmt.Fprintln(w)
	}
	if t.hasFloor() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "_"+floorNote+"._")
	}
	if t.Truncated {
		fmt.Fprintln(w)
		fmt.Fprintln(w, truncNote)
	}
}
