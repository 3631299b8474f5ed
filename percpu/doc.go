// Package percpu gives Go code what a kernel has for per-CPU data.
//
// It has a short critical section on the current P (processor) in which data
// indexed by the P's number has exactly one writer, and three structures
// built on it — a sharded [Counter], a per-P object [Cache] after FreeBSD's
// UMA per-CPU buckets, and [RWMutex], a drop-in for sync.RWMutex whose
// readers, once readers on many Ps overlap, write only their own P's cache
// line.
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
// The rules between Pin and Unpin, and what breaks when they are not kept.
// Each fatal case below is a fatal error of the runtime, which no recover
// catches; TestBlockingWhilePinnedIsFatal shows each one with its message.
//
//   - Keep it short: a few hundred nanoseconds at most. A pinned goroutine
//     cannot be preempted, so a stop-the-world (every GC cycle starts and
//     ends with one) waits until it unpins, and so does every goroutine
//     that needs the GC to finish: a long pin is latency for the whole
//     program.
//   - Never park or yield: "fatal error: schedule: holding locks". That is
//     a channel send, receive or select that waits, a sync.Mutex, RWMutex,
//     WaitGroup or Cond wait, time.Sleep, network or file I/O through Go's
//     poller, runtime.Gosched, runtime.GC (it waits for the cycle), and a
//     goroutine that ends while still pinned.
//   - Never stop the world: "fatal error: stopTheWorld: holding locks".
//     That is runtime.GOMAXPROCS(n) with n > 0 (GOMAXPROCS(0) only reads),
//     runtime.ReadMemStats, runtime.Stack(buf, true), and the profiles and
//     dumps that stop the world (goroutine profile, heap dump).
//   - Never make a blocking system call (a read(2) of a blocking file
//     descriptor through package syscall, say): while the thread is in the
//     kernel the runtime may hand its P to another thread, which runs
//     other goroutines there — the exclusion is gone — and when the call
//     returns and finds no P free, "fatal error: stopm holding locks".
//   - Do not panic: "fatal error: panic holding locks" (the runtime prints
//     the panic value first). Index out of range and nil dereference
//     count.
//   - No allocation-heavy work: allocation is allowed, but a pinned
//     goroutine does no GC assist work and cannot start a GC cycle, so
//     allocating much while pinned lets the heap outrun the collector.
//   - Nesting is allowed: Pin inside Pin returns the same id, and each Pin
//     needs its own Unpin. Do not use the id after the last Unpin: the
//     goroutine may move to another P at once.
//
// Everything in percpu may be called while pinned: [Counter.Add],
// [Counter.Load], [Cache.Get] and [Cache.Put] never block (their slow
// paths grow tables without a lock and, when the caller holds a Pin, only
// try the Cache's depot mutex; see [Cache]). gohal's other slow paths
// that could park ask whether the goroutine holds a Pin first.
//
// [Unpin] without a matching Pin on the same goroutine panics with
// "percpu: Unpin without a matching Pin". This build keeps a per-P pin
// depth; an unmatched Unpin finds it 0, so the goroutine holds no Pin, and
// the panic is raised after Unpin has undone its own pinning: it can
// always be recovered. (Pinning by other means, such as a linkname of
// one's own to the runtime's procPin, is invisible to the depth; a panic
// while so pinned is fatal like any other.)
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
// critical_enter: each P has a private object (tried first, as sync.Pool
// does), an alloc and a free bucket; when both buckets are empty (Get) or
// full (Put), the P exchanges a bucket with a global depot under a mutex,
// taken after unpinning.
//
// # RWMutex
//
// An [RWMutex] counts readers in and out on per-P lines once readers on
// many Ps overlap often between writes, and is biased toward readers
// where a heavy fence reaches every running thread: its type
// documentation says when it pays and what it costs a writer. DESIGN.md, beside this file, states its
// protocol step by step; its tests check that protocol as a model.
//
// # Fallback build
//
// With the build tag gohal_nolinkname or purego, percpu does not link to
// the runtime. The API is the same, but [Pinned] is false: Pin returns
// the number of the CPU the goroutine ran on a moment ago ([hal.CPU]),
// reduced into [0, runtime.NumCPU()) (the kernel's numbers can exceed
// NumCPU under an affinity mask), and excludes nothing; Counter shards
// are chosen by that number and updated with an atomic add; Cache
// buckets are chosen by it and locked with a sync.Mutex. Where hal.CPU is
// a system call (its syscall or portable variant: every purego build, and
// gohal_nolinkname builds on GOARCHes with no user-mode CPU number) one
// per operation would cost more than the sharing it avoids, so Counter,
// Cache and RWMutex keep to one shard, bucket or set of counters there,
// and cost about what an atomic counter, a locked cache or
// sync.RWMutex costs. Results are exact either way; only the cost
// differs.
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
