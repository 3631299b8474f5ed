package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestUsageListsEverySubcommand is issue 21 item 8: `halbench -h` listed
// only run's flags and no other subcommand. It must list every subcommand
// run dispatches (the entries of subcommands), one line each, and so must
// the message for an unknown one.
func TestUsageListsEverySubcommand(t *testing.T) {
	var names []string
	for _, c := range subcommands {
		names = append(names, c.name)
		if (c.run == nil) != (c.name == "help") {
			t.Errorf("subcommand %s: run %v; only help is run's own case", c.name, c.run != nil)
		}
	}
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"help"}, {"nosuchcommand"}} {
		code, out, errOut := runHalbench(t, args...)
		text := errOut
		wantCode := 0
		switch args[0] {
		case "help":
			text = out
		case "nosuchcommand":
			wantCode = 2
			if !strings.HasPrefix(errOut, `halbench: unknown command "nosuchcommand"`+"\n") {
				t.Errorf("%q: stderr does not start with the error: %q", args, errOut)
			}
		}
		if code != wantCode {
			t.Errorf("%q: exit %d, want %d", args, code, wantCode)
		}
		for _, name := range names {
			re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` .*\S$`)
			if got := re.FindAllString(text, -1); len(got) != 1 {
				t.Errorf("%q: %d lines for subcommand %q, want 1:\n%s", args, len(got), name, text)
			}
		}
	}
}

// checkUsageError fails t unless a halbench run's result is a usage error
// of subcommand sub as every subcommand reports it: exit 2, nothing on
// stdout, and on stderr exactly the two lines
//
//	halbench SUB: WHAT
//	run 'halbench SUB -h' for usage
//
// with WANT in WHAT.
func checkUsageError(t *testing.T, args []string, code int, out, errOut, sub, want string) {
	t.Helper()
	if code != 2 {
		t.Errorf("%q: exit %d, want 2", args, code)
	}
	if out != "" {
		t.Errorf("%q: wrote to stdout: %q", args, out)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(errOut, "\n") {
		t.Errorf("%q: stderr has %d lines, want 2:\n%s", args, len(lines), errOut)
		return
	}
	if p := "halbench " + sub + ": "; !strings.HasPrefix(lines[0], p) || !strings.Contains(lines[0], want) {
		t.Errorf("%q: first line %q: want the prefix %q and %q", args, lines[0], p, want)
	}
	if w := "run 'halbench " + sub + " -h' for usage"; lines[1] != w {
		t.Errorf("%q: second line %q, want %q", args, lines[1], w)
	}
}

// TestEverySubcommandUsageError is issue 21 item 8: a bad flag printed
// 27–31 lines of usage (run, tune, compare), package flag's own two-part
// message without the halbench prefix (features, peers), "parse error" for
// -benchtime 5, or exit 1 for peers -in on a file that is missing, empty
// or not a peers run. Now every subcommand says what is wrong in one line
// and where the usage is in another, and exits 2 before measuring.
func TestEverySubcommandUsageError(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	column := filepath.Join(dir, "column.txt")
	malformed := filepath.Join(dir, "malformed.txt")
	for path, data := range map[string]string{
		empty:     "\n",
		column:    "1\n2\n3\n",
		malformed: "goos: linux\nBenchmarkPeer/what=counter/impl=x/threads=1 10 5 ns/op\nBenchmarkPeer/what=counter/impl=y/threads=1 10 5\n",
	} {
		writeFile(t, path, data)
	}
	for _, tc := range []struct {
		sub  string
		args []string
		want string
	}{
		{"run", []string{"-bogus"}, "flag provided but not defined: -bogus"},
		{"run", []string{"run", "-bogus"}, "flag provided but not defined: -bogus"},
		{"run", []string{"-benchtime", "5"}, `-benchtime "5": want a duration such as 20ms or a count such as 100x`},
		{"run", []string{"-benchtime", "0x"}, `-benchtime "0x": want a duration such as 20ms or a count such as 100x`},
		{"run", []string{"-benchtime", "-1s"}, `-benchtime "-1s": must be positive`},
		{"run", []string{"-json=maybe"}, `-json "maybe": want true or false`},
		{"run", []string{"-threads", "1,x"}, `-threads "1,x": "x" is not a number`},
		{"run", []string{"-threads", "0"}, `-threads "0": 0: a goroutine count must be at least 1`},
		{"run", []string{"-threads", "-2"}, "must be at least 1"},
		{"run", []string{"-threads", ""}, "empty list"},
		{"run", []string{"-threads", "2,2"}, "2 is given twice"},
		{"run", []string{"-threads", "100000"}, "at most 1024"},
		{"run", []string{"-filter", "Lock/(ttas"}, `-filter "Lock/(ttas": error parsing regexp`},
		{"run", []string{"-filter", "NoSuchBenchmark"}, `matches no benchmark`},
		{"run", []string{"-count", "0"}, "-count 0: need at least 3 samples"},
		{"run", []string{"-count", "2"}, "-count 2: need at least 3 samples"},
		{"run", []string{"-count", "x"}, `-count "x": want a whole number`},
		{"run", []string{"-format", "csv"}, `-format "csv": want text, json or gobench`},
		{"run", []string{"-json", "-format", "gobench"}, "-json and -format gobench exclude each other"},
		{"run", []string{"-svg", filepath.Join(dir, "no-such-dir", "x.svg")}, "-svg: open " + filepath.Join(dir, "no-such-dir", "x.svg")},
		{"run", []string{"-svg", dir}, "-svg: open " + dir},
		{"run", []string{"-quick", "-full"}, "-quick and -full exclude each other"},
		{"run", []string{"-benchtime", "0s"}, `-benchtime "0s": must be positive`},
		{"run", []string{"-benchtime", "10s0"}, `-benchtime "10s0": want a duration such as 20ms or a count such as 100x`},
		{"run", []string{"run", "extra"}, `unexpected argument "extra"`},
		{"features", []string{"features", "-bogus"}, "flag provided but not defined: -bogus"},
		{"features", []string{"features", "extra"}, `unexpected argument "extra"`},
		{"compare", []string{"compare", "-bogus"}, "flag provided but not defined: -b"},
		{"compare", []string{"compare", "-c", "42"}, "-c 42: confidence must be one of"},
		{"compare", []string{"compare", "-w", "x"}, `-w "x": want a whole number`},
		{"tune", []string{"tune", "-bogus"}, "flag provided but not defined: -bogus"},
		{"tune", []string{"tune", "-benchtime", "5"}, `-benchtime "5": want a duration such as 20ms`},
		{"tune", []string{"tune", "-count", "3"}, "-count 3: need at least 4 samples"},
		{"tune", []string{"tune", "-check", "bogus=1"}, `-check "bogus=1": GOHAL: unknown op "bogus"`},
		{"tune", []string{"tune", "-check", "cas64=nope"}, `-check "cas64=nope": GOHAL: op "cas64" has no variant "nope"`},
		{"peers", []string{"peers", "-bogus"}, "flag provided but not defined: -bogus"},
		{"peers", []string{"peers", "-benchtime", "5"}, `-benchtime "5": want a duration such as 100ms or an iteration count such as 10x`},
		{"peers", []string{"peers", "-count", "x"}, `-count "x": want a whole number`},
		{"peers", []string{"peers", "-in", filepath.Join(dir, "missing.txt")}, "-in " + filepath.Join(dir, "missing.txt") + ": no such file"},
		{"peers", []string{"peers", "-in", empty}, "-in " + empty + ": the file is empty"},
		{"peers", []string{"peers", "-in", column}, "-in " + column + ": not Go benchmark output"},
		{"peers", []string{"peers", "-in", malformed}, "-in " + malformed + ":3: missing units"},
		{"peers", []string{"peers", "-in", "testdata/peers/none.txt"}, "-in testdata/peers/none.txt: no BenchmarkPeer/"},
		{"peers", []string{"peers", "-dir", dir}, "-dir: open " + filepath.Join(dir, "go.mod")},
		{"lockwait", []string{"lockwait", "-bogus"}, "flag provided but not defined: -bogus"},
		{"lockwait", []string{"lockwait", "-interval", "5"}, `-interval "5": want a duration such as 20ms`},
		{"lockwait", []string{"lockwait", "-rounds", "0"}, "-rounds 0: must be at least 1"},
		{"lockwait", []string{"lockwait", "-acquisitions", "3", "-rounds", "4"}, ""},
		{"lockwait", []string{"lockwait", "-occasional", "0"}, ""},
		{"lockwait", []string{"lockwait", "-goroutines", "0"}, ""},
		{"lockwait", []string{"lockwait", "-goroutines", "100000"}, ""},
		{"lockwait", []string{"lockwait", "-interval", "0s"}, ""},
		{"lockwait", []string{"lockwait", "-interval", "2s"}, ""},
		{"lockwait", []string{"lockwait", "-cap", "-1s"}, ""},
		{"lockwait", []string{"lockwait", "-kinds", "ttas,nope"}, ""},
		{"lockwait", []string{"lockwait", "-kinds", "ttas,ttas"}, ""},
		{"lockwait", []string{"lockwait", "-acquisitions", "x"}, ""},
		{"lockwait", []string{"lockwait", "extra"}, ""},
	} {
		t0 := time.Now()
		code, out, errOut := runHalbench(t, tc.args...)
		checkUsageError(t, tc.args, code, out, errOut, tc.sub, tc.want)
		if el := time.Since(t0); el > 2*time.Second {
			t.Errorf("%q: took %v; a usage error must come before any measuring", tc.args, el)
		}
	}
	if code, _, errOut := runHalbench(t, "-h"); code != 0 || !strings.Contains(errOut, "usage: halbench [run]") {
		t.Errorf("-h: exit %d, %q", code, errOut)
	}
}

// TestBenchtimeCount: run's -benchtime takes a count of iterations per
// sample, as go test's does, and the report says so.
func TestBenchtimeCount(t *testing.T) {
	cfg, err := parseRunArgs([]string{"-benchtime", "100x"})
	if err != nil || cfg.sampleIters != 100 || cfg.budget != 0 {
		t.Fatalf("-benchtime 100x: %+v, %v", cfg, err)
	}
	code, out, errOut := runHalbench(t, "-filter", "^Dispatch/op=fetchadd64/mode=(inline|api)$", "-benchtime", "50x", "-count", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"sample_time": "50x"`) {
		t.Errorf("report lacks sample_time 50x")
	}
	if n := strings.Count(out, `"iters": 50,`); n != 6 {
		t.Errorf("%d samples of 50 iterations, want 6 (2 benchmarks × 3)", n)
	}
}

// progressRE matches a section's progress line.
var progressRE = regexp.MustCompile(`^halbench: measuring (\w+) \((\d+)/(\d+), \d+ benchmarks?\)`)

// checkProgress fails t unless errOut is one progress line per section,
// numbered 1 to n in order, naming the sections in want.
func checkProgress(t *testing.T, errOut string, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines on stderr, want one per section (%q):\n%s", len(lines), want, errOut)
	}
	for i, l := range lines {
		m := progressRE.FindStringSubmatch(l)
		if m == nil || m[1] != want[i] || m[2] != strconv.Itoa(i+1) || m[3] != strconv.Itoa(len(want)) {
			t.Errorf("line %d: %q, want the start of section %s (%d/%d)", i+1, l, want[i], i+1, len(want))
		}
	}
}

// TestProgressWhenNotATerminal is issue 21 item 8: with standard error
// not a terminal (a CI log), a run was silent until the report. Now it
// prints a line per section as the section starts, in a subprocess whose
// stderr is a pipe (the *os.File path) as in process.
func TestProgressWhenNotATerminal(t *testing.T) {
	args := "-filter ^(Dispatch/op=fetchadd64/mode=(inline|api)|Lock/kind=ttas/threads=1/cs=0)$ -benchtime 200us -count 3"
	out, errOut, code := runChild(t, args)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The child is a test binary: it prints PASS on stdout, and
	// nothing else on stderr.
	checkProgress(t, errOut, []string{"Dispatch", "Lock"})
	if !strings.Contains(out, "use here") {
		t.Errorf("no report on stdout:\n%s", out)
	}
}
