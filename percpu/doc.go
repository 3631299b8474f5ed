// Package percpu gives Go code what a kernel has for per-CPU data: a short
// critical section on the current P (processor) in which data indexed by the
// P's number has exactly one writer, and two structures built on it — a
// sharded [Counter] and a per-P object [Cache] after FreeBSD's UMA per-CPU
// buckets.
//
// # Pin and Unpin
//
// [Pin] disables preemption of the calling goroutine and returns the id of
// the P it runs on, in [0, GOMAXPROCS). Until the matching [Unpin] no other
// goroutine runs on that P, so a slot indexed by the id is written by one
// goroutine at a time without a lock or a locked instruction. This is the
// runtime's own procPin/procUnpin (sync.Pool uses it), reached by a
// go:linkname that the Go team keeps working for outside users
// (go.dev/issue/67401); it is FreeBSD's critical_enter/critical_exit.
//
// The rules between Pin and Unpin, and what breaks when they are not kept:
//
//   - Keep it short: a few hundred nanoseconds at most. A pinned goroutine
//     cannot be preempted, so a stop-the-world (every GC cycle starts and
//     ends with one) waits until it unpins, and so does every goroutine
//     that needs the GC to finish: a long pin is latency for the whole
//     program.
//   - Never block or yield: no channel send, receive or select, no
//     sync.Mutex or WaitGroup wait, no time.Sleep, no runtime.Gosched,
//     no network or file I/O. The runtime cannot switch goroutines on a
//     pinned thread: it stops the program with "fatal error: schedule:
//     holding locks" (TestBlockingWhilePinnedIsFatal shows it). A
//     blocking system call can also let the runtime hand the P to another
//     thread, and then two goroutines write the same P's data.
//   - Do not panic: a panic while pinned cannot be recovered; the runtime
//     stops the program with "fatal error: panic holding locks". Index
//     out of range and nil dereference count.
//   - No allocation-heavy work: allocation is allowed, but a pinned
//     goroutine does no GC assist work and cannot start a GC cycle, so
//     allocating much while pinned lets the heap outrun the collector.
//   - Nesting is allowed: Pin inside Pin returns the same id, and each Pin
//     needs its own Unpin. Do not use the id after the last Unpin: the
//     goroutine may move to another P at once.
//
// [Unpin] without a matching Pin on the same goroutine panics with
// "percpu: Unpin without a matching Pin" (this build checks a per-P pin
// depth; the panic happens after the check restored the runtime's state,
// so it can be recovered).
//
// # Counter
//
// A [Counter] keeps one shard per P, each on a cache line of its own. Add
// pins, loads its shard and stores the sum back with a release store — no
// locked instruction, since the shard has one writer — and unpins. Load
// sums the shards with acquire loads. Shards are added when GOMAXPROCS
// grows; none is removed when it shrinks.
//
// # Cache
//
// A [Cache] hands out and takes back objects of one type from per-P
// buckets under Pin, the way FreeBSD's UMA does from per-CPU buckets under
// critical_enter: each P has an alloc and a free bucket; when both are
// empty (Get) or full (Put), the P exchanges a bucket with a global depot
// under a mutex, taken after unpinning.
//
// # Fallback build
//
// With the build tag gohal_nolinkname or purego, percpu does not link to
// the runtime. The API is the same, but [Pinned] is false: Pin returns
// [hal.CPU], the number of the CPU the goroutine ran on a moment ago, and
// excludes nothing; Counter shards are chosen by that number and updated
// with an atomic add; Cache buckets are chosen by it and locked with a
// sync.Mutex. Results are exact either way; only the cost differs.
//
// # Race detector
//
// The race detector does not know that a pinned P excludes other
// goroutines: two goroutines that write one shard on the same P, one
// after the other, look like a data race to it. Under the race build tag
// the shards are therefore read and written with sync/atomic (through
// [hal], whose race build is sync/atomic) and each Cache bucket is also
// locked with an uncontended sync.Mutex, so -race sees the ordering that
// pinning provides.
package percpu
