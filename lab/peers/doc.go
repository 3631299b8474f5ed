// Package peers measures gohal's kit side by side with what a Go user would
// pick instead.
//
// The peers are github.com/puzpuzpuz/xsync's striped Counter and RBMutex,
// sync.Mutex, sync.RWMutex, a hand-rolled runtime.Gosched spin lock, a
// sync.Mutex-guarded 128-bit pair and sync.Pool. It is a module of its own (with a replace directive back to
// the library, as the generator's module is), so that the peer libraries
// never enter the library's go.mod.
//
// The package has no API: its content is BenchmarkPeer, whose
// sub-benchmarks are named
//
//	what=<counter|lock|uint128|cache|rwlock>/impl=<name>/threads=<n>[/op=<op>]
//
// (op only for uint128: load, store or cas; and for rwlock: wN, N writes
// per 1000 operations, writerD, readers in every goroutine and one more
// goroutine writing every D, or revoke, a write after 300 µs of reads beside a
// goroutine that reads throughout, run at threads=1 only).
//
// An impl whose name starts with "gohal-" is gohal's, one that starts with
// "floor-" is no implementation but a floor, and every other impl is a
// peer. A floor does alone what one kind of implementation cannot avoid,
// so no implementation of that kind can cost less; halbench peers never
// takes it for the best peer. floor-pins (rwlock, op=w0) counts in and
// out on the reader's P's line under the runtime's pin, which every reader
// in Go that writes only its P's line must take twice (RUnlock may run on
// another P than its RLock), and does nothing else. percpu.RWMutex's
// pinless read path (assembly, linux/amd64) takes no pin, so there the
// floor bounds its Go path only.
//
// Every sub-benchmark reports the "cycles/op" metric through the same
// harness as the library's own benchmarks (lab/cyclebench: n goroutines
// released together by a start barrier, b.N operations in total), so
// ns/op and cycles/op are wall time over all operations, the inverse of
// throughput.
//
// Run from this directory:
//
//	go test -run '^$' -bench . -count 6 -benchtime 100ms
//
// or, for the table of ratios to the best peer, from the repository root:
//
//	go run ./cmd/halbench peers
package peers
