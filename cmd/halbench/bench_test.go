package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
	"golang.org/x/perf/benchfmt"
)

// tinyArgs make a run measure every benchmark on a tiny budget: the
// default run's harness and report, minus the time.
var tinyArgs = []string{"-benchtime", "100us", "-count", "4"}

// runHalbench runs halbench with args and returns the exit status, stdout
// and stderr.
func runHalbench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeFile writes data to path, failing t if it cannot.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var (
	tinyOnce               sync.Once
	tinyCode               int
	tinyStdout, tinyStderr string
)

// tinyRun runs the default command (run, text) over every benchmark once
// per test binary.
func tinyRun(t *testing.T) (int, string, string) {
	tinyOnce.Do(func() { tinyCode, tinyStdout, tinyStderr = runHalbench(t, tinyArgs...) })
	return tinyCode, tinyStdout, tinyStderr
}

// TestRunPrintsEverySection runs the default command's harness over every
// benchmark of the default selection on a tiny budget and checks that the
// report has every part the issue asks for.
func TestRunPrintsEverySection(t *testing.T) {
	code, out, errOut := tinyRun(t)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	// stderr is not a terminal: a line per section as it starts, and
	// nothing else (issue 21 item 8; before, nothing at all).
	var sections []string
	for _, s := range suite.Sections() {
		if len(suite.Select(suite.Options{Filter: regexp.MustCompile("^" + regexp.QuoteMeta(s.Name) + "/")})) > 0 {
			sections = append(sections, s.Name)
		}
	}
	checkProgress(t, errOut, sections)
	want := []string{
		"CPU:", "Features:", "Counter:", "OP ", "VARIANT", "fetchadd64",
		"question", "use here", "instead of", "== Answers by workload",
	}
	for _, q := range suite.Questions() {
		want = append(want, "\n"+q.Ask+"  ")
	}
	for _, s := range suite.Sections() {
		want = append(want, "== "+s.Title+" ==")
	}
	for _, bm := range suite.Select(suite.Options{}) {
		want = append(want, strings.TrimPrefix(bm.Name, bm.Section+"/")+" ")
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	checkFirstScreen(t, out)
	if strings.Contains(out, "Student's t") || strings.Contains(out, "at 95.0% confidence") {
		t.Errorf("the report prints ministat's t test conclusion beside its own rule")
	}
	// Every ratio cell is well formed: "r× [lo, hi]" with lo ≤ hi.
	re := regexp.MustCompile(`([0-9.]+)× \[([0-9.]+), ([0-9.]+)\]`)
	cells := re.FindAllStringSubmatch(out, -1)
	if len(cells) == 0 {
		t.Fatal("no ratio cells")
	}
	for _, c := range cells {
		lo, _ := strconv.ParseFloat(c[2], 64)
		hi, _ := strconv.ParseFloat(c[3], 64)
		if lo > hi {
			t.Errorf("ratio cell %q: interval upside down", c[0])
		}
	}
	if strings.Contains(out, "NaN") {
		t.Error("output contains NaN")
	}
}

// TestGoBenchFormat checks -format gobench with x/perf/benchfmt, the
// parser benchstat uses: every line parses, every result carries ns/op
// and cycles/op, the configuration is there, and every unit has its Unit
// line.
func TestGoBenchFormat(t *testing.T) {
	const count = 3
	code, out, errOut := runHalbench(t, "-format", "gobench", "-benchtime", "100us", "-count", strconv.Itoa(count),
		"-threads", "1,2", "-filter", `^Dispatch/op=fetchadd64/|^Lock/kind=(ttas|mutex)/|^Counter/kind=casloop/`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "goos: ") {
		t.Errorf("output does not start with the goos line:\n%.200s", out)
	}
	wantNames := map[string]bool{}
	for _, bm := range suite.Select(suite.Options{Threads: []int{1, 2}, Filter: regexp.MustCompile(`^Dispatch/op=fetchadd64/|^Lock/kind=(ttas|mutex)/|^Counter/kind=casloop/`)}) {
		wantNames[bm.Name] = true
	}
	suffix := ""
	if p := gomaxprocs(); p > 1 {
		suffix = fmt.Sprintf("-%d", p)
	}
	r := benchfmt.NewReader(strings.NewReader(out), "halbench.txt")
	seen := map[string]int{}
	units := map[string]string{}
	usedUnits := map[string]bool{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		case *benchfmt.UnitMetadata:
			if rec.Key == "better" {
				units[rec.OrigUnit] = rec.Value
			}
		case *benchfmt.Result:
			name := rec.Name.String()
			if !strings.HasSuffix(name, suffix) {
				t.Errorf("%s: no GOMAXPROCS suffix %q", name, suffix)
			}
			base := strings.TrimSuffix(name, suffix)
			if !wantNames[base] {
				t.Errorf("unexpected result %s", name)
			}
			seen[base]++
			if rec.Iters <= 0 {
				t.Errorf("%s: %d iterations", name, rec.Iters)
			}
			for _, key := range []string{"goos", "goarch", "pkg", "cpu", "gohal-fetchadd64", "gohal-cycles"} {
				if rec.GetConfig(key) == "" {
					t.Errorf("%s: no %s configuration", name, key)
				}
			}
			if got := rec.GetConfig("pkg"); got != gobenchPkg {
				t.Errorf("pkg = %q", got)
			}
			if got, want := rec.GetConfig("gohal-fetchadd64"), haltool.Table().FetchAddUint64.Variant; got != want {
				t.Errorf("gohal-fetchadd64 = %q, want %q", got, want)
			}
			have := map[string]float64{}
			for _, v := range rec.Values {
				u := v.OrigUnit
				if u == "" {
					u = v.Unit
				}
				have[u] = v.OrigValue
				if v.OrigUnit == "" {
					have[u] = v.Value
				}
				usedUnits[u] = true
			}
			for _, u := range []string{"ns/op", cyclebench.CyclesUnit} {
				if v, ok := have[u]; !ok || !(v > 0) || math.IsInf(v, 0) {
					t.Errorf("%s: %s = %v (present %v)", name, u, v, ok)
				}
			}
			if strings.HasPrefix(base, "Lock/") {
				if _, ok := have[cyclebench.FairnessUnit]; !ok {
					t.Errorf("%s: no %s", name, cyclebench.FairnessUnit)
				}
			}
			if strings.HasPrefix(base, "Counter/kind=casloop") {
				if _, ok := have["retries/op"]; !ok {
					t.Errorf("%s: no retries/op", name)
				}
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for n := range wantNames {
		if seen[n] != count {
			t.Errorf("%s: %d result lines, want %d (one per sample)", n, seen[n], count)
		}
	}
	for u := range usedUnits {
		if units[u] != "lower" {
			t.Errorf("unit %s: better=%q, want a 'Unit %s better=lower' line", u, units[u], u)
		}
	}
	// And halbench compare, which reads the same format, accepts it.
	file := filepath.Join(t.TempDir(), "a.bench")
	writeFile(t, file, out)
	if code, cmpOut, cmpErr := runHalbench(t, "compare", "-n", "-v", file); code != 0 || !strings.Contains(cmpOut, "\nLock/kind=ttas/threads=2/cs=0"+suffix+"  ") ||
		!strings.Contains(cmpOut, "BenchmarkLock/kind=ttas/threads=2/cs=0"+suffix+" cycles/op") {
		t.Errorf("halbench compare on -format gobench output: exit %d, %s\n%s", code, cmpErr, cmpOut)
	}
}

// TestJSONAndSVG checks -json's report and that -svg writes well-formed
// XML with both charts.
func TestJSONAndSVG(t *testing.T) {
	svgPath := filepath.Join(t.TempDir(), "charts.svg")
	code, out, errOut := runHalbench(t, "-json", "-svg", svgPath, "-benchtime", "100us", "-count", "4",
		"-filter", `^Dispatch/op=(fetchadd64|pause)/|^Lock/kind=(ttas|mutex)/|^Contended/op=fetchadd64/mode=(api|inline)/`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		GOARCH   string `json:"goarch"`
		Count    int    `json:"count"`
		Machine  featuresReportJSON
		Sections []struct {
			Name       string
			Benchmarks []struct {
				Name    string
				Threads int
				NsPerOp struct{ Median *float64 } `json:"ns_per_op"`
				Ratio   *struct{ Ratio, Lo, Hi *float64 }
				Samples []struct {
					Iters   int
					NsPerOp float64 `json:"ns_per_op"`
					Metrics map[string]float64
				}
			}
		}
		Answers []struct {
			Key      string
			Headline struct{ Use string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-json output does not parse: %v\n%.500s", err, out)
	}
	if rep.Count != 4 || len(rep.Sections) != 3 || len(rep.Answers) != 2 || rep.Answers[0].Key != "lock" || rep.Answers[1].Headline.Use == "" {
		t.Errorf("count %d, %d sections, answers %+v (want lock and binding)", rep.Count, len(rep.Sections), rep.Answers)
	}
	checkFeaturesShape(t, rep.Machine)
	for _, s := range rep.Sections {
		for _, b := range s.Benchmarks {
			if len(b.Samples) != 4 || b.NsPerOp.Median == nil || !(*b.NsPerOp.Median > 0) {
				t.Errorf("%s: %d samples, median %v", b.Name, len(b.Samples), b.NsPerOp.Median)
			}
			for _, smp := range b.Samples {
				if smp.Iters <= 0 || !(smp.NsPerOp > 0) || !(smp.Metrics[cyclebench.CyclesUnit] > 0) {
					t.Errorf("%s: sample %+v", b.Name, smp)
				}
			}
			if b.Ratio != nil && (b.Ratio.Ratio == nil || b.Ratio.Lo == nil || b.Ratio.Hi == nil ||
				!(*b.Ratio.Lo <= *b.Ratio.Ratio && *b.Ratio.Ratio <= *b.Ratio.Hi)) {
				t.Errorf("%s: ratio %+v missing or outside its interval", b.Name, *b.Ratio)
			}
		}
	}
	data, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	texts := checkXML(t, data)
	for _, want := range []string{"Contention scaling", "Binding modes", "Lock cs=0", "Contended op=fetchadd64", "ttas", "mutex", "op=fetchadd64", "op=pause", "table", "closure"} {
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("SVG has no text %q", want)
		}
	}
}

// checkXML decodes data as XML, requiring an <svg> root, and returns its
// character data.
func checkXML(t *testing.T, data []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	depth, root := 0, ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = tok.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if s := strings.TrimSpace(string(tok)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	if root != "svg" || depth != 0 {
		t.Errorf("root element %q, final depth %d", root, depth)
	}
	return texts
}

// TestSVGEscapes feeds names that need escaping through the chart code.
func TestSVGEscapes(t *testing.T) {
	r := &report{GOOS: "linux", GOARCH: "amd64", Mode: "quick", byName: map[string]*benchReport{}}
	mk := func(name string, threads int, ns float64) *benchReport {
		return &benchReport{Name: name, Threads: threads, Baseline: name,
			NsPerOp: summary{Median: jnum(ns), Lo: jnum(ns * 0.9), Hi: jnum(ns * 1.1)}}
	}
	r.Sections = []sectionReport{
		{Name: "Lock", Benchmarks: []*benchReport{
			mk("Lock/kind=a<b&c/threads=1/cs=0", 1, 10), mk("Lock/kind=a<b&c/threads=2/cs=0", 2, 30),
			mk(`Lock/kind="q"/threads=1/cs=0`, 1, 0.5), mk(`Lock/kind="q"/threads=2/cs=0`, 2, 2000),
		}},
		{Name: "Dispatch", Benchmarks: []*benchReport{mk("Dispatch/op=x>y/mode=api", 1, 3), mk("Dispatch/op=x>y/mode=inline", 1, math.NaN())}},
	}
	var b bytes.Buffer
	if err := writeSVG(&b, r); err != nil {
		t.Fatal(err)
	}
	texts := strings.Join(checkXML(t, b.Bytes()), "\n")
	for _, want := range []string{"a<b&c", `"q"`, "x>y"} {
		if !strings.Contains(texts, want) {
			t.Errorf("SVG text lacks %q", want)
		}
	}
	if strings.Contains(b.String(), "NaN") {
		t.Error("SVG contains NaN coordinates")
	}
}

// TestSVGNotLeftOnFailure: a run that fails to start leaves no empty
// chart file behind.
func TestSVGNotLeftOnFailure(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.svg")
	if code, _, _ := runHalbench(t, "-svg", p, "-filter", "NoSuchBenchmark"); code != 2 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s left behind (%v)", p, err)
	}
}

func TestList(t *testing.T) {
	code, out, _ := runHalbench(t, "-list", "-threads", "3", "-filter", "^Counter/kind=(fetchadd|casloop|striped)/")
	want := "Counter/kind=fetchadd/threads=3\nCounter/kind=casloop/threads=3\nCounter/kind=striped/threads=3\n"
	if code != 0 || out != want {
		t.Errorf("-list: exit %d, output\n%s\nwant\n%s", code, out, want)
	}
	_, quick, _ := runHalbench(t, "-list")
	_, full, _ := runHalbench(t, "-list", "-full")
	if nq, nf := strings.Count(quick, "\n"), strings.Count(full, "\n"); nq == 0 || nq >= nf {
		t.Errorf("-list selects %d, -list -full %d: want fewer in the quick run", nq, nf)
	}
}

func TestParseRunArgsDefaults(t *testing.T) {
	cfg, err := parseRunArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.count < 10 || cfg.format != "text" || cfg.full || cfg.budget <= 0 || cfg.budget > 55*time.Second ||
		fmt.Sprint(cfg.threads) != "[1 2 4 8]" || cfg.sampleTime <= 0 {
		t.Errorf("defaults: %+v", cfg)
	}
	full, err := parseRunArgs([]string{"-full"})
	if err != nil {
		t.Fatal(err)
	}
	if full.count <= cfg.count || full.sampleTime <= cfg.sampleTime || full.budget != 0 {
		t.Errorf("-full: %+v", full)
	}
	exact, err := parseRunArgs([]string{"-benchtime", "3ms", "-count", "4", "-json"})
	if err != nil {
		t.Fatal(err)
	}
	if exact.sampleTime != 3*time.Millisecond || exact.count != 4 || exact.budget != 0 || exact.format != "json" {
		t.Errorf("-benchtime 3ms -count 4 -json: %+v", exact)
	}
}

// FuzzParseThreads: parseThreads never panics, and what it accepts is a
// list of distinct counts in range that prints back to an equivalent
// list.
func FuzzParseThreads(f *testing.F) {
	for _, s := range []string{"1,2,4,8", "1,x", "0", "", " 3 , 5", "2,2", "-1", "1,,2", "99999999999999999999", "1024", "1025"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := parseThreads(s)
		if err != nil {
			if ts != nil {
				t.Errorf("parseThreads(%q) = %v with error %v", s, ts, err)
			}
			return
		}
		if len(ts) == 0 {
			t.Fatalf("parseThreads(%q) accepted an empty list", s)
		}
		seen := map[int]bool{}
		var parts []string
		for _, n := range ts {
			if n < 1 || n > maxThreads || seen[n] {
				t.Fatalf("parseThreads(%q) = %v", s, ts)
			}
			seen[n] = true
			parts = append(parts, strconv.Itoa(n))
		}
		again, err := parseThreads(strings.Join(parts, ","))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(ts) {
			t.Fatalf("round trip of %v: %v, %v", ts, again, err)
		}
	})
}

// FuzzParseRunArgs: any command line either parses into a usable
// configuration or is a usage error; it never panics.
func FuzzParseRunArgs(f *testing.F) {
	for _, s := range []string{"", "-quick", "-full -count 5", "-threads 1,x", "-filter (", "-count 0", "-format xml",
		"-json -format gobench", "-benchtime 1ms", "-benchtime 100x", "-benchtime 5", "-threads 2 -filter ^Lock/ -list", "-h", "--", "-count=3 extra"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		for _, a := range args {
			if strings.HasPrefix(strings.TrimLeft(a, "-"), "svg") {
				return // creates files
			}
		}
		cfg, err := parseRunArgs(args)
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) && !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("parseRunArgs(%q): %T %v", args, err, err)
			}
			return
		}
		if cfg.count < 3 || cfg.sampleTime <= 0 || len(cfg.threads) == 0 {
			t.Fatalf("parseRunArgs(%q) = %+v", args, cfg)
		}
		switch cfg.format {
		case "text", "json", "gobench":
		default:
			t.Fatalf("parseRunArgs(%q): format %q", args, cfg.format)
		}
	})
}

// TestBenchstatReadsGoBench runs the real benchstat (built offline from
// the module cache, skipped when it is not there) on two -format gobench
// runs and checks that it compares every benchmark in both units.
func TestBenchstatReadsGoBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	const benchstatPkg = "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"
	bin := t.TempDir()
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	install := exec.Command("go", "install", benchstatPkg)
	install.Env = append(os.Environ(),
		"GOBIN="+bin,
		"GOPROXY=file://"+filepath.ToSlash(filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download")),
		"GOSUMDB=off", "GOFLAGS=")
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("cannot build benchstat offline: %v\n%s", err, out)
	}
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"old.txt", "new.txt"} {
		code, out, errOut := runHalbench(t, "-format", "gobench", "-benchtime", "100us", "-count", "4",
			"-threads", "2", "-filter", `^Dispatch/op=fetchadd64/mode=(api|inline)$|^Lock/kind=ttas/`)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		p := filepath.Join(dir, name)
		writeFile(t, p, out)
		files = append(files, p)
	}
	out, err := exec.Command(filepath.Join(bin, "benchstat"), files...).CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"sec/op", "cycles/op", "fairness-stddev%", "Dispatch/op=fetchadd64/mode=api",
		"Lock/kind=ttas/threads=2/cs=0", "Lock/kind=ttas/threads=2/cs=50", "n=4", "pkg: github.com/gohal/gohal"} {
		if !strings.Contains(text, want) {
			t.Errorf("benchstat output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(strings.ToLower(text), "error") || strings.Contains(text, "parsing") {
		t.Errorf("benchstat complained:\n%s", text)
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer is not a terminal")
	}
}
