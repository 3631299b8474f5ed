package refcount_test

import (
	"testing"

	"github.com/gohal/gohal/lab/suite"
)

// BenchmarkRefcount runs the suite's Refcount section
// (lab/suite/kit.go), the benchmarks halbench runs: one Inc of a
// shared count, for the plain and checked counters, inlined (sync/atomic)
// and through hal calls (all but Count live in lab/refimpl, as they
// exist only to be measured) — the table of Linux's refcount_t work (plain
// atomic vs checked call vs checked inline) — uncontended (threads=1) and
// contended. The operation is written inline in the measuring loop, so
// the harness adds no call per operation. The names are halbench's
// without the section, e.g. BenchmarkRefcount/kind=checked-inline/threads=1.
func BenchmarkRefcount(b *testing.B) { suite.RunSection(b, "Refcount", suite.DefaultThreads) }

// benchKind maps the tests' name of a count to its benchmark kind where
// the two differ.
var benchKind = map[string]string{"checked": "checked-inline"}

// TestEveryCountIsBenchmarked checks that the suite benchmarks every count
// the tests iterate over.
func TestEveryCountIsBenchmarked(t *testing.T) {
	have := map[string]bool{}
	for _, b := range suite.Benches() {
		have[b.Name] = true
	}
	for _, kd := range kinds {
		k := kd.name
		if bk, ok := benchKind[k]; ok {
			k = bk
		}
		if n := "Refcount/kind=" + k + "/" + suite.ThreadsWildcard; !have[n] {
			t.Errorf("no benchmark %s in lab/suite", n)
		}
	}
}
