package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 10 item 7: with no FILE, and for "-", compare reads standard input
// and names it <stdin>, as ministat does. The expected output is the real
// ministat's, given the same standard input.
func TestCompareStdin(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "compare"))
	b, err := os.ReadFile("b.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		golden string // when ministat is not installed: this golden file with b.txt renamed
	}{
		{nil, ""},
		{[]string{"-n"}, ""},
		{[]string{"a.txt", "-"}, "two.golden"},
		{[]string{"-", "a.txt", "-s"}, ""},
		{[]string{"-A", "c.txt", "--", "-"}, ""},
	} {
		var stdout, stderr bytes.Buffer
		if code := compareMain(tc.args, bytes.NewReader(b), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.args, code, stderr.String())
		}
		var want string
		if _, err := os.Stat(ministatPath); err == nil {
			cmd := exec.Command(ministatPath, tc.args...)
			cmd.Stdin = bytes.NewReader(b)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("ministat %q: %v", tc.args, err)
			}
			want = string(out)
		} else if tc.golden != "" {
			g, err := os.ReadFile(tc.golden)
			if err != nil {
				t.Fatal(err)
			}
			want = strings.Replace(string(g), "+ b.txt\n", "+ <stdin>\n", 1)
		} else {
			continue
		}
		if !strings.Contains(stdout.String(), "<stdin>\n") || stdout.String() != want {
			t.Errorf("halbench compare %q < b.txt:\n--- got\n%s--- want (ministat)\n%s", tc.args, stdout.String(), want)
		}
	}
	// Go benchmark output on standard input.
	old, err := os.ReadFile("old.bench")
	if err != nil {
		t.Fatal(err)
	}
	var fromFile, fromStdin, stderr bytes.Buffer
	if code := compareMain([]string{"new.bench", "old.bench"}, nil, &fromFile, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	if code := compareMain([]string{"new.bench", "-"}, bytes.NewReader(old), &fromStdin, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	if want := strings.ReplaceAll(fromFile.String(), "+ old.bench\n", "+ <stdin>\n"); fromStdin.String() != want || want == fromFile.String() {
		t.Errorf("Go benchmark output on stdin:\n%s\nwant\n%s", fromStdin.String(), want)
	}
	// A bad line on standard input is reported as <stdin>:LINE.
	stderr.Reset()
	if code := compareMain(nil, strings.NewReader("1\n2\nthree\n"), &fromStdin, &stderr); code != 2 ||
		stderr.String() != "halbench compare: <stdin>:3: invalid number \"three\" in column 1\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// Issue 10 item 15: an error quotes at most about 80 bytes of the input,
// whatever its size.
func TestCompareErrorsAreShort(t *testing.T) {
	huge := strings.Repeat("7", 1<<20) + "x"
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, content)
		return p
	}
	good := write("good.txt", "1\n2\n3\n")
	goodBench := write("good.bench", "BenchmarkX-2 1 5 ns/op\nBenchmarkX-2 1 5 ns/op\nBenchmarkX-2 1 5 ns/op\n")
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string // a prefix of the message
	}{
		{"column file", []string{good, write("bad.txt", "1\n2\n"+huge+"\n")}, "", "bad.txt:3: invalid number \"7777"},
		{"column stdin -", []string{good, "-"}, "1\n" + huge, "<stdin>:2: invalid number \"7777"},
		{"gobench line", []string{goodBench, write("bad.bench", "BenchmarkX-2 1 x"+huge[:60000]+" ns/op\n")}, "", "bad.bench:1: parsing measurement: invalid syntax in \"BenchmarkX-2 1 x7777"},
		{"gobench huge line", []string{goodBench, write("huge.bench", "BenchmarkX-2 1 5 ns/op\nBenchmarkX-2 1 5 ns/op "+huge+"\n")}, "", "huge.bench:2: line longer than 65535 bytes"},
		{"-c", []string{"-c", huge, good}, "", "-c 7777"},
	} {
		var stdout, stderr bytes.Buffer
		code := compareMain(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if code != 2 || !strings.HasPrefix(first, "halbench compare: ") || len(first) > 250 {
			t.Errorf("%s: exit %d, first line of %d bytes: %.300s", tc.name, code, len(first), first)
		}
		if tc.want != "" && !strings.Contains(first, tc.want) {
			t.Errorf("%s: %.300s\nwant it to contain %s", tc.name, first, tc.want)
		}
	}
}

// Issue 10 item 4, against benchstat itself: benchstat keeps BenchmarkX of
// example.com/a and of example.com/b apart and finds a difference in b
// only; so must compare. (Run with the x/perf version in go.mod.)
func TestComparePackagesLikeBenchstat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "benchstat")
	build := exec.Command(goTool, "build", "-o", bin, "golang.org/x/perf/cmd/benchstat")
	// A tool of the host's: under go test -exec with another GOARCH, its
	// binary would not run here (exec format error).
	build.Env = append(os.Environ(), "GOOS=", "GOARCH=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("cannot build benchstat: %v\n%s", err, out)
	}
	t.Chdir(filepath.Join("testdata", "compare"))
	files := []string{"pkgs-old.bench", "pkgs-new.bench"}
	out, err := exec.Command(bin, files...).Output()
	if err != nil {
		t.Fatalf("benchstat: %v", err)
	}
	// benchstat: "pkg: P" heads a table; a row "X-2 ... ~ (p=...)" or
	// "X-2 ... +31.02% (p=0.002 n=6)".
	fromBenchstat := map[string]bool{}
	pkg := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	row := regexp.MustCompile(`^X-2\s.*\s(~|[+-][0-9.]+%) \(p=`)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "pkg: "); ok {
			pkg = p
		}
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			fromBenchstat[pkg] = m[1] != "~"
		}
	}
	var stdout, stderr bytes.Buffer
	if code := compareMain(append([]string{"-A", "-v"}, files...), nil, &stdout, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	// ministat's reports (-v) after the summary, and the summary's rows
	// (issue 21 item 8): "pkg: P", a header, "X-2  median  median  ratio
	// verdict".
	summaryText, reports, _ := strings.Cut(stdout.String(), "\n\npkg: example.com/a\nBenchmarkX-2")
	fromCompare := map[string]bool{}
	for _, block := range strings.Split("pkg: example.com/a\nBenchmarkX-2"+reports, "\n\n") {
		p, _, _ := strings.Cut(strings.TrimPrefix(block, "pkg: "), "\n")
		fromCompare[p] = strings.Contains(block, "\nDifference at 95.0% confidence")
	}
	fromSummary := map[string]bool{}
	pkg = ""
	for _, line := range strings.Split(summaryText, "\n") {
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p
		}
		if f := strings.Fields(line); len(f) > 0 && f[0] == "X-2" {
			fromSummary[pkg] = f[len(f)-1] != "~"
		}
	}
	want := map[string]bool{"example.com/a": false, "example.com/b": true}
	for _, got := range []map[string]bool{fromBenchstat, fromCompare, fromSummary} {
		if len(got) != len(want) || got["example.com/a"] != false || got["example.com/b"] != true {
			t.Errorf("significant per package: benchstat %v, compare's ministat %v, compare's summary %v; want %v\nbenchstat:\n%s\ncompare:\n%s",
				fromBenchstat, fromCompare, fromSummary, want, out, stdout.String())
			break
		}
	}
}
