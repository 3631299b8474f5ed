package percpu_test

import (
	"testing"

	"github.com/gohal/gohal/lab/suite"
)

// BenchmarkCache runs the suite's Cache section (lab/suite/percpu.go),
// the FreeBSD experiment halbench also runs: a unit of work that takes an
// object from a cache, touches it and puts it back, the cache protected by
// percpu pinning, a sync.Mutex, spin.Backoff, or sync.Pool, on 1, 2, 4 and
// 8 goroutines. Names: BenchmarkCache/kind=percpu/threads=2. percpu's
// Counter is measured in counter's BenchmarkCounter (kind=percpu, and
// op=load for what a Load costs).
func BenchmarkCache(b *testing.B) { suite.RunSection(b, "Cache", suite.DefaultThreads) }
