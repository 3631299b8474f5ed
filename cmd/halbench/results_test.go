package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/lab/suite"
)

// shellSplit splits a command line as resultsCmd.String writes it: words
// separated by spaces, some in single quotes (with '\” for a quote).
func shellSplit(t *testing.T, line string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// shCommands returns the command lines of the ```sh blocks of md.
func shCommands(md string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case l == "```sh":
			in = true
		case l == "```":
			in = false
		case in:
			out = append(out, l)
		}
	}
	return out
}

// TestResults is issue 21 item 7: `halbench results` writes one Markdown
// file for this machine with every section, each table preceded by the
// command line that reproduces it, and the machine's features line as
// `halbench features` prints it. Run at 1 iteration per sample: a test
// of the file, not of the figures.
func TestResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every measurement of halbench (about 20 s, and the peers module's go test)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the peers section needs the go command")
	}
	path := filepath.Join(t.TempDir(), "machine.md")
	args := []string{"results", "-quick", "-benchtime", "1x", "-count", "4", "-o", path}
	code, out, errOut := runHalbench(t, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d:\n%s", args, code, errOut)
	}
	if out != path+"\n" {
		t.Errorf("stdout %q, want the path %q", out, path+"\n")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".halbench-results-*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}

	// Every section, in order, each with its command line and something
	// measured (a table or a block) and nothing failed.
	headings := []string{"The machine", "What dispatch costs: one goroutine", "What dispatch costs: contended",
		"The 128-bit ops", "Locks: throughput", "Locks: how long Lock waits", "Reader/writer locks", "Counters and refcounts",
		"The per-CPU cache", "Against other libraries", "Tune's advice"}
	var got []string
	for _, l := range strings.Split(md, "\n") {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			got = append(got, h)
		}
	}
	if strings.Join(got, "\n") != strings.Join(headings, "\n") {
		t.Errorf("sections %q, want %q", got, headings)
	}
	for _, part := range strings.Split(md, "\n## ")[1:] {
		h, body, _ := strings.Cut(part, "\n")
		if !strings.Contains(body, "```sh\ngo run ./cmd/halbench ") {
			t.Errorf("section %q has no command line", h)
		}
		if !strings.Contains(body, "\n| ") && !strings.Contains(body, "```text\n") {
			t.Errorf("section %q has no table", h)
		}
		if strings.Contains(body, "Not measured") {
			t.Errorf("section %q failed: %s", h, body)
		}
	}
	for _, s := range []string{"inline", "direct", "flag", "table", "static"} {
		if !strings.Contains(md, "| mode="+s+" |") {
			t.Errorf("no column for mode %s", s)
		}
	}
	for _, s := range []string{"≥1ms", "≥32ms", "p99.9", "mutex", "xsync-counter", "sync-mutex", "GOHAL", "for this machine only"} {
		if !strings.Contains(md, s) {
			t.Errorf("the file lacks %q", s)
		}
	}

	// The command lines: the expected ones, and each accepted by its
	// subcommand's parser; a run filter selects benchmarks.
	// tune's advice, when it has any, is a GOHAL line in an sh block of
	// its own after tune's command: a value to set, not a command line.
	var cmds []string
	for _, c := range shCommands(md) {
		if v, ok := strings.CutPrefix(c, "GOHAL="); ok {
			if len(cmds) == 0 || !strings.Contains(cmds[len(cmds)-1], "halbench tune") {
				t.Errorf("GOHAL line %q does not follow tune's command", c)
			}
			if _, err := dispatch.ParseOverride(v); err != nil {
				t.Errorf("tune's GOHAL line %q does not parse: %v", c, err)
			}
			continue
		}
		cmds = append(cmds, c)
	}
	tiny := " -quick -benchtime 1x -count 4"
	want := []*regexp.Regexp{
		regexp.MustCompile(`^go run \./cmd/halbench results` + tiny + ` -o ` + regexp.QuoteMeta(path) + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench features$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^Dispatch/op=\(fetchadd64\|[a-z0-9|]+\)/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^Contended/op=\(fetchadd64\|[a-z0-9|]+\)/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^\(Dispatch\|Contended\)/op=\([a-z0-9|]*128[a-z0-9|]*\)/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^\(Lock\|Handover\)/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench lockwait -quick$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^RWLock/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^\(Refcount\|Counter\)/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench -filter '\^Cache/'` + tiny + `$`),
		regexp.MustCompile(`^go run \./cmd/halbench peers -markdown -benchtime 1x -count 4$`),
		regexp.MustCompile(`^go run \./cmd/halbench tune` + tiny + `$`),
	}
	if len(cmds) != len(want) {
		t.Fatalf("%d command lines, want %d:\n%s", len(cmds), len(want), strings.Join(cmds, "\n"))
	}
	for i, c := range cmds {
		if !want[i].MatchString(c) {
			t.Errorf("command %d: %q, want %v", i+1, c, want[i])
			continue
		}
		words := shellSplit(t, c)[3:] // after "go run ./cmd/halbench"
		switch words[0] {
		case "features", "peers", "results":
		case "lockwait":
			if _, err := parseLockWaitArgs(words[1:]); err != nil {
				t.Errorf("%q: %v", c, err)
			}
		case "tune":
			if _, err := parseTuneArgs(words[1:]); err != nil {
				t.Errorf("%q: %v", c, err)
			}
		default:
			cfg, err := parseRunArgs(words)
			if err != nil {
				t.Errorf("%q: %v", c, err)
				continue
			}
			if n := len(suite.Select(suite.Options{Threads: cfg.threads, Filter: cfg.filter})); n == 0 {
				t.Errorf("%q selects no benchmark", c)
			}
		}
	}
	// The 64-bit dispatch tables hold no 128-bit op, the 128-bit one
	// only those.
	for _, c := range cmds[2:4] {
		if strings.Contains(c, "128") {
			t.Errorf("%q: a 128-bit op in the 64-bit table", c)
		}
	}

	// The features line is halbench features' CPU and Features lines.
	_, feat, _ := runHalbench(t, "features")
	for _, l := range strings.Split(feat, "\n") {
		if strings.HasPrefix(l, "CPU:") || strings.HasPrefix(l, "Features:") {
			if !strings.Contains(md, "\n"+l+"\n") {
				t.Errorf("the file lacks halbench features' line %q", l)
			}
		}
	}

	// Progress: a line per section on stderr.
	for i := range headings {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^halbench results: section %d/%d, `, i+1, len(headings))).MatchString(errOut) {
			t.Errorf("no progress line for section %d:\n%s", i+1, errOut)
		}
	}
}

// TestResultsUsageError: a bad command line of results is one line with
// the halbench results prefix, one pointing at the usage, exit 2, before
// anything is measured, and no file is left behind.
func TestResultsUsageError(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-benchtime", "5"}, `-benchtime "5": want a duration such as 20ms or a count such as 100x`},
		{[]string{"-benchtime", "0x"}, `-benchtime "0x": want a duration such as 20ms or a count such as 100x`},
		{[]string{"-benchtime", "-1s"}, `-benchtime "-1s": must be positive`},
		{[]string{"-count", "x"}, `-count "x": want a whole number`},
		{[]string{"-count", "3"}, "-count 3: need at least 4 samples"},
		{[]string{"-quick=maybe"}, `-quick "maybe": want true or false`},
		{[]string{"-o", ""}, "-o: empty file name"},
		{[]string{"-o", dir}, "-o " + dir + ": is a directory"},
		{[]string{"-o", filepath.Join(dir, "no-such-dir", "x.md")}, "-o " + filepath.Join(dir, "no-such-dir", "x.md") + ": cannot write there"},
		{[]string{"-o", filepath.Join(dir, "x.md"), "extra"}, `unexpected argument "extra"`},
	} {
		args := append([]string{"results"}, tc.args...)
		code, out, errOut := runHalbench(t, args...)
		checkUsageError(t, args, code, out, errOut, "results", tc.want)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("files left in %s: %v", dir, left)
	}
	code, _, errOut := runHalbench(t, "results", "-h")
	if code != 0 || !strings.HasPrefix(errOut, "usage: halbench results") {
		t.Errorf("results -h: exit %d, %q", code, errOut)
	}
}

// TestResultsDefaultPath: without -o the file is results/<slug>.md in the
// current directory, the directory made if needed.
func TestResultsDefaultPath(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := parseResultsArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(cfg.tmp.Name())
	cfg.tmp.Close()
	if want := filepath.Join("results", resultsSlug(buildFeaturesReport())+".md"); cfg.path != want {
		t.Errorf("path %q, want %q", cfg.path, want)
	}
	if filepath.Dir(cfg.tmp.Name()) != "results" {
		t.Errorf("temporary file %q is not beside %q", cfg.tmp.Name(), cfg.path)
	}
}

func TestResultsSlug(t *testing.T) {
	for _, tc := range []struct {
		f    dispatch.Features
		want string
	}{
		{dispatch.Features{Brand: "Intel(R) Xeon(R) Processor", Vendor: "GenuineIntel", Family: 6, Model: 167, GOARCH: "amd64"}, "intel-xeon-family6-model167"},
		{dispatch.Features{Brand: "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", Family: 6, Model: 158, GOARCH: "amd64"}, "intel-core-i7-8700-family6-model158"},
		{dispatch.Features{Brand: "AMD EPYC 9R14 96-Core Processor", Family: 25, Model: 17, GOARCH: "amd64"}, "amd-epyc-9r14-96-core-family25-model17"},
		{dispatch.Features{Vendor: "ARM", GOARCH: "arm64"}, "arm"},
		{dispatch.Features{GOARCH: "riscv64"}, "riscv64-unknown"},
	} {
		f := tc.f
		if got := resultsSlug(featuresReport{Features: featuresJSON{Features: &f}}); got != tc.want {
			t.Errorf("%+v: slug %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestWritePivot: a column per mode, a row per op, and a row sharing at
// most half its columns (hal.CPU's variant modes) in a table of its own.
func TestWritePivot(t *testing.T) {
	b := func(name string, ns float64) *benchReport {
		return &benchReport{Name: name, NsPerOp: summary{Median: jnum(ns)}, CyclesPerOp: summary{Median: jnum(2 * ns)}}
	}
	s := sectionReport{Name: "Dispatch", Benchmarks: []*benchReport{
		b("Dispatch/op=cas64/mode=api", 1), b("Dispatch/op=cas64/mode=inline", 2), b("Dispatch/op=cas64/mode=table", 3),
		b("Dispatch/op=cpu/mode=api", 4), b("Dispatch/op=cpu/mode=rdpid", 5), b("Dispatch/op=cpu/mode=syscall", 6),
		b("Dispatch/op=swap64/mode=api", 7), b("Dispatch/op=swap64/mode=table", 8),
	}}
	var w strings.Builder
	writePivot(&w, s)
	want := `| benchmark | mode=api | mode=inline | mode=table |
| --- | ---: | ---: | ---: |
| cas64 | 1.00 / 2.00 | 2.00 / 4.00 | 3.00 / 6.00 |
| swap64 | 7.00 / 14.0 | – | 8.00 / 16.0 |

| benchmark | mode=api | mode=rdpid | mode=syscall |
| --- | ---: | ---: | ---: |
| cpu | 4.00 / 8.00 | 5.00 / 10.0 | 6.00 / 12.0 |
`
	if w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
}

// TestTuneBenchtimeCount: tune's -benchtime takes Nx as run's and
// peers' do (results passes one -benchtime to all three), and its worker
// processes get the same.
func TestTuneBenchtimeCount(t *testing.T) {
	for bt, iters := range map[string]int{"100x": 100, "3ms": 0} {
		cfg, err := parseTuneArgs([]string{"-benchtime", bt})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.sampleIters != iters || cfg.sampleTimeText() != bt || cfg.benchtimeArg() != bt {
			t.Errorf("-benchtime %s: iters %d, report %q, worker %q", bt, cfg.sampleIters, cfg.sampleTimeText(), cfg.benchtimeArg())
		}
	}
}

// TestWriteLegends: a section's legend of a mode or kind no benchmark of
// the table has is left out; the others stay.
func TestWriteLegends(t *testing.T) {
	s := sectionReport{Name: "Dispatch",
		Legends:    []legendJSON{{"mode=api", "the API"}, {"mode=rdpid", "cpu only"}, {"cs=N", "a <N> ns section"}},
		Benchmarks: []*benchReport{{Name: "Dispatch/op=cas128/mode=api"}}}
	var w strings.Builder
	writeLegends(&w, s)
	if want := "\n- `mode=api`: the API\n- `cs=N`: a &lt;N> ns section\n"; w.String() != want {
		t.Errorf("got %q, want %q", w.String(), want)
	}
}
