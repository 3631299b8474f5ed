package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/ministat"
)

// The golden files testdata/compare/*.golden are what the real ministat
// (Debian ministat 20150715-1+b1) prints: for column files, ministat run on
// the same files with the same arguments; for Go benchmark files, for every
// benchmark and unit present in every file, the "BenchmarkNAME UNIT" heading
// followed by ministat's output on files of the same names holding that
// series (which compare prints after its summary with -v). Regenerate with
//
//	go test ./cmd/halbench -run TestCompareGolden -update
var update = flag.Bool("update", false, "regenerate testdata/compare/*.golden with /usr/bin/ministat")

const ministatPath = "/usr/bin/ministat"

var compareCases = []struct {
	name string
	args string
}{
	{"two", "a.txt b.txt"},
	{"three", "a.txt b.txt c.txt"},
	{"three-s-w50", "-s -w 50 a.txt b.txt c.txt"},
	{"A-c99", "-A -c 99 a.txt b.txt"},
	{"n", "-n a.txt b.txt c.txt"},
	{"column3", "-C 3 cols.txt"},
	{"csv", "-C 3 -d , one.csv two.csv"},
	{"hex", "hex.txt a.txt"},
	// glibc's getopt permutes too, so ministat takes these as they are.
	{"getopt-permuted", "a.txt -s b.txt -c80"},
	{"getopt-cluster", "-sAc 90 -w60 a.txt c.txt"},
	{"gobench", "old.bench new.bench"},
	{"gobench-A-c90", "-A -c 90 old.bench new.bench"},
	{"gobench-n-one", "-n new.bench"},
	{"gobench-three", "-s old.bench new.bench old.bench"},
	// Issue 10 item 4: BenchmarkX of example.com/a and of example.com/b
	// are two reports.
	{"gobench-pkgs", "-A pkgs-old.bench pkgs-new.bench"},
}

// runMinistat runs the real ministat in dir.
func runMinistat(t *testing.T, dir string, args []string) string {
	t.Helper()
	cmd := exec.Command(ministatPath, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ministat %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// ministatGoBench builds what halbench compare must print for Go benchmark
// files out of ministat's output for each series.
func ministatGoBench(t *testing.T, args []string) string {
	t.Helper()
	var flags, files []string
	for i := 0; i < len(args); i++ {
		switch {
		case strings.HasSuffix(args[i], ".bench"):
			files = append(files, args[i])
		case args[i] == "-c" || args[i] == "-w":
			flags = append(flags, args[i], args[i+1])
			i++
		case args[i] == "-v": // compare's, not ministat's
		default:
			flags = append(flags, args[i])
		}
	}
	var parsed []*benchfile.GoBench
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := benchfile.ParseGoBench(bytes.NewReader(data), f)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, g)
	}
	// The series of the first file present in every file, each package's
	// together, in order of first appearance.
	var common []*benchfile.Series
	var pkgs []string
	for _, s := range parsed[0].Series {
		inAll := true
		for _, g := range parsed {
			inAll = inAll && g.Lookup(s.Pkg, s.Name, s.Unit) != nil
		}
		if inAll {
			common = append(common, s)
			if !slices.Contains(pkgs, s.Pkg) {
				pkgs = append(pkgs, s.Pkg)
			}
		}
	}
	slices.SortStableFunc(common, func(a, b *benchfile.Series) int {
		return slices.Index(pkgs, a.Pkg) - slices.Index(pkgs, b.Pkg)
	})
	var b strings.Builder
	for i, s := range common {
		dir := t.TempDir()
		for i, f := range files {
			var col strings.Builder
			for _, v := range parsed[i].Lookup(s.Pkg, s.Name, s.Unit).Values {
				col.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "\n")
			}
			writeFile(t, filepath.Join(dir, f), col.String())
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if i == 0 && s.Pkg != "" || i > 0 && s.Pkg != common[i-1].Pkg {
			b.WriteString("pkg: " + s.Pkg + "\n")
		}
		b.WriteString("Benchmark" + s.Name + " " + s.Unit + "\n")
		b.WriteString(runMinistat(t, dir, append(slices.Clone(flags), files...)))
	}
	return b.String()
}

func TestCompareGolden(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "compare"))
	if *update {
		if _, err := os.Stat(ministatPath); err != nil {
			t.Fatalf("-update needs %s: %v", ministatPath, err)
		}
	}
	for _, tc := range compareCases {
		t.Run(tc.name, func(t *testing.T) {
			args := strings.Fields(tc.args)
			golden := tc.name + ".golden"
			if *update {
				writeFile(t, golden, ministatOutput(t, args))
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			gobench := strings.Contains(tc.args, ".bench")
			summary := ""
			if gobench {
				// Go benchmark files: the summary, then with -v
				// ministat's reports (issue 21 item 8).
				var stdout, stderr bytes.Buffer
				if code := runCompare(args, &stdout, &stderr); code != 0 {
					t.Fatalf("halbench compare %s: exit %d: %s", tc.args, code, stderr.String())
				}
				summary = stdout.String() + "\n"
				if strings.Contains(summary, ministat.Header) {
					t.Errorf("halbench compare %s without -v printed ministat's reports:\n%s", tc.args, summary)
				}
				args = append([]string{"-v"}, args...)
			}
			var stdout, stderr bytes.Buffer
			code := runCompare(args, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("halbench compare %s: exit %d: %s", tc.args, code, stderr.String())
			}
			if stdout.String() != summary+string(want) {
				t.Errorf("halbench compare %s:\n--- got\n%s--- want (summary, then ministat)\n%s%s", strings.Join(args, " "), stdout.String(), summary, want)
			}
		})
	}
}

// ministatOutput is what the real ministat says halbench compare must print
// for args.
func ministatOutput(t *testing.T, args []string) string {
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasSuffix(a, ".bench") }) {
		return ministatGoBench(t, args)
	}
	return runMinistat(t, ".", args)
}

// TestCompareGoldensAreCurrent checks, when ministat is installed, that
// every golden file is still exactly what ministat prints: none was edited
// by hand and the inputs did not change under them.
func TestCompareGoldensAreCurrent(t *testing.T) {
	if _, err := os.Stat(ministatPath); err != nil {
		t.Skipf("%s not installed: %v", ministatPath, err)
	}
	t.Chdir(filepath.Join("testdata", "compare"))
	for _, tc := range compareCases {
		want := ministatOutput(t, strings.Fields(tc.args))
		got, err := os.ReadFile(tc.name + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s.golden is not what ministat prints now; rerun with -update", tc.name)
		}
	}
}

func TestCompareSkippedSeries(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "compare"))
	var stdout, stderr bytes.Buffer
	if code := runCompare([]string{"-n", "-v", "old.bench", "new.bench"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "halbench compare: skipped github.com/gohal/gohal/hal.BenchmarkOnlyOld-2 ns/op (not in new.bench)\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if strings.Contains(stdout.String(), "OnlyOld") {
		t.Error("reported a benchmark missing from new.bench")
	}
	for _, h := range []string{"BenchmarkAdd/impl=asm-2 ns/op\n", "BenchmarkAdd/impl=asm-2 cycles/op\n", "BenchmarkLoad/impl=asm-2 cycles/op\n"} {
		if !strings.Contains(stdout.String(), h) {
			t.Errorf("no %q block in\n%s", h, stdout.String())
		}
	}
}

func TestCompareQuiet(t *testing.T) {
	// -q is FreeBSD's: the Debian ministat lacks it. It must drop the
	// legend and the header and change nothing else.
	t.Chdir(filepath.Join("testdata", "compare"))
	var full, quiet, stderr bytes.Buffer
	if code := runCompare([]string{"a.txt", "b.txt"}, &full, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	if code := runCompare([]string{"-q", "a.txt", "b.txt"}, &quiet, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	want := strings.Replace(full.String(), "x a.txt\n+ b.txt\n", "", 1)
	want = strings.Replace(want, "    N           Min           Max        Median           Avg        Stddev\n", "", 1)
	if want == full.String() || quiet.String() != want {
		t.Errorf("-q output\n%s\nwant\n%s", quiet.String(), want)
	}
}

func TestCompareDashDash(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range []string{"-n", "b"} {
		writeFile(t, name, "1\n2\n3\n4\n")
	}
	var stdout, stderr bytes.Buffer
	if code := runCompare([]string{"-A", "--", "-n", "b"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "x -n\n+ b\n") || !strings.Contains(stdout.String(), "No difference proven") {
		t.Errorf("output:\n%s", stdout.String())
	}
	// "--" as the value of -d is not the terminator.
	stdout.Reset()
	if code := runCompare([]string{"-d", "--", "b", "-n"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stdout.String(), "Difference") || !strings.Contains(stdout.String(), "x b\n") {
		t.Errorf("-n after a file was not taken as a flag:\n%s", stdout.String())
	}
}

func TestExpandGetopt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-sn a", "-s -n a"},
		{"-c95 a", "-c 95 a"},
		{"-sc 80 a", "-s -c 80 a"},
		{"-sAc99.5 -w60", "-s -A -c 99.5 -w 60"},
		{"-d -n a", "-d -n a"}, // "-n" is the delimiter string
		{"-w=60 -help", "-w=60 -help"},
		{"-snx", "-s -n -x"},
		{"a -- -sn", "a -- -sn"},
		{"--w 60 - b", "--w 60 - b"},
		{"-c", "-c"},
	} {
		if got := strings.Join(expandGetopt(strings.Fields(tc.in)), " "); got != tc.want {
			t.Errorf("expandGetopt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	hint := "run 'halbench compare -h' for usage\n"
	for _, tc := range []struct {
		name string
		args []string
		want string // the first line of stderr
		// usage reports a usage error: the hint line must follow (and
		// nothing else: issue 21 item 8); otherwise nothing follows.
		usage bool
	}{
		{"bad flag", []string{"-x", "a.txt"}, "halbench compare: flag provided but not defined: -x", true},
		{"bad -c", []string{"-c", "97", "a.txt", "b.txt"}, "halbench compare: -c 97: confidence must be one of 80, 90, 95, 98, 99, 99.5", true},
		{"non-numeric -c", []string{"-c", "high", "a.txt"}, "halbench compare: -c high: confidence must be one of 80, 90, 95, 98, 99, 99.5", true},
		{"-c without value", []string{"a.txt", "-c"}, "halbench compare: flag needs an argument: -c", true},
		{"bad -C", []string{"-C", "0", "a.txt"}, "halbench compare: -C 0: columns are numbered from 1", true},
		{"non-numeric -C", []string{"-C", "two", "a.txt"}, `halbench compare: -C "two": want a whole number`, true},
		{"empty -d", []string{"-d", "", "a.txt"}, "halbench compare: -d: the delimiter string is empty", true},
		{"bad -w", []string{"-w", "1", "a.txt"}, "halbench compare: -w 1: the plot needs a width of at least 2", true},
		{"zero files: empty stdin", nil, "halbench compare: <stdin>: 0 data points; at least 3 are needed", false},
		{"zero files with flags", []string{"-s", "-c", "99"}, "halbench compare: <stdin>: 0 data points; at least 3 are needed", false},
		{"stdin twice", []string{"-", "-"}, "halbench compare: <stdin>: 0 data points; at least 3 are needed", false},
		{"eight files", []string{"a.txt", "a.txt", "a.txt", "a.txt", "a.txt", "a.txt", "a.txt", "a.txt"}, "halbench compare: 8 files; at most 7 can be compared", true},
		{"missing file", []string{"a.txt", "missing.txt"}, "halbench compare: open missing.txt: no such file or directory", false},
		{"malformed line", []string{"a.txt", "bad.txt"}, `halbench compare: bad.txt:3: invalid number "12abc" in column 1`, false},
		{"column missing", []string{"-C", "5", "cols.txt"}, "halbench compare: cols.txt: 0 data points; at least 3 are needed", false},
		{"single file with a short series", []string{"-n", "old.bench"}, "halbench compare: old.bench: github.com/gohal/gohal/hal.BenchmarkOnlyOld-2 ns/op has 1 data point; at least 3 are needed", false},
		{"fewer than 3", []string{"a.txt", "two.txt"}, "halbench compare: two.txt: 2 data points; at least 3 are needed", false},
		{"mixed formats", []string{"a.txt", "old.bench"}, "halbench compare: a.txt is ministat input (numbers in a column) but old.bench is Go benchmark output; compare files of one kind", false},
		{"gobench fewer than 3", []string{"old.bench", "short.bench"}, "halbench compare: short.bench: github.com/gohal/gohal/hal.BenchmarkAdd/impl=asm-2 ns/op has 2 data points; at least 3 are needed", false},
		{"gobench malformed", []string{"old.bench", "bad.bench"}, `halbench compare: bad.bench:5: parsing measurement: invalid syntax in "BenchmarkAdd-2 100 6,7 ns/op"`, false},
		{"gobench nothing common", []string{"old.bench", "other.bench"}, "halbench compare: no benchmark has a unit present in every file", false},
		{"gobench no results", []string{"config.bench", "old.bench"}, "halbench compare: config.bench: no benchmark results", false},
		{"forced columns on gobench", []string{"-C", "1", "old.bench"}, `halbench compare: old.bench:1: invalid number "goos:" in column 1`, false},
		// Issue 10 item 5: NaN and Inf are errors at their line.
		{"nan", []string{"a.txt", "nan.txt"}, "halbench compare: nan.txt:3: NaN in column 1 is not a finite number", false},
		{"inf first", []string{"inf.txt", "a.txt"}, "halbench compare: inf.txt:4: -Inf in column 1 is not a finite number", false},
		{"nan -n", []string{"-n", "nan.txt"}, "halbench compare: nan.txt:3: NaN in column 1 is not a finite number", false},
		{"gobench nan", []string{"pkgs-old.bench", "nan.bench"}, "halbench compare: nan.bench:4: BenchmarkX-2: NaN ns/op is not a finite number", false},
		// Finite values whose sums overflow: ministat prints inf and nan and a verdict.
		{"overflow", []string{"a.txt", "huge.txt"}, "halbench compare: huge.txt: values too large: the sum of the values or of their squares overflows (largest magnitude 1.7e+200)", false},
		{"gobench overflow", []string{"-n", "huge.bench"}, "halbench compare: huge.bench: BenchmarkX-2 B/op: values too large: the sum of the values or of their squares overflows (largest magnitude 3e+160)", false},
		{"gobench inf", []string{"inf.bench", "-A", "inf.bench"}, "halbench compare: inf.bench:3: BenchmarkX-2: +Inf B/op is not a finite number", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(filepath.Join("testdata", "compare"))
			var stdout, stderr bytes.Buffer
			code := compareMain(tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("wrote to stdout:\n%s", stdout.String())
			}
			first, rest, _ := strings.Cut(stderr.String(), "\n")
			if first != tc.want {
				t.Errorf("stderr %q\nwant   %q", first, tc.want)
			}
			if wantRest := map[bool]string{true: hint}[tc.usage]; rest != wantRest {
				t.Errorf("after the first line %q, want %q; stderr:\n%s", rest, wantRest, stderr.String())
			}
		})
	}
}

func TestCompareHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var stdout, stderr bytes.Buffer
		if code := runCompare([]string{arg}, &stdout, &stderr); code != 0 {
			t.Errorf("%s: exit %d", arg, code)
		}
		if !strings.HasPrefix(stderr.String(), "usage: halbench compare") || !strings.Contains(stderr.String(), "-q          omit") {
			t.Errorf("%s: stderr %q", arg, stderr.String())
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestCompareWriteError(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "compare"))
	for _, args := range [][]string{{"a.txt", "b.txt"}, {"old.bench", "new.bench"}} {
		var stderr bytes.Buffer
		if code := runCompare(args, failWriter{}, &stderr); code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		if !strings.Contains(stderr.String(), "disk full") {
			t.Errorf("%v: stderr %q", args, stderr.String())
		}
	}
}
