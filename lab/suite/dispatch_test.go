package suite

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestDispatchModes checks that every op and mode of the Dispatch table
// has a benchmark, or a reason why it cannot exist in this build, and
// never both; and likewise under contention.
func TestDispatchModes(t *testing.T) {
	names := map[string]bool{}
	for _, bm := range Select(Options{Full: true, Threads: []int{2}}) {
		names[bm.Name] = true
	}
	for _, sec := range []struct {
		ops  []string
		name func(op, mode string) string
	}{{DispatchOps, DispatchName}, {ContendedOps, func(op, mode string) string { return ContendedName(op, mode, 2) }}} {
		for _, op := range sec.ops {
			for _, mode := range DispatchModes {
				if why, have := Absent(op, mode), names[sec.name(op, mode)]; have == (why != "") {
					t.Errorf("%s: registered %v, absence reason %q", sec.name(op, mode), have, why)
				}
			}
		}
	}
	for name := range names {
		if !strings.HasPrefix(name, "Dispatch/") && !strings.HasPrefix(name, "Contended/") {
			continue
		}
		ops := DispatchOps
		if strings.HasPrefix(name, "Contended/") {
			ops = ContendedOps
		}
		if !slices.ContainsFunc(ops, func(op string) bool { return strings.Contains(name, "/op="+op+"/") }) {
			t.Errorf("%s: op not in DispatchOps (Dispatch) or ContendedOps (Contended)", name)
		}
	}
}

// TestDispatchBodiesDoNotAllocate runs every Dispatch and Contended body
// for a fixed number of operations inside testing.AllocsPerRun: whatever
// the body allocates once (its word, its goroutines, the harness) is
// spread over 20000 operations, so anything that allocates per operation
// shows as at least 1 alloc/op.
func TestDispatchBodiesDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every dispatch body; skipped in -short")
	}
	const n = 20000
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("20000x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	for _, bm := range Select(Options{Full: true, Threads: []int{1, 2}}) {
		if bm.Section != "Dispatch" && bm.Section != "Contended" {
			continue
		}
		var ops int
		allocs := testing.AllocsPerRun(1, func() { ops = testing.Benchmark(bm.F).N })
		if ops != n {
			t.Errorf("%s: ran %d operations, want %d", bm.Name, ops, n)
			continue
		}
		if perOp := allocs / n; perOp >= 0.01 {
			t.Errorf("%s: %.3f allocs/op (%.0f allocations in %d operations), want 0", bm.Name, perOp, allocs, n)
		}
	}
}
