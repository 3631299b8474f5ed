package main

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// fakeSamples gives every benchmark ten samples around its own level:
// ns/op = level·(1 + small jitter), cycles/op = 2·ns/op.
func fakeSamples(benchs []suite.Benchmark, level func(name string) float64) map[string][]sample {
	out := map[string][]sample{}
	for _, bm := range benchs {
		for i := range 10 {
			ns := level(bm.Name) * (1 + 0.002*float64(i%5-2))
			out[bm.Name] = append(out[bm.Name], sample{Iters: 1000, NsPerOp: ns,
				Metrics: map[string]float64{cyclebench.CyclesUnit: 2 * ns}})
		}
	}
	return out
}

// firstScreen is what the report prints before its details.
func firstScreen(out string) string {
	s, _, _ := strings.Cut(out, "The details follow")
	return s
}

// checkFirstScreen checks issue 39 item 1: the report opens with one
// table, at most 30 lines of at most 120 characters, a row per question
// answered.
func checkFirstScreen(t *testing.T, out string) {
	t.Helper()
	screen := firstScreen(out)
	if screen == out {
		t.Fatalf("no first screen (no \"The details follow\" line):\n%.2000s", out)
	}
	lines := strings.Split(screen, "\n")
	if len(lines) > 30 {
		t.Errorf("first screen has %d lines, want at most 30:\n%s", len(lines), screen)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > answerWidth {
			t.Errorf("first-screen line of %d characters, want at most %d: %q", n, answerWidth, l)
		}
	}
	if !regexp.MustCompile(`(?m)^question +use here +instead of +ratio \[95 % interval\] +goroutines( +depends on|\n +depends on)$`).MatchString(screen) {
		t.Errorf("first screen lacks the answer table's header:\n%s", screen)
	}
	if !strings.Contains(screen, "These figures move with load") {
		t.Errorf("first screen does not say the figures move with load:\n%s", screen)
	}
}

// TestFirstScreenAnswersEveryQuestion feeds synthetic samples of every
// question's contestants into the report and checks the first screen: a
// row per question, a tie printed as a tie, a win as the winner, and the
// workloads where the answer changes under "depends on".
func TestFirstScreenAnswersEveryQuestion(t *testing.T) {
	cfg, err := parseRunArgs([]string{"-threads", "1,2"})
	if err != nil {
		t.Fatal(err)
	}
	benchs := suite.Select(suite.Options{Threads: cfg.threads})
	rwWrite := regexp.MustCompile(`^RWLock/kind=(percpu|rwmutex|mutex)/threads=2/writes=(10|100)$`)
	r := buildReport(cfg, benchs, fakeSamples(benchs, func(name string) float64 {
		switch {
		case name == suite.RWLockName("percpu", 2, 0), strings.Contains(name, "kind=percpu/threads=2/writer="):
			return 5 // percpu.RWMutex wins reads only and under a timer writer
		case rwWrite.MatchString(name):
			return map[bool]float64{true: 40, false: 20}[!strings.Contains(name, "rwmutex")] // it loses at 1 % writes
		case strings.HasPrefix(name, "Counter/kind=adder/") || strings.HasPrefix(name, "Counter/kind=atomic/"):
			return 10 // a tie: the standard choice and Adder alike
		case strings.HasPrefix(name, "Counter/kind=percpu/"):
			return 30
		}
		return 20
	}), time.Second)
	var buf strings.Builder
	if err := writeText(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	checkFirstScreen(t, out)
	screen := firstScreen(out)
	t.Log("\n" + screen)
	row := func(ask string) string {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(ask) + `  .*$`).FindString(screen)
		if m == "" {
			t.Errorf("first screen has no row for %q:\n%s", ask, screen)
		}
		return m
	}
	for _, q := range suite.Questions() {
		row(q.Ask)
	}
	if rw := row("read-mostly data"); !regexp.MustCompile(`percpu\.RWMutex +sync\.RWMutex +0\.25× \[0\.2[0-9], 0\.2[0-9]\] +2( |$)`).MatchString(rw) ||
		!strings.Contains(strings.Join(strings.Fields(screen), " "), "1 % writes, 10 % writes → sync.RWMutex") {
		t.Errorf("read-mostly data: want percpu.RWMutex, 0.25×, at 2, depending on 1 %% writes: %q", rw)
	}
	if c := row("a counter"); !regexp.MustCompile(`tie: counter\.Adder +atomic\.Int64 +1\.00× \[[0-9.]+, [0-9.]+\] +2 `).MatchString(c) {
		t.Errorf("a counter: want a tie of counter.Adder with atomic.Int64: %q", c)
	}
	if l := row("a lock"); !strings.Contains(l, "tie: ") {
		t.Errorf("a lock: equal samples must be a tie: %q", l)
	}
}

// TestJudgeRule checks the rule on synthetic samples: a tie when the
// interval holds 1, the standard choice kept when it is faster, no
// verdict with too few samples.
func TestJudgeRule(t *testing.T) {
	q, ok := suite.LookupQuestion("cache")
	if !ok {
		t.Fatal("no cache question")
	}
	jitter := func(level float64, n int) []float64 {
		var xs []float64
		for i := range n {
			xs = append(xs, level*(1+0.01*float64(i%5-2)))
		}
		return xs
	}
	for _, c := range []struct {
		pool, percpu float64
		n            int
		use, instead string
		tie          bool
		verdict      string
	}{
		{10, 5, 8, "percpu.Cache", "sync.Pool", false, verdictWin},
		{5, 10, 8, "sync.Pool", "percpu.Cache", false, verdictWin},
		{10, 10, 8, "percpu.Cache", "sync.Pool", true, verdictTie},
		{10, 5, 3, "percpu.Cache", "sync.Pool", false, verdictNone},
	} {
		a := judge(q, q.Workloads[0], 2, func(k suite.Contestant) []float64 {
			return jitter(map[string]float64{"sync.Pool": c.pool, "percpu.Cache": c.percpu}[k.Name], c.n)
		})
		if a == nil || a.Use != c.use || a.Instead != c.instead || a.Tie != c.tie || a.Result.Verdict != c.verdict {
			t.Errorf("pool %v percpu %v, %d samples: got %+v", c.pool, c.percpu, c.n, a)
			continue
		}
		switch {
		case c.tie && (a.useCell() != "tie: percpu.Cache" || !strings.HasSuffix(ratioCellTie(a.Ratio), " tie")):
			t.Errorf("a tie printed as %q, %q", a.useCell(), ratioCellTie(a.Ratio))
		case c.verdict == verdictWin && !(float64(a.Ratio.Hi) < 1):
			t.Errorf("a win's ratio %+v: want below 1, use over instead", a.Ratio)
		case c.verdict == verdictNone && (a.useCell() != "no verdict" || !math.IsNaN(float64(a.Ratio.Lo))):
			t.Errorf("3 samples: %q, %+v", a.useCell(), a.Ratio)
		}
	}
	if a := judge(q, q.Workloads[0], 2, func(k suite.Contestant) []float64 {
		if k.Name == "sync.Pool" {
			return nil
		}
		return jitter(1, 8)
	}); a != nil {
		t.Errorf("no standard choice measured: want no answer, got %+v", a)
	}
}

// TestAnswerTableWideColumns: when the other columns leave the header's
// "depends on" no room within answerWidth, it goes under the header, as a
// row's depends does, and no line is wider than answerWidth.
func TestAnswerTableWideColumns(t *testing.T) {
	long := "read-mostly data under many goroutines"
	qas := []*questionAnswer{{Ask: long, Depends: "1 goroutine → sync.RWMutex; 4 goroutines → tie",
		Headline: &answer{Threads: 16, Use: "percpu.RWMutex", Tied: []string{"a", "b"}, Instead: "sync.RWMutex",
			Ratio: ratioJSON{Ratio: 0.0123, Lo: 0.0111, Hi: 0.0345, Significant: true}}}}
	var b strings.Builder
	writeAnswers(&b, qas)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > answerWidth {
			t.Errorf("line of %d characters, want at most %d: %q", n, answerWidth, l)
		}
	}
	if len(lines) < 2 || strings.Contains(lines[0], "depends on") || strings.TrimSpace(lines[1]) != "depends on" {
		t.Errorf("want the header's \"depends on\" on a line of its own under it:\n%s", b.String())
	}
	if !regexp.MustCompile(`(?m)^question +use here +instead of +ratio \[95 % interval\] +goroutines( +depends on|\n +depends on)$`).MatchString(b.String()) {
		t.Errorf("the header does not match checkFirstScreen's:\n%s", b.String())
	}
}
