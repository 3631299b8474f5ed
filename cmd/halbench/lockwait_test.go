package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLockWaitFlags: -kinds "" is all of them, -h prints the usage and
// halbench -h lists lockwait (bad flags: TestEverySubcommandUsageError).
func TestLockWaitFlags(t *testing.T) {
	if _, err := parseLockWaitArgs([]string{"-kinds", ""}); err != nil {
		t.Errorf("-kinds \"\" (all): %v", err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"lockwait", "-h"}, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "-acquisitions N") {
		t.Errorf("-h: exit %d, stderr %q", rc, errb.String())
	}
	if !strings.Contains(usage, "\n  lockwait ") {
		t.Error("halbench help does not list lockwait")
	}
}

func TestLockWaitKindsFlag(t *testing.T) {
	cfg, err := parseLockWaitArgs([]string{"-kinds", "mcs, ttas", "-quick"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.suite.Kinds, ","); got != "ttas,mcs,mutex" {
		t.Errorf("kinds %s, want ttas,mcs,mutex (the suite's order, the mutex added)", got)
	}
	if cfg.suite.Acquisitions != 160000 || cfg.suite.Occasional != 100 || cfg.suite.Rounds != 4 {
		t.Errorf("-quick: %+v", cfg.suite)
	}
	cfg, err = parseLockWaitArgs([]string{"-quick", "-rounds", "2"})
	if err != nil || cfg.suite.Rounds != 2 || cfg.suite.Acquisitions != 160000 {
		t.Errorf("-quick -rounds 2: %+v, %v: a flag given wins over -quick", cfg, err)
	}
}

// synthRows is a mutex and three locks: one that passes every target,
// one with two waits ≥ 32 ms where the mutex has none, one whose max and
// occasional median are over twice the mutex's.
func synthRows() []lockWaitRow {
	mutex := lockWaitRow{Kind: "mutex", Baseline: true,
		Contended:  waitStats{N: 100, P50: 40, P99: 4e4, P999: 1e5, Max: 20e6, Ge1ms: 3},
		Occasional: waitStats{N: 10, P50: 2000, Max: 1e6}}
	good := lockWaitRow{Kind: "good",
		Contended:  waitStats{N: 100, P50: 30, P99: 1e3, P999: 1e4, Max: 40e6, Ge1ms: 9, Ge32ms: 1},
		Occasional: waitStats{N: 10, P50: 4000, Max: 1e6}}
	tail := good
	tail.Kind, tail.Contended.Ge32ms = "tail", 2
	slow := good
	slow.Kind, slow.Contended.Ge32ms, slow.Contended.Max, slow.Occasional.P50 = "slow", 0, 40e6+1, 4001
	return []lockWaitRow{good, tail, slow, mutex}
}

func TestLockWaitTargets(t *testing.T) {
	rows := synthRows()
	markLockWaitTargets(rows)
	want := map[string][3]bool{"good": {true, true, true}, "tail": {false, true, true}, "slow": {true, false, false}}
	for _, r := range rows {
		if r.Baseline {
			if r.Targets != nil {
				t.Errorf("the mutex is marked against itself")
			}
			continue
		}
		w := want[r.Kind]
		got := [3]bool{r.Targets.Ge32ms.Pass, r.Targets.Max.Pass, r.Targets.OccMedian.Pass}
		if got != w || r.Targets.All != (w == [3]bool{true, true, true}) {
			t.Errorf("%s: marks %v (all %v), want %v", r.Kind, got, r.Targets.All, w)
		}
	}

	// A mutex with no waits ≥ 32 ms: two of them is a miss, one is not.
	base := waitStatsPair{contended: waitStats{Max: 1e6}, occasional: waitStats{P50: 1000}}
	two := waitStatsPair{contended: waitStats{Ge32ms: 2, Max: 1e6}, occasional: waitStats{P50: 1000}}
	if m := checkLockWaitTargets(two, base); m.Ge32ms.Pass || m.All {
		t.Errorf("two waits ≥32ms against the mutex's 0 passed: %+v", m)
	}
	two.contended.Ge32ms = 1
	if m := checkLockWaitTargets(two, base); !m.Ge32ms.Pass || !m.All {
		t.Errorf("one wait ≥32ms against the mutex's 0 missed: %+v", m)
	}
}

func TestLockWaitText(t *testing.T) {
	rep := &lockWaitReport{hostInfo: hostInfo{GoVersion: "go1.x", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2,
		Machine: buildFeaturesReport()}, Acquisitions: 100, Goroutines: 8, Occasional: 10, Spinners: 2,
		IntervalNs: 1e5, CSNs: 50, Rounds: 2, CapSeconds: 10, ClockNs: 25, Rows: synthRows()}
	rep.Rows[1].Truncated = 1
	markLockWaitTargets(rep.Rows)
	var b bytes.Buffer
	if err := writeLockWaitText(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "halbench lockwait: go1.x linux/amd64, GOMAXPROCS 2") || !strings.Contains(out, "(features: ") {
		t.Errorf("no machine line on top:\n%s", out)
	}
	line := func(kind string) string {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == kind {
				return l
			}
		}
		t.Fatalf("no row %s in\n%s", kind, out)
		return ""
	}
	if l := line("tail"); !strings.Contains(l, "MISS 2≤1") || strings.Count(l, "pass") != 2 {
		t.Errorf("tail row %q: want MISS 2≤1 and two passes", l)
	}
	if l := line("good"); strings.Contains(l, "MISS") || !strings.Contains(l, "pass 1≤1") || !strings.Contains(l, "pass 2.00×") {
		t.Errorf("good row %q", l)
	}
	if l := line("slow"); strings.Count(l, "MISS") != 2 || !strings.Contains(l, "MISS 2.01×") {
		t.Errorf("slow row %q: want two misses, the ratio just over 2 shown as 2.01×", l)
	}
	if l := line("mutex"); !strings.Contains(l, "baseline") || !strings.Contains(l, "20.0ms") {
		t.Errorf("mutex row %q", l)
	}
	if !strings.Contains(out, "2 of 3 locks miss a target") || !strings.Contains(out, "Cut short by -cap 10s (runs): tail (1)") {
		t.Errorf("summary lines missing:\n%s", out)
	}
	var j bytes.Buffer
	if err := json.NewEncoder(&j).Encode(rep); err != nil || !strings.Contains(j.String(), `"contended_ge_32ms":{"pass":false,"value":2,"limit":1}`) {
		t.Errorf("JSON %v:\n%s", err, j.String())
	}
}

// A tiny real run through the command: every kind's row is there with
// the samples asked for. No timing is asserted.
func TestLockWaitRunSmall(t *testing.T) {
	var out, errb bytes.Buffer
	rc := run([]string{"lockwait", "-json", "-acquisitions", "800", "-occasional", "4", "-rounds", "2", "-interval", "10us"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	// Not a terminal: a line per round (issue 21 item 8; none before).
	if want := "halbench lockwait: round 1/2 (every kind, both scenarios)\nhalbench lockwait: round 2/2 (every kind, both scenarios)\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
	var rep lockWaitReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 7 || rep.Rows[6].Kind != "mutex" {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		c := r.Contended
		if c.N != 800 || r.Occasional.N != 4 {
			t.Errorf("%s: %d contended, %d occasional samples; want 800, 4", r.Kind, c.N, r.Occasional.N)
		}
		if !(c.P50 <= c.P99 && c.P99 <= c.P999 && c.P999 <= c.Max) {
			t.Errorf("%s: quantiles not ordered: %+v", r.Kind, c)
		}
		if (r.Targets == nil) != r.Baseline {
			t.Errorf("%s: targets %v, baseline %v", r.Kind, r.Targets, r.Baseline)
		}
	}
}
