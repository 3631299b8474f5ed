package gohal_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// unitOnce prints, once per run, the line that tells benchstat which way
// the cycles/op metric is better.
var unitOnce sync.Once

func printUnit() {
	unitOnce.Do(func() { fmt.Printf("Unit %s better=lower\n", cyclebench.CyclesUnit) })
}

// runSection runs every benchmark of a suite section as a sub-benchmark
// named by the rest of its name, reporting allocations too.
func runSection(b *testing.B, section string, threads []int) {
	printUnit()
	ran := 0
	for _, bm := range suite.Select(suite.Options{Threads: threads, Full: true}) {
		if bm.Section != section {
			continue
		}
		f := bm.F
		b.Run(strings.TrimPrefix(bm.Name, section+"/"), func(b *testing.B) {
			b.ReportAllocs()
			f(b)
		})
		ran++
	}
	if ran == 0 {
		b.Fatalf("suite has no %s benchmarks", section)
	}
}

// BenchmarkDispatch measures one uncontended op in every binding mode:
// BenchmarkDispatch/op=<op>/mode=<mode>.
func BenchmarkDispatch(b *testing.B) { runSection(b, "Dispatch", nil) }

// BenchmarkContended measures the ops that share a word, every goroutine
// on one word: BenchmarkContended/op=<op>/mode=<mode>/threads=<n>, for n
// goroutines released together by a start barrier.
func BenchmarkContended(b *testing.B) { runSection(b, "Contended", suite.DefaultThreads) }
