package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runPeersTest(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(append([]string{"peers"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// peersOutput runs halbench peers with args and returns its standard
// output, failing t at once unless it exits 0.
func peersOutput(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runPeersTest(t, args...)
	if code != 0 {
		t.Fatalf("halbench peers %q: exit %d: %s", args, code, errs)
	}
	return out
}

// wantIn fails t for each of wants that out lacks.
func wantIn(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestPeersText(t *testing.T) {
	out := peersOutput(t, "-in", "testdata/peers/run.txt")
	// counter: striped 10/5, xsync 8/10, atomic 6/20 ns (21/10, 16/20,
	// 12/40 cycles) at 1/2 threads; the best peer is atomic at 1 and
	// xsync at 2.
	wantIn(t, out,
		"median ns/op [cycles/op]",
		"command: halbench peers -in testdata/peers/run.txt\n",
		"gohal-striped           10 [21] (1.67)  5 [10] (0.50)",
		"xsync-counter           8 [16] (1.33)   10 [20] (1.00)",
		"atomic-int64            6 [12] (1.00)   20 [40] (2.00)",
		"best gohal / best peer  1.67 striped    0.50 striped",
		"uint128 cas", "gohal-uint128", "10 [20] (0.50)",
		"sync-pool", "10 [30] (1.00)",
	)
	if strings.Contains(out, "machine:") {
		t.Error("a saved file's report names this machine")
	}
	if strings.Contains(out, "Other") {
		t.Error("reported a benchmark that is not a peer benchmark")
	}
}

func TestPeersMarkdown(t *testing.T) {
	out := peersOutput(t, "-in", "testdata/peers/run.txt", "-markdown")
	want := "The questions answered on these tasks by the report's rule (ratio of ns/op, its 95 % interval; an interval holding 1 is a tie):\n\n" +
		"| question | workload | goroutines | use here | instead of | ratio [95 % interval] |\n" +
		"| --- | --- | ---: | --- | --- | --- |\n" +
		"| two words that change together | CompareAndSwap of both words | 1 | no verdict | a mutex pair | 0.50× (too few samples) |\n\n" +
		"| task | impl | 1 | 2 |\n" +
		"| --- | --- | ---: | ---: |\n" +
		"| counter | **`gohal-striped`** | 1.67 | 0.50 |\n" +
		"| counter | `xsync-counter` | 1.33 | 1.00 |\n" +
		"| counter | `atomic-int64` | 1.00 | 2.00 |\n" +
		"| counter | best peer, ns/op | 6 `atomic-int64` | 10 `xsync-counter` |\n" +
		"| uint128 cas | **`gohal-uint128`** | 0.50 | – |\n" +
		"| uint128 cas | `mutex-pair` | 1.00 | – |\n" +
		"| uint128 cas | best peer, ns/op | 20 `mutex-pair` | – |\n" +
		"| cache | `sync-pool` | 1.00 | – |\n" +
		"| cache | best peer, ns/op | 10 `sync-pool` | – |\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestPeersFloor checks that a floor-* row is shown with its ratio but is
// never the best peer, nor the best of gohal's, though it is the cheapest.
func TestPeersFloor(t *testing.T) {
	out := peersOutput(t, "-in", "testdata/peers/floor.txt")
	wantIn(t, out,
		"gohal-percpu            6 [12] (0.60)",
		"xsync-rbmutex           10 [20] (1.00)",
		"floor-pins              3 [6] (0.30)",
		"best gohal / best peer  0.60 percpu",
		"\nfloor-* rows are no implementation: what one kind",
	)
	out = peersOutput(t, "-in", "testdata/peers/floor.txt", "-markdown")
	wantIn(t, out,
		"| rwlock w0 | _`floor-pins`_ | 0.30 |\n",
		"| rwlock w0 | best peer, ns/op | 10 `xsync-rbmutex` |\n",
		"\n_floor-* rows are no implementation",
	)
	// A run without floors says nothing of them.
	if _, out, _ := runPeersTest(t, "-in", "testdata/peers/run.txt"); strings.Contains(out, "floor-") {
		t.Errorf("a run without floor rows explains them:\n%s", out)
	}
}

func TestPeersNsFallback(t *testing.T) {
	out := peersOutput(t, "-in", "testdata/peers/nocycles.txt")
	wantIn(t, out, "median ns/op", "gohal-tas               30 (0.50)", "0.50 tas")
}

func TestPeersTruncated(t *testing.T) {
	out := peersOutput(t, "-in", "testdata/peers/truncated.txt", "-markdown")
	// ticket: median of 900 and 100 is 500 ns, 10x the mutex.
	wantIn(t, out, "| lock | **`gohal-ticket`** | 10.00* |", "| lock | `sync-mutex` | 1.00 |", "* some samples cut short")
}

func TestPeersErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-count", "0"}, 2, "-count 0: must be at least 1"},
		{[]string{"-benchtime", "abc"}, 2, `-benchtime "abc": want a duration`},
		{[]string{"-benchtime", "0x"}, 2, `-benchtime "0x": want a duration`},
		{[]string{"-benchtime", "-1s"}, 2, `-benchtime "-1s": want a duration`},
		{[]string{"-bench", "a(b"}, 2, "-bench: error parsing regexp"},
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-in", "testdata/peers/run.txt", "-dir", "."}, 2, "-in reads a saved run"},
		// Issue 21 item 8: a bad -in or -dir is a bad argument, exit 2
		// (it was 1).
		{[]string{"-in", "testdata/peers/missing.txt"}, 2, "missing.txt: no such file"},
		{[]string{"-in", "testdata/peers/none.txt"}, 2, "testdata/peers/none.txt: no BenchmarkPeer/"},
		{[]string{"-in", "testdata/peers/bad.txt"}, 2, "testdata/peers/bad.txt:1: missing iteration count"},
		{[]string{"-dir", "testdata/peers"}, 2, "-dir: open testdata/peers/go.mod"},
	} {
		code, out, errs := runPeersTest(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) || out != "" {
			t.Errorf("halbench peers %q: exit %d, stdout %q, stderr %q; want exit %d and %q",
				c.args, code, out, errs, c.code, c.msg)
		}
	}
}

func TestPeersDir(t *testing.T) {
	// From cmd/halbench the peers module is lab/peers, two levels up.
	got, err := findPeersDir()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(filepath.Join("..", "..", "lab", "peers"))
	if got != want {
		t.Errorf("findPeersDir() = %q, want %q", got, want)
	}

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/other\n")
	if err := checkPeersDir(dir); err == nil || !strings.Contains(err.Error(), "want github.com/gohal/gohal/lab/peers") {
		t.Errorf("checkPeersDir(another module) = %v", err)
	}
	t.Chdir(dir)
	if _, err := findPeersDir(); err == nil || !strings.Contains(err.Error(), "no peers module") {
		t.Errorf("findPeersDir() outside the repository = %v", err)
	}
}

// TestPeersAnswers checks that peers answers the registry's questions by
// the report's rule: a win with its interval, a tie named as a tie.
func TestPeersAnswers(t *testing.T) {
	var b strings.Builder
	b.WriteString("pkg: github.com/gohal/gohal/lab/peers\n")
	for i := range 6 {
		j := float64(i%3) * 0.1
		for _, l := range []struct {
			name string
			ns   float64
		}{
			{"rwlock/impl=gohal-percpu/threads=2/op=w0", 5}, {"rwlock/impl=sync-rwmutex/threads=2/op=w0", 20},
			{"rwlock/impl=sync-mutex/threads=2/op=w0", 30},
			{"cache/impl=gohal-percpu/threads=2", 10}, {"cache/impl=sync-pool/threads=2", 10},
		} {
			fmt.Fprintf(&b, "BenchmarkPeer/what=%s-2 100 %.2f ns/op %.2f cycles/op\n", l.name, l.ns+j, 2*(l.ns+j))
		}
	}
	in := filepath.Join(t.TempDir(), "answers.txt")
	writeFile(t, in, b.String())
	out := peersOutput(t, "-in", in)
	for _, re := range []string{
		`read-mostly data +reads only +2 +percpu\.RWMutex +sync\.RWMutex +0\.2[0-9]× \[0\.2[0-9], 0\.2[0-9]\]\n`,
		`an object cache +Get, touch, Put +2 +tie: percpu\.Cache +sync\.Pool +1\.00× \[[0-9.]+, [0-9.]+\] tie\n`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("peers output lacks %s:\n%s", re, out)
		}
	}
}

// TestPeersTempBin checks that each run builds the peers' binary in a
// directory of its own, which cleanup removes: two at once never share it.
func TestPeersTempBin(t *testing.T) {
	a, cleanA, err := peersTempBin()
	if err != nil {
		t.Fatal(err)
	}
	b, cleanB, err := peersTempBin()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(a) == filepath.Dir(b) || filepath.Dir(filepath.Dir(a)) != filepath.Clean(os.TempDir()) {
		t.Errorf("binaries %s and %s: want two private directories under %s", a, b, os.TempDir())
	}
	cleanA()
	if _, err := os.Stat(filepath.Dir(a)); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s: %v", filepath.Dir(a), err)
	}
	if _, err := os.Stat(filepath.Dir(b)); err != nil {
		t.Errorf("one run's cleanup removed another's directory: %v", err)
	}
	cleanB()
}
