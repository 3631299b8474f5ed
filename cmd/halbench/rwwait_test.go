package main

import (
	"strings"
	"testing"
)

// TestRWWaitArgs: -rw takes -rounds, -quick and -json, and names any
// other lockwait flag it does not use.
func TestRWWaitArgs(t *testing.T) {
	cfg, err := parseLockWaitArgs([]string{"-rw", "-quick", "-rounds", "5", "-json"})
	if err != nil || cfg.rw == nil || cfg.rw.Rounds != 5 || cfg.rw.Window.Milliseconds() != 30 || !cfg.json {
		t.Fatalf("-rw -quick -rounds 5 -json: %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-rw", "-kinds", "ticket"}, {"-rw", "-cap", "1s"}, {"-rw", "-rounds", "0"}} {
		if _, err := parseLockWaitArgs(args); err == nil || !strings.Contains(err.Error(), args[1]) {
			t.Errorf("%q: %v, want a usage error naming %s", args, err, args[1])
		}
	}
}

// TestRWWaitTargets: each percpu row is checked against the sync.RWMutex
// row of its own cell, a wait under 1 µs counting as 1 µs.
func TestRWWaitTargets(t *testing.T) {
	row := func(shape string, g int, kind string, rp50, rp99, wp50, wp99, ops float64) rwWaitRow {
		return rwWaitRow{Shape: shape, Goroutines: g, Kind: kind, Baseline: kind == "rwmutex",
			Read:  waitStats{P50: rp50, P99: rp99, Mean: (rp50 + rp99) / 2},
			Write: waitStats{P50: wp50, P99: wp99, Mean: (wp50 + wp99) / 2}, ReadsPerS: ops}
	}
	rows := []rwWaitRow{
		row("writers", 2, "percpu", 1900, 40e3, 30, 1e6, 100), // 1.9 µs against 1 µs: pass
		row("writers", 2, "rwmutex", 500, 30e3, 20, 1e6, 100), // sub-µs counts as 1 µs
		row("readers", 2, "percpu", 2100, 40e3, 30, 1e6, 99),  // 2.1×, and fewer ops
		row("readers", 2, "rwmutex", 1000, 30e3, 20, 1e6, 100),
	}
	markRWWaitTargets(rows)
	if rows[1].Targets != nil || rows[3].Targets != nil {
		t.Error("a baseline row got targets")
	}
	if a := rows[0].Targets; a == nil || !a.All {
		t.Errorf("writers/2: %+v, want every target met", a)
	}
	if b := rows[2].Targets; b == nil || b.All || b.ReadP50.Pass || !b.ReadP99.Pass || b.Ops.Pass {
		t.Errorf("readers/2: %+v, want RLock p50 and ops missed, the rest met", b)
	}
	var out strings.Builder
	if err := writeRWWaitText(&out, &rwWaitReport{hostInfo: thisHost(), Rows: rows}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "MISS RLock p50 2.10×, ops 0.99×") || !strings.Contains(s, "1 of 2 cells miss a target") {
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
			t.Errorf("readers/2 percpu: columns %q, want %q\n%s", got, want, line)
		}
		return
	}
	t.Errorf("no readers/2 percpu row:\n%s", out.String())
}
