package main

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/suite"
)

// TestRWWaitArgs: -rw takes -rounds, -quick and -json, and names any
// other lockwait flag it does not use; fewer rounds than the report's rule
// can judge are refused.
func TestRWWaitArgs(t *testing.T) {
	cfg, err := parseLockWaitArgs([]string{"-rw", "-quick", "-rounds", "5", "-json"})
	if err != nil || cfg.rw == nil || cfg.rw.Rounds != 5 || cfg.rw.Window.Milliseconds() != 30 || !cfg.json {
		t.Fatalf("-rw -quick -rounds 5 -json: %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-rw"}, {"-rw", "-quick"}} {
		if cfg, err := parseLockWaitArgs(args); err != nil || cfg.rw.Rounds < minRuleSamples {
			t.Errorf("%q: %+v, %v: want at least %d rounds", args, cfg, err, minRuleSamples)
		}
	}
	if cfg, err := parseLockWaitArgs([]string{"-rw", "-control"}); err != nil || !cfg.rw.Control {
		t.Errorf("-rw -control: %+v, %v: want the control run", cfg, err)
	}
	if _, err := parseLockWaitArgs([]string{"-control"}); err == nil || !strings.Contains(err.Error(), "-control") {
		t.Errorf("-control without -rw: %v, want a usage error naming -control", err)
	}
	for _, args := range [][]string{{"-rw", "-kinds", "ticket"}, {"-rw", "-cap", "1s"}, {"-rw", "-rounds", "0"}, {"-rw", "-rounds", "3"}} {
		if _, err := parseLockWaitArgs(args); err == nil || !strings.Contains(err.Error(), args[1]) {
			t.Errorf("%q: %v, want a usage error naming %s", args, err, args[1])
		}
	}
}

// rwTestRow is a row of one cell with a round per entry of rp50 (RLock
// p50, ns) and ops (reads per second); its other waits are the same in
// every round.
func rwTestRow(shape string, kind string, rp50, ops []float64) rwWaitRow {
	r := rwWaitRow{Shape: shape, Goroutines: 2, Kind: kind, Baseline: kind == "rwmutex"}
	for i := range rp50 {
		r.Rounds = append(r.Rounds, rwWaitFigs{Read: waitStats{P50: rp50[i], P99: 40e3, Mean: rp50[i]},
			Write: waitStats{P50: 30, P99: 1e6, Mean: 500}, ReadsPerS: ops[i]})
	}
	r.fillMedians()
	return r
}

// TestRWWaitTargets: each percpu row is checked against the sync.RWMutex
// row of its own cell, round against round: a wait under 1 µs counts as
// 1 µs, a round in another schedule does not decide the verdict, and
// operations miss only when significantly fewer. The control is judged as
// percpu is, and its misses counted apart.
func TestRWWaitTargets(t *testing.T) {
	six := func(v ...float64) []float64 { return v }
	same := func(x float64) []float64 { return six(x, x, x, x, x, x) }
	noisy := six(100, 103, 98, 101, 99, 102)
	rows := []rwWaitRow{
		// 1.9 µs against sub-µs waits, which count as 1 µs: pass.
		rwTestRow("writers", "percpu", same(1900), noisy),
		rwTestRow("writers", "rwmutex", same(500), six(101, 99, 102, 100, 103, 98)),
		// 2.1×: miss; ops 0.8× in every round: significantly fewer.
		rwTestRow("readers", "percpu", same(2100), same(80)),
		rwTestRow("readers", "rwmutex", same(1000), noisy),
		// Two rounds of six in the schedule where the lone reader runs
		// on (20 ns waits, ten times the reads) for percpu, none for
		// sync.RWMutex, then the reverse: neither decides.
		rwTestRow("mixed", "percpu", six(28e3, 20, 28e3, 28e3, 20, 28e3), six(40, 800, 40, 41, 790, 39)),
		rwTestRow("mixed", "rwmutex", six(27e3, 28e3, 27e3, 28e3, 27e3, 28e3), six(41, 40, 39, 40, 41, 40)),
		rwTestRow("flip", "percpu", six(28e3, 28e3, 27e3, 28e3, 28e3, 27e3), six(40, 41, 39, 40, 41, 40)),
		rwTestRow("flip", "rwmutex", six(28e3, 20, 28e3, 20, 28e3, 28e3), six(41, 800, 40, 790, 39, 40)),
		// The control in the readers cell: ops 0.8×, a miss.
		rwTestRow("readers", suite.RWWaitControl, same(1000), same(80)),
	}
	markRWWaitTargets(rows)
	for i := 1; i < len(rows); i += 2 {
		if rows[i].Targets != nil {
			t.Errorf("baseline row %s got targets", rows[i].Shape)
		}
	}
	if a := rows[0].Targets; a == nil || !a.All {
		t.Errorf("writers: %+v, want every target met", a)
	}
	if b := rows[2].Targets; b == nil || b.All || b.ReadP50.Pass || !b.ReadP99.Pass || b.Ops.Pass || b.Ops.Ratio.Hi >= 1 {
		t.Errorf("readers: %+v, want RLock p50 and ops missed, the rest met", b)
	}
	for _, i := range []int{4, 6} {
		if m := rows[i].Targets; m == nil || !m.All {
			t.Errorf("%s: %+v, want every target met: a minority of rounds in another schedule", rows[i].Shape, m)
		}
	}
	// The figures are the medians over the rounds, not the merged rounds'.
	if r := rows[4]; r.Read.P50 != 28e3 || r.ReadsPerS != 40.5 {
		t.Errorf("mixed percpu: p50 %v, reads/s %v; want the medians over the rounds, 28µs and 40.5", r.Read.P50, r.ReadsPerS)
	}
	var out strings.Builder
	if err := writeRWWaitText(&out, &rwWaitReport{hostInfo: thisHost(), Rows: rows}); err != nil {
		t.Fatal(err)
	}
	if c := rows[8].Targets; c == nil || c.Ops.Pass || !c.ReadP50.Pass {
		t.Errorf("readers control: %+v, want ops missed, RLock p50 met", c)
	}
	if s := out.String(); !strings.Contains(s, "MISS RLock p50 2.10×, ops 0.80× [") || !strings.Contains(s, "1 of 4 cells miss a target") ||
		!strings.Contains(s, "misses a target in 1 of 1 cells") {
		t.Errorf("table:\n%s", s)
	}
	// Each side's mean stands before its p50 and p99.
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "readers" || f[2] != "percpu" {
			continue
		}
		r := rows[2]
		want := []string{durText(r.Read.Mean), durText(r.Read.P50), durText(r.Read.P99), "0",
			durText(r.Write.Mean), durText(r.Write.P50), durText(r.Write.P99)}
		if got := f[4:11]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("readers percpu: columns %q, want %q\n%s", got, want, line)
		}
		return
	}
	t.Errorf("no readers percpu row:\n%s", out.String())
}
