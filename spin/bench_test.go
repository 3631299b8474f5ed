package spin_test

import (
	"testing"

	"github.com/gohal/gohal/lab/suite"
	"github.com/gohal/gohal/spin"
)

// BenchmarkLock runs the suite's Lock section (lab/suite/kit.go), the
// benchmarks halbench runs: Lock + critical section (an increment of the
// guarded counter, then busy work) + Unlock for every
// lock and sync.Mutex, on 1, 2, 4 and 8 goroutines, with critical sections
// of suite.LockCS ns. ns/op and cycles/op are wall-clock time over all
// acquisitions (the inverse of throughput); fairness-stddev% is how
// unevenly the goroutines had progressed when the first finished its share.
// The names are halbench's without the section, e.g.
// BenchmarkLock/kind=ttas/threads=2/cs=50.
func BenchmarkLock(b *testing.B) { suite.RunSection(b, "Lock", suite.DefaultThreads) }

// BenchmarkHandover runs the suite's Handover section: goroutines take
// strict turns through one cache line, with no lock, beside sync.Mutex.
// It is the floor of a FIFO hand-over on this machine: a Ticket or MCS
// lock that hands over to a waiter on another processor at every
// acquisition costs at least what a turn costs here.
func BenchmarkHandover(b *testing.B) { suite.RunSection(b, "Handover", suite.DefaultThreads) }

// TestEveryLockIsBenchmarked checks that the suite benchmarks every lock
// the tests iterate over, and sync.Mutex, at every critical section.
func TestEveryLockIsBenchmarked(t *testing.T) {
	checkBenchmarked(t, append(spin.LockKindNames(), "mutex"), func(kind string) []string {
		var names []string
		for _, cs := range suite.LockCS {
			names = append(names, suite.LockName(kind, 0, cs))
		}
		return names
	})
}

// checkBenchmarked checks that the suite registers every name names(kind)
// returns for each of kinds.
func checkBenchmarked(t *testing.T, kinds []string, names func(kind string) []string) {
	t.Helper()
	have := map[string]bool{}
	for _, b := range suite.Benches() {
		have[b.Name] = true
	}
	for _, k := range kinds {
		for _, n := range names(k) {
			if !have[n] {
				t.Errorf("%s: no benchmark %s in lab/suite", k, n)
			}
		}
	}
}
