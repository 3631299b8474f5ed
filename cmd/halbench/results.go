package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gohal/gohal/lab/suite"
)

// `halbench results` (issue 21 item 7) writes one Markdown file for the
// machine it runs on: the features line, then every table halbench
// measures, each preceded by the command line that reproduces it. It has
// no measurement of its own: each section runs what its command runs
// (measureRun for the report's sections, measureTune, runLockWait,
// runPeers) with the same arguments, parsed by the same functions, so the
// command printed above a table is the one that made it.

const resultsUsage = `usage: halbench results [-o FILE] [-quick] [-benchtime D] [-count N]

Measure, on this machine, what halbench measures and write it as one
Markdown file: the features line, what dispatch costs (one goroutine and
contended), the 128-bit ops, the locks (throughput and Lock wait latency),
counters and refcounts, the per-CPU cache, gohal against its peers, and
tune's advice. Each table is preceded by the command line that reproduces
it: results runs those commands' measurements one after another (several
minutes with the defaults). The figures hold for this machine only.

Progress goes to standard error: a line per section, then the section's
own progress. The file's path is printed on standard output.

Flags:
  -o FILE         the file to write (default results/<cpu>.md, named from
                  the CPU's brand, family and model, such as
                  results/intel-xeon-family6-model167.md; the directory
                  results/ is created if needed); written when everything
                  is measured, never left half-written
  -quick          pass -quick to run, lockwait and tune: a smoke test, not
                  figures to publish
  -benchtime D    time per sample, or Nx: N iterations per sample; passed
                  to run, tune and peers (default: each command's own)
  -count N        samples per benchmark, at least 4; passed to run, tune
                  and peers (default: each command's own)

Other commands: halbench -h.
`

// resultsConfig is the parsed command line of halbench results.
type resultsConfig struct {
	path      string // the file to write
	quick     bool
	benchtime string // "" for each command's default
	count     int    // 0 for each command's default
	// tmp is a new file beside path, made when the command line is
	// parsed (so that an unwritable path fails before minutes of
	// measuring) and renamed to path when the file is complete.
	tmp *os.File
}

func parseResultsArgs(args []string) (*resultsConfig, error) {
	fs := flag.NewFlagSet("halbench results", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "")
	quick := fs.Bool("quick", false, "")
	var benchtime benchtimeValue
	fs.Var(&benchtime, "benchtime", "")
	count := fs.Int("count", 0, "")
	set, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	cfg := &resultsConfig{path: *out, quick: *quick}
	if set["benchtime"] {
		cfg.benchtime = benchtime.String()
	}
	if set["count"] {
		if *count < minRuleSamples {
			return nil, &usageError{fmt.Sprintf("-count %d: need at least %d samples (tune's least, and the fewest that give a verdict)", *count, minRuleSamples)}
		}
		cfg.count = *count
	}
	if set["o"] && cfg.path == "" {
		return nil, &usageError{"-o: empty file name"}
	}
	if cfg.path == "" {
		cfg.path = filepath.Join("results", resultsSlug(buildFeaturesReport())+".md")
		if err := os.MkdirAll(filepath.Dir(cfg.path), 0o777); err != nil {
			return nil, &usageError{fmt.Sprintf("-o %s (the default): %v", cfg.path, err)}
		}
	}
	if st, err := os.Stat(cfg.path); err == nil && st.IsDir() {
		return nil, &usageError{fmt.Sprintf("-o %s: is a directory", cfg.path)}
	}
	tmp, err := os.CreateTemp(filepath.Dir(cfg.path), ".halbench-results-*.md")
	if err != nil {
		return nil, &usageError{fmt.Sprintf("-o %s: cannot write there: %v", cfg.path, err)}
	}
	cfg.tmp = tmp
	return cfg, nil
}

// slugJunk is what the slug leaves out of a brand string: trademarks,
// "CPU", "Processor", the clock ("@ 2.90GHz").
var slugJunk = regexp.MustCompile(`(?i)\((r|tm|c)\)|\bcpu\b|\bprocessor\b|@.*$`)

// resultsSlug names a machine's results file from its CPU: the brand's
// words, lowercase, joined by "-", then the family and model
// ("intel-xeon-family6-model167"); the vendor or GOARCH when there is no
// brand.
func resultsSlug(r featuresReport) string {
	f := r.Features.Features
	name := f.Brand
	if strings.TrimSpace(name) == "" {
		name = f.Vendor
	}
	name = slugJunk.ReplaceAllString(name, " ")
	words := strings.FieldsFunc(strings.ToLower(name), func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
	})
	if len(words) == 0 {
		words = []string{f.GOARCH, "unknown"}
	}
	if f.Family != 0 || f.Model != 0 {
		words = append(words, fmt.Sprintf("family%d", f.Family), fmt.Sprintf("model%d", f.Model))
	}
	return strings.Join(words, "-")
}

// resultsCmd is a section's command: the arguments after halbench.
type resultsCmd []string

// String is the command line as pasted from the repository's root.
func (c resultsCmd) String() string {
	s := "go run ./cmd/halbench"
	if len(c) > 0 {
		s += " " + shellJoin(c)
	}
	return s
}

// resultsSection is one part of the file: its heading, the command that
// reproduces its tables, and what measures and renders them into w.
type resultsSection struct {
	Heading string
	Intro   string
	Cmd     resultsCmd
	measure func(cmd resultsCmd, w io.Writer, stderr io.Writer) error
}

// resultsHeadings are the sections' headings in order; the test checks the
// file for each.
var resultsHeadings = []string{
	"The machine",
	"What dispatch costs: one goroutine",
	"What dispatch costs: contended",
	"The 128-bit ops",
	"Locks: throughput",
	"Locks: how long Lock waits",
	"Reader/writer locks",
	"Counters and refcounts",
	"The per-CPU cache",
	"Against other libraries",
	"Tune's advice",
}

// opsFilter is a run -filter selecting the sections' benchmarks of the ops
// that keep says: "^(Dispatch|Contended)/op=(cas128|load128)/", from the
// suite's benchmarks, so that a new op joins its table by itself. It is
// "" when no benchmark qualifies.
func opsFilter(sections []string, keep func(op string) bool) string {
	inSection := map[string]bool{}
	for _, s := range sections {
		inSection[s] = true
	}
	var ops []string
	seen := map[string]bool{}
	for _, bm := range suite.Select(suite.Options{}) {
		if !inSection[bm.Section] {
			continue
		}
		op := nameElem(bm.Name, "op")
		if op == "" || seen[op] || !keep(op) {
			continue
		}
		seen[op] = true
		ops = append(ops, regexp.QuoteMeta(op))
	}
	if len(ops) == 0 {
		return ""
	}
	sec := sections[0]
	if len(sections) > 1 {
		sec = "(" + strings.Join(sections, "|") + ")"
	}
	return "^" + sec + "/op=(" + strings.Join(ops, "|") + ")/"
}

// nameElem returns the value of key=value in a benchmark name's elements,
// or "".
func nameElem(name, key string) string { v, _ := cutElement(name, key); return v }

// is128 tells the 128-bit ops (cas128, load128mixed, ...) from the rest.
func is128(op string) bool { return strings.Contains(op, "128") }

// flags returns the flags results passes on: -quick, if set, to run and
// tune (common), and -benchtime and -count, if set, to run, tune and peers
// (sampling).
func (cfg *resultsConfig) flags() (common, sampling []string) {
	if cfg.quick {
		common = append(common, "-quick")
	}
	if cfg.benchtime != "" {
		sampling = append(sampling, "-benchtime", cfg.benchtime)
	}
	if cfg.count > 0 {
		sampling = append(sampling, "-count", strconv.Itoa(cfg.count))
	}
	return common, sampling
}

// sections returns the file's sections for cfg, in resultsHeadings' order.
func (cfg *resultsConfig) sections() []resultsSection {
	common, sampling := cfg.flags()
	runCmd := func(filter string) resultsCmd {
		if filter == "" {
			return nil
		}
		return append(append(resultsCmd{"-filter", filter}, common...), sampling...)
	}
	not128 := func(op string) bool { return !is128(op) }
	s := []resultsSection{
		{Heading: resultsHeadings[0], Cmd: resultsCmd{"features"}, measure: resultsFeatures,
			Intro: "The CPU, its features that gohal uses, and the variant hal chose for each op (and why)."},
		{Heading: resultsHeadings[1], Cmd: runCmd(opsFilter([]string{"Dispatch"}, not128)), measure: resultsRun,
			Intro: "One uncontended operation on one goroutine, through each binding mode (the modes are explained below the table)."},
		{Heading: resultsHeadings[2], Cmd: runCmd(opsFilter([]string{"Contended"}, not128)), measure: resultsRun,
			Intro: "Every goroutine on one shared word: ns/op is wall time over all operations (the inverse of throughput)."},
		{Heading: resultsHeadings[3], Cmd: runCmd(opsFilter([]string{"Dispatch", "Contended"}, is128)), measure: resultsRun,
			Intro: "Load, store and compare-and-swap of 128 bits, uncontended and on one shared cell."},
		{Heading: resultsHeadings[4], Cmd: runCmd("^(Lock|Handover)/"), measure: resultsRun,
			Intro: "Lock + critical section (an increment of the guarded counter, then cs ns of busy work) + Unlock; ns/op is wall time per acquisition over all goroutines, against sync.Mutex."},
		{Heading: resultsHeadings[5], Cmd: append(resultsCmd{"lockwait"}, common...), measure: resultsSub(runLockWait, false),
			Intro: "The distribution of each lock's Lock waits beside sync.Mutex's: p50, p99, p99.9, max, and the waits of at least 1 ms and 32 ms."},
		{Heading: resultsHeadings[6], Cmd: runCmd("^RWLock/"), measure: resultsRun,
			Intro: "RLock + a load + RUnlock, or Lock + an increment + Unlock at writes per 1000 operations: percpu.RWMutex and sync.Mutex against sync.RWMutex; ns/op is wall time per operation over all goroutines."},
		{Heading: resultsHeadings[7], Cmd: runCmd("^(Refcount|Counter)/"), measure: resultsRun,
			Intro: "One Inc of a shared reference count, and one Add(1) of a shared counter, by kind."},
		{Heading: resultsHeadings[8], Cmd: runCmd("^Cache/"), measure: resultsRun,
			Intro: "Take an object from a cache, touch it, give it back: percpu.Cache against a mutex-guarded free list and sync.Pool."},
		{Heading: resultsHeadings[9], Cmd: append(resultsCmd{"peers", "-markdown"}, sampling...), measure: resultsSub(runPeers, true),
			Intro: "The kit's types against sync/atomic, sync.Mutex, xsync and the other peers (the peers module, a module of its own): per task the ratio of each implementation's median to the best peer's at the same thread count (below 1: faster than every peer); the last row of a task is the best peer's median. The columns are goroutines."},
		{Heading: resultsHeadings[10], Cmd: append(append(resultsCmd{"tune"}, common...), sampling...), measure: resultsTune,
			Intro: "Every op with more than one variant this CPU runs, each variant forced and timed, and the kit's questions (which lock, reader/writer lock, counter, cache), decided by the report's one rule."},
	}
	return s
}

// runResults implements `halbench results`.
func runResults(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseResultsArgs(args)
	if code, done := argsDone(stderr, "results", resultsUsage, err); done {
		return code
	}
	written := false
	defer func() {
		if !written {
			cfg.tmp.Close()
			os.Remove(cfg.tmp.Name())
		}
	}()
	var buf bytes.Buffer
	failed := writeResults(&buf, cfg, stderr)
	if _, err := cfg.tmp.Write(buf.Bytes()); err == nil {
		err = cfg.tmp.Close()
	}
	if err == nil {
		err = os.Chmod(cfg.tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(cfg.tmp.Name(), cfg.path)
	}
	if err != nil {
		return exitFor(stderr, "halbench results", err)
	}
	written = true
	fmt.Fprintln(stdout, cfg.path)
	if failed > 0 {
		fmt.Fprintf(stderr, "halbench results: %d section(s) could not be measured; %s says which\n", failed, cfg.path)
		return 1
	}
	return 0
}

// writeResults measures every section and writes the file to w; it
// returns how many sections failed (each says so in the file).
func writeResults(w io.Writer, cfg *resultsConfig, stderr io.Writer) int {
	start := time.Now()
	machine := buildFeaturesReport()
	f := machine.Features.Features
	common, sampling := cfg.flags()
	self := append(append(append(resultsCmd{"results"}, common...), sampling...), "-o", filepath.ToSlash(cfg.path))
	brand := f.Brand
	if brand == "" {
		brand = "unknown CPU"
	}
	fmt.Fprintf(w, "# gohal on %s (%s)\n\n", brand, f.GOARCH)
	fmt.Fprintf(w, "Written by `%s` on %s: %s %s/%s, GOMAXPROCS %d, %d CPUs.\n\n",
		self, time.Now().UTC().Format("2006-01-02"), runtime.Version(), runtime.GOOS, runtime.GOARCH, gomaxprocs(), runtime.NumCPU())
	fmt.Fprintf(w, "**These figures are for this machine only.** Another CPU, another hypervisor, another Go\n")
	fmt.Fprintf(w, "release or other work on the machine gives other figures, and can give other advice; the\n")
	fmt.Fprintf(w, "file states what was measured here, not rules. Nothing in it is typed by hand: to regenerate it,\n")
	fmt.Fprintf(w, "run from the repository's root, on a machine otherwise idle:\n\n```sh\n%s\n```\n\n", self)
	fmt.Fprintf(w, "Each table below is preceded by the command line that reproduces it alone.\n")
	if cfg.quick {
		fmt.Fprintf(w, "This run set `-quick`: a smoke test of few, short samples, not figures to publish.\n")
	}
	failed := 0
	secs := cfg.sections()
	for i, s := range secs {
		fmt.Fprintf(w, "\n## %s\n\n%s\n\n", s.Heading, s.Intro)
		if s.Cmd == nil {
			fmt.Fprintf(w, "No benchmark of this section exists on %s.\n", runtime.GOARCH)
			continue
		}
		fmt.Fprintf(stderr, "halbench results: section %d/%d, %s: %s\n", i+1, len(secs), s.Heading, s.Cmd)
		fmt.Fprintf(w, "```sh\n%s\n```\n\n", s.Cmd)
		var out bytes.Buffer
		if err := s.measure(s.Cmd, &out, stderr); err != nil {
			failed++
			fmt.Fprintf(w, "Not measured: %s\n", oneLine(err.Error()))
			fmt.Fprintf(stderr, "halbench results: %s: %v\n", s.Heading, err)
			continue
		}
		w.Write(out.Bytes())
	}
	fmt.Fprintf(w, "\n---\n\nMeasured in %.0f s.\n", time.Since(start).Seconds())
	return failed
}

// mdText escapes text for Markdown where it would not read as written:
// "<Op>" would be an HTML tag.
func mdText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "&", "&amp;"), "<", "&lt;")
}

// oneLine joins a multi-line message into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fenced writes text as a fenced code block.
func fenced(w io.Writer, text string) {
	fmt.Fprintf(w, "```text\n%s", text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "```")
}

// details writes text as a fenced block folded under summary.
func details(w io.Writer, summary, text string) {
	fmt.Fprintf(w, "\n<details><summary>%s</summary>\n\n", summary)
	fenced(w, text)
	fmt.Fprintln(w, "\n</details>")
}

// resultsFeatures is `halbench features`.
func resultsFeatures(cmd resultsCmd, w, stderr io.Writer) error {
	var b strings.Builder
	writeFeatures(&b, buildFeaturesReport())
	fenced(w, b.String())
	return nil
}

// resultsRun measures a run command (its arguments after halbench) and
// writes each of its sections as a Markdown table of the medians, then
// the report's own table (intervals, ratios to the baseline, legend).
func resultsRun(cmd resultsCmd, w, stderr io.Writer) error {
	cfg, err := parseRunArgs(cmd)
	if err != nil {
		return fmt.Errorf("%s: %v", cmd, err)
	}
	benchs := suite.Select(suite.Options{Threads: cfg.threads, Filter: cfg.filter, Full: cfg.full})
	if len(benchs) == 0 {
		return fmt.Errorf("%s: the filter matches no benchmark", cmd)
	}
	rep, err := measureRun(cfg, benchs, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d samples of %s per benchmark, interleaved after a warm-up; medians, ns/op / cycles/op (the cycle counter's cycles at %.4g MHz).\n",
		rep.Count, rep.SampleTime, rep.Machine.Features.CounterHz/1e6)
	if len(rep.Answers) > 0 {
		fmt.Fprintf(w, "\nThe questions these benchmarks answer, by the report's rule (ratio of ns/op, its %v %% interval; an interval holding 1 is a tie):\n\n", confidence)
		writeAnswersMarkdown(w, rep.Answers)
	}
	for _, s := range rep.Sections {
		fmt.Fprintf(w, "\n**%s**\n\n", s.Title)
		writePivot(w, s)
		writeLegends(w, s)
		var b strings.Builder
		writeSection(&b, s)
		details(w, "the report's table: intervals and ratios to the baseline", b.String())
	}
	return nil
}

// writePivot writes a section as Markdown tables: a column per mode (or
// kind, for the kit's sections), a row per rest of the name (the op, the
// threads, the critical section), each cell the medians "ns/op /
// cycles/op". A row joins the table that shares most of its columns, if
// that is more than half, else starts a table of its own (hal.CPU's
// variants are modes of their own), so that no table is mostly empty.
func writePivot(w io.Writer, s sectionReport) {
	key := "kind"
	for _, b := range s.Benchmarks {
		if nameElem(b.Name, "mode") != "" {
			key = "mode"
			break
		}
	}
	type row struct {
		label string
		cols  []string
		cells map[string]string
	}
	var rows []*row
	byLabel := map[string]*row{}
	for _, b := range s.Benchmarks {
		col := nameElem(b.Name, key)
		var rest []string
		for _, e := range strings.Split(strings.TrimPrefix(b.Name, s.Name+"/"), "/") {
			if !strings.HasPrefix(e, key+"=") {
				rest = append(rest, strings.TrimPrefix(e, "op="))
			}
		}
		label := strings.Join(rest, " ")
		r := groupOf(byLabel, &rows, label, func() *row { return &row{label: label, cells: map[string]string{}} })
		if _, dup := r.cells[col]; !dup {
			r.cols = append(r.cols, col)
		}
		r.cells[col] = num(float64(b.NsPerOp.Median)) + " / " + num(float64(b.CyclesPerOp.Median))
	}
	type table struct {
		cols []string
		rows []*row
	}
	var tables []*table
	for _, r := range rows {
		var t *table // the table sharing most of r's columns, if over half
		best := 0
		for _, u := range tables {
			shared := 0
			for _, c := range r.cols {
				if slices.Contains(u.cols, c) {
					shared++
				}
			}
			if 2*shared > len(r.cols) && shared > best {
				t, best = u, shared
			}
		}
		if t == nil {
			t = &table{}
			tables = append(tables, t)
		}
		for _, c := range r.cols {
			if !slices.Contains(t.cols, c) {
				t.cols = append(t.cols, c)
			}
		}
		t.rows = append(t.rows, r)
	}
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "| benchmark |")
		for _, c := range t.cols {
			fmt.Fprintf(w, " %s=%s |", key, c)
		}
		fmt.Fprint(w, "\n| --- |")
		for range t.cols {
			fmt.Fprint(w, " ---: |")
		}
		fmt.Fprintln(w)
		for _, r := range t.rows {
			fmt.Fprintf(w, "| %s |", r.label)
			for _, c := range t.cols {
				v, ok := r.cells[c]
				if !ok {
					v = "–"
				}
				fmt.Fprintf(w, " %s |", v)
			}
			fmt.Fprintln(w)
		}
	}
}

// writeLegends writes the section's legends as a list, leaving out those
// of a mode or kind no benchmark of the table has (the section's legends
// cover every op, and a filter can leave some out).
func writeLegends(w io.Writer, s sectionReport) {
	elems := map[string]bool{}
	for _, b := range s.Benchmarks {
		for _, e := range strings.Split(b.Name, "/") {
			elems[e] = true
		}
	}
	first := true
	for _, l := range s.Legends {
		if k, _, ok := strings.Cut(l.Key, "="); ok && (k == "mode" || k == "kind") && !elems[l.Key] {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "- `%s`: %s\n", l.Key, mdText(l.Text))
	}
}

// resultsSub is a subcommand run by runSub, its output fenced (lockwait)
// or, already Markdown, as it is (peers -markdown).
func resultsSub(runSub func(args []string, stdout, stderr io.Writer) int, markdown bool) func(resultsCmd, io.Writer, io.Writer) error {
	return func(cmd resultsCmd, w, stderr io.Writer) error {
		var out bytes.Buffer
		if code := runSub(cmd[1:], &out, stderr); code != 0 {
			return fmt.Errorf("%s: exit status %d (its error is on standard error)", cmd, code)
		}
		if markdown {
			w.Write(out.Bytes())
		} else {
			fenced(w, out.String())
		}
		return nil
	}
}

// resultsTune is `halbench tune`: the advice and the GOHAL line, then its
// whole report folded.
func resultsTune(cmd resultsCmd, w, stderr io.Writer) error {
	cfg, err := parseTuneArgs(cmd[1:])
	if err != nil {
		return fmt.Errorf("%s: %v", cmd, err)
	}
	rep := measureTune(cfg, stderr)
	fmt.Fprintf(w, "%d samples of %s per variant and goroutine count (%s).", rep.Count, rep.SampleTime, joinInts(rep.Threads))
	if rep.Quick {
		fmt.Fprint(w, " -quick: a smoke test, not advice.")
	}
	fmt.Fprintln(w)
	if len(rep.Kit) > 0 {
		fmt.Fprintln(w, "\nThe kit on this machine (the jobs and their figures are in tune's report below):")
		fmt.Fprintln(w)
		for _, kr := range rep.Kit {
			fmt.Fprintf(w, "- %s\n", kr.Overall)
		}
	}
	fmt.Fprintln(w)
	switch {
	case rep.Withdrawn != "" && rep.GOHAL == "":
		// Every setting was withdrawn; where some survived, the default
		// case prints them and tune's report below names the rest and why.
		fmt.Fprintf(w, "hal's ops: the settings `GOHAL=%s` made the kit or an op slower when applied, and were withdrawn: keep the feature choices.\n", rep.Withdrawn)
	case rep.GOHAL == "":
		fmt.Fprintln(w, "hal's ops: nothing to change, the feature choices stand (the GOHAL line is empty).")
	default:
		fmt.Fprintf(w, "hal's ops: set this in the program's environment (it overrides the feature choice at init):\n\n```sh\nGOHAL=%s\n```\n", rep.GOHAL)
	}
	var b strings.Builder
	if err := writeTuneText(&b, rep); err != nil {
		return err
	}
	details(w, "tune's report: every variant's figures and each decision's reason", b.String())
	return nil
}
