package counter_test

import (
	"testing"

	"github.com/gohal/gohal/counter"
	"github.com/gohal/gohal/lab/suite"
)

// BenchmarkCounter runs the suite's Counter section
// (lab/suite/kit.go), the benchmarks halbench runs: Add(1) on one
// shared counter from 1, 2, 4 and 8 goroutines — the lock-free CAS loop
// (with its failed attempts as retries/op), the wait-free fetch-and-add,
// the striped counter, and two baselines, a sync.Mutex-protected int64 and
// an inlined sync/atomic add (which halbench runs only with -full). The
// operation is written inline in the measuring loop. The names are
// halbench's without the section, e.g. BenchmarkCounter/kind=fetchadd/threads=2.
func BenchmarkCounter(b *testing.B) { suite.RunSection(b, "Counter", suite.DefaultThreads) }

// TestEveryCounterIsBenchmarked checks that the suite benchmarks every
// counter the tests iterate over, the baselines included.
func TestEveryCounterIsBenchmarked(t *testing.T) {
	have := map[string]bool{}
	for _, b := range suite.Benches() {
		have[b.Name] = true
	}
	for _, k := range counter.KindNames() {
		if n := "Counter/kind=" + k + "/" + suite.ThreadsWildcard; !have[n] {
			t.Errorf("no benchmark %s in lab/suite", n)
		}
	}
}
