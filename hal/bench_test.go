package hal

import (
	"sync/atomic"
	"testing"
)

// BenchmarkFetchAdd compares the bindings of one uncontended FetchAddUint64:
// the exported function (flag binding), a direct call to one variant's
// assembly, the dispatch table's func value (an indirect call through the
// ABI wrapper) and sync/atomic, which the compiler inlines.
func BenchmarkFetchAdd(b *testing.B) {
	var x uint64
	b.Run("api", func(b *testing.B) {
		for b.Loop() {
			FetchAddUint64(&x, 1)
		}
	})
	b.Run("direct/"+directFetchAddName(), func(b *testing.B) {
		benchDirectFetchAdd(b, &x)
	})
	b.Run("table", func(b *testing.B) {
		f := Table().FetchAddUint64.Func
		for b.Loop() {
			f(&x, 1)
		}
	})
	b.Run("atomic", func(b *testing.B) {
		for b.Loop() {
			atomic.AddUint64(&x, 1)
		}
	})
}
