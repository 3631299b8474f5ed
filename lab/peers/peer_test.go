package peers

import (
	"flag"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/puzpuzpuz/xsync/v4"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// threads are the goroutine counts every peer benchmark runs at.
var threads = []int{1, 2, 4, 8}

// impl is one implementation of a task: body runs b.N operations on
// the given number of goroutines and fails b if the result is wrong.
type impl struct {
	name string
	body func(b *testing.B, threads int)
}

// task is one thing users need (a counter, a lock, ...) and the ways of
// doing it that are compared; op, when set, is a last name element.
type task struct {
	what  string
	op    string
	impls []impl
	// threads, when set, replaces the goroutine counts the task runs at
	// (the package's threads).
	threads []int
}

// tasks lists every comparison. Impl names starting with "gohal-" are
// gohal's; the others are the peers.
var tasks = []task{
	{what: "counter", impls: []impl{
		kitImpl("gohal-adder", "Counter", "adder"),
		kitImpl("gohal-striped", "Counter", "striped"),
		kitImpl("gohal-fetchadd", "Counter", "fetchadd"),
		kitImpl("gohal-percpu", "Counter", "percpu"),
		{"xsync-counter", counterXsync},
		kitImpl("atomic-int64", "Counter", "atomic"),
	}},
	{what: "lock", impls: []impl{
		lockImpl("gohal-tas", "tas"),
		lockImpl("gohal-ttas", "ttas"),
		lockImpl("gohal-backoff", "backoff"),
		lockImpl("gohal-asm", "asm"),
		lockImpl("gohal-ticket", "ticket"),
		lockImpl("gohal-mcs", "mcs"),
		lockImpl("sync-mutex", "mutex"),
		{"gosched-spin", lockGosched},
	}},
	// Reader/writer locks at write shares of 0, 0.1, 1, 10 and 50 %
	// (op=wN: N writes per 1000 operations).
	rwTask(0), rwTask(1), rwTask(10), rwTask(100), rwTask(500),
	// The service shape (op=writerD): readers in every goroutine and one
	// more goroutine writing every D, the suite's body; xsync's RBMutex
	// has no place in its lock interface (RLock returns a token).
	rwTimerTask(suite.RWLockWriters[0]), rwTimerTask(suite.RWLockWriters[1]),
	// The first write after a read-only stretch (op=revoke): each
	// operation reads for suite.RWLockStretch, then writes once (the
	// suite's RunRevoke, as halbench's RWLock section), while a second
	// goroutine reads throughout; the body brings its own reader, so it
	// runs at threads=1 only.
	{what: "rwlock", op: "revoke", threads: []int{1}, impls: []impl{
		{"gohal-percpu", suite.Body(suite.RWLockRevokeName("percpu"))},
		{"xsync-rbmutex", rwRevokeXsync},
		{"sync-rwmutex", suite.Body(suite.RWLockRevokeName("rwmutex"))},
	}},
	{what: "uint128", op: "load", impls: []impl{{"gohal-uint128", u128Load[*halPair]}, {"mutex-pair", u128Load[*mutexPair]}}},
	{what: "uint128", op: "store", impls: []impl{{"gohal-uint128", u128Store[*halPair]}, {"mutex-pair", u128Store[*mutexPair]}}},
	{what: "uint128", op: "cas", impls: []impl{{"gohal-uint128", u128CAS[*halPair]}, {"mutex-pair", u128CAS[*mutexPair]}}},
	{what: "cache", impls: []impl{kitImpl("gohal-percpu", "Cache", "percpu"), kitImpl("sync-pool", "Cache", "pool")}},
}

// kitImpl is the suite's body of a section's kind: the very code halbench's
// report times for the registry's questions (suite.Questions), so that
// peers and the report answer them on one workload.
func kitImpl(name, section, kind string) impl {
	return impl{name, suite.Body(section + "/kind=" + kind + "/" + suite.ThreadsWildcard)}
}

// lockImpl is the suite's lock body of kind around an empty critical
// section.
func lockImpl(name, kind string) impl { return impl{name, suite.Body(suite.LockName(kind, 0, 0))} }

// name returns the sub-benchmark name of impl i of t at n goroutines.
func (t task) name(i impl, n int) string {
	s := "what=" + t.what + "/impl=" + i.name + "/threads=" + strconv.Itoa(n)
	if t.op != "" {
		s += "/op=" + t.op
	}
	return s
}

// BenchmarkPeer runs every task's implementations at 1, 2, 4 and 8
// goroutines.
func BenchmarkPeer(b *testing.B) {
	suite.SetLockRunCap(*lockCap)
	for _, t := range tasks {
		ns := threads
		if t.threads != nil {
			ns = t.threads
		}
		for _, i := range t.impls {
			for _, n := range ns {
				b.Run(t.name(i, n), func(b *testing.B) { i.body(b, n) })
			}
		}
	}
}

// padded keeps a value on cache lines of its own, as gohal's kit keeps
// its words, so that no implementation wins or loses by false sharing.
type padded[T any] struct {
	_ cacheline.Line
	v T
	_ cacheline.Line
}

// wantCount fails b unless got equals b.N: each operation added one.
func wantCount(b *testing.B, got int64) {
	b.Helper()
	if got != int64(b.N) {
		b.Fatalf("count %d after %d operations", got, b.N)
	}
}

// The counter bodies: one Add(1) per operation, by every goroutine on one
// shared counter; the total is checked afterwards. Each body calls its
// counter's method directly (no interface, no func value per operation),
// as a user's code would.

func counterXsync(b *testing.B, threads int) {
	c := xsync.NewCounter()
	cyclebench.RunLoop(b, threads, func(_, n int) {
		for range n {
			c.Add(1)
		}
	})
	wantCount(b, c.Value())
}

// goschedSpin is the spin lock many Go projects copy: CAS the word from 0
// to 1, and on failure yield the processor with runtime.Gosched and retry.
// It is a peer, written here as users write it.
type goschedSpin struct {
	_ cacheline.Line
	v atomic.Uint32
	_ [cacheline.Size - unsafe.Sizeof(atomic.Uint32{})%cacheline.Size]byte
}

func (l *goschedSpin) Lock() {
	for !l.v.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
}

func (l *goschedSpin) Unlock() { l.v.Store(0) }

// The gosched-spin body: each operation is Lock, an increment of an int
// the lock guards, Unlock, as the suite's lock bodies (lockImpl) at cs=0,
// with their bookkeeping (suite.Progress): the fairness metric, the total
// checked afterwards, and the run cap.
//
// A FIFO lock (Ticket, MCS) whose next waiter is not running stalls every
// goroutine behind it; when goroutines outnumber CPUs (8 goroutines on a
// 2-vCPU machine shared with other work) a run can fall into a regime where
// each hand-over waits for the scheduler, a thousand times slower than
// usual, for as long as b.N lasts. The lock bodies therefore stop after
// -peers.lockcap (suite.SetLockRunCap) and then report ns/op and
// cycles/op over the operations actually done, and their number as the
// "truncated-ops" metric.

// lockCap bounds the wall time of one run of a lock body.
var lockCap = flag.Duration("peers.lockcap", 2*time.Second, "stop a lock benchmark's run after this long (0: never)")

func lockGosched(b *testing.B, threads int) {
	l, x, p := new(goschedSpin), new(padded[int64]), suite.NewProgress(threads)
	r := cyclebench.RunLoop(b, threads, func(w, n int) {
		noted, i := false, 0
		for ; i < n && !p.Aborted(i); i++ {
			l.Lock()
			x.v++
			l.Unlock()
			noted = p.Note(w, i, noted)
		}
		p.Done(w, i, noted)
	})
	p.Report(b, r, x.v)
}

// pair128 is a 128-bit word with atomic Load, Store and CompareAndSwap.
// The uint128 bodies are generic over it: both implementations are
// pointer types, so they share one instantiation and pay the same
// indirect method call, which is small next to a 128-bit atomic.
type pair128 interface {
	Load() (lo, hi uint64)
	Store(lo, hi uint64)
	CompareAndSwap(oldLo, oldHi, newLo, newHi uint64) bool
}

// halPair is gohal's hal.Uint128 (LOCK CMPXCHG16B, CASPAL, ... or the
// portable fallback, as hal selected).
type halPair struct {
	_ cacheline.Line
	hal.Uint128
	_ cacheline.Line
}

// mutexPair is what Go offers without a 128-bit atomic (this Go's
// sync/atomic has no 128-bit type): two words under a sync.Mutex.
type mutexPair struct {
	_      cacheline.Line
	mu     sync.Mutex
	lo, hi uint64
	_      cacheline.Line
}

func (p *mutexPair) Load() (lo, hi uint64) {
	p.mu.Lock()
	lo, hi = p.lo, p.hi
	p.mu.Unlock()
	return lo, hi
}

func (p *mutexPair) Store(lo, hi uint64) {
	p.mu.Lock()
	p.lo, p.hi = lo, hi
	p.mu.Unlock()
}

func (p *mutexPair) CompareAndSwap(oldLo, oldHi, newLo, newHi uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lo != oldLo || p.hi != oldHi {
		return false
	}
	p.lo, p.hi = newLo, newHi
	return true
}

// pairPtr is *T, a pair128.
type pairPtr[T any] interface {
	*T
	pair128
}

// u128Load: every goroutine loads one shared word that holds (v, ^v); a
// torn read fails the benchmark.
func u128Load[P pairPtr[T], T any](b *testing.B, threads int) {
	p := P(new(T))
	p.Store(12345, ^uint64(12345))
	var torn atomic.Int64
	cyclebench.RunLoop(b, threads, func(_, n int) {
		bad := 0
		for range n {
			lo, hi := p.Load()
			if hi != ^lo {
				bad++
			}
		}
		torn.Add(int64(bad))
	})
	if torn.Load() != 0 {
		b.Fatalf("%d torn loads", torn.Load())
	}
}

// u128Store: every goroutine stores (v, ^v) to one shared word; the word
// must hold such a pair afterwards.
func u128Store[P pairPtr[T], T any](b *testing.B, threads int) {
	p := P(new(T))
	cyclebench.RunLoop(b, threads, func(w, n int) {
		for i := range n {
			v := uint64(w)<<32 | uint64(i)
			p.Store(v, ^v)
		}
	})
	if b.N > 0 {
		if lo, hi := p.Load(); hi != ^lo {
			b.Fatalf("torn word after stores: %#x %#x", lo, hi)
		}
	}
}

// u128CAS: each operation is one 128-bit increment of a shared word: Load,
// then CompareAndSwap(old, old+1 in both halves), retried until it
// succeeds. The word must count b.N in both halves afterwards.
func u128CAS[P pairPtr[T], T any](b *testing.B, threads int) {
	p := P(new(T))
	cyclebench.RunLoop(b, threads, func(_, n int) {
		for range n {
			for {
				lo, hi := p.Load()
				if p.CompareAndSwap(lo, hi, lo+1, hi+1) {
					break
				}
			}
		}
	})
	if lo, hi := p.Load(); lo != uint64(b.N) || hi != uint64(b.N) {
		b.Fatalf("word (%d, %d) after %d increments", lo, hi, b.N)
	}
}

// rwTask is the reader/writer lock comparison at wpm writes per 1000
// operations: percpu.RWMutex, xsync's RBMutex (BRAVO-style: a reader takes
// a slot by CAS and passes its token to RUnlock), sync.RWMutex and
// sync.Mutex.
//
// Reads only (wpm 0) it adds a floor, floor-pins (rwFloor): no lock, only
// what every reader that counts itself on its P's line pays.
func rwTask(wpm int) task {
	t := task{what: "rwlock", op: "w" + strconv.Itoa(wpm), impls: []impl{
		{"gohal-percpu", suite.Body(suite.RWLockName("percpu", 0, wpm))},
		{"xsync-rbmutex", rwXsync(wpm)},
		{"sync-rwmutex", suite.Body(suite.RWLockName("rwmutex", 0, wpm))},
		{"sync-mutex", suite.Body(suite.RWLockName("mutex", 0, wpm))},
	}}
	if wpm == 0 {
		t.impls = append(t.impls, impl{"floor-pins", rwFloor})
	}
	return t
}

// rwTimerTask is the suite's service shape with a writer every period.
func rwTimerTask(period string) task {
	t := task{what: "rwlock", op: "writer" + period}
	for _, k := range [][2]string{{"gohal-percpu", "percpu"}, {"sync-rwmutex", "rwmutex"}, {"sync-mutex", "mutex"}} {
		t.impls = append(t.impls, impl{k[0], suite.Body(suite.RWLockTimerName(k[1], 0, period))})
	}
	return t
}

// rwCheck fails b unless the guarded counter counted every write: a
// writer was alone.
func rwCheck(b *testing.B, writes []int64, got int64) {
	b.Helper()
	var sum int64
	for _, n := range writes {
		sum += n
	}
	if got != sum {
		b.Fatalf("%d writes incremented the guarded counter to %d", sum, got)
	}
}

// The reader/writer bodies: goroutine operation i is a write (increment
// the guarded counter) when i mod 1000 < wpm, else a read (load it).

func rwXsync(wpm int) func(*testing.B, int) {
	return func(b *testing.B, threads int) {
		l, x := xsync.NewRBMutex(), new(padded[int64])
		writes := make([]int64, threads)
		cyclebench.RunLoop(b, threads, func(w, n int) {
			for i := range n {
				if i%1000 < wpm {
					l.Lock()
					x.v++
					l.Unlock()
					writes[w]++
				} else {
					t := l.RLock()
					_ = x.v
					l.RUnlock(t)
				}
			}
		})
		rwCheck(b, writes, x.v)
	}
}

// floorCell is one P's counts in rwFloor, on cache lines of its own.
type floorCell = padded[struct{ in, out uintptr }]

// rwFloor is the floor of a read pair on per-P lines: no lock, only the
// counts. It does alone what a reader that counts itself in and out on its
// P's own line must do in Go: it learns its P and keeps it with the
// runtime's pin (internal/pin, as percpu.RWMutex's Go path does; the
// runtime offers Go code no other way to learn the P, and the compiler
// cannot inline the call), counts in, loads the guarded value, and pins
// again to count out, since RUnlock may run on another P than RLock. So
// no such reader in Go costs less; assembly, which the runtime does not
// preempt, needs no pin (percpu's pinless read path).
//
// The loop keeps the locks' bodies' test of i against the write share (0
// here), so that only the lock differs, and counts as percpu.RWMutex's
// biased readers do: hal's release store, a plain store where hal's own
// code runs and sync/atomic's under -race, so that the race detector sees
// it. Where pin cannot exclude (tags purego, gohal_nolinkname) the counts
// are atomic adds.
func rwFloor(b *testing.B, threads int) {
	wpm := 0
	cells := make([]floorCell, runtime.GOMAXPROCS(0))
	x := new(padded[int64])
	cyclebench.RunLoop(b, threads, func(w, n int) {
		for i := range n {
			if i%1000 < wpm {
				continue // never: reads only
			}
			// Written out, not a helper: a call of our own would be
			// more than the floor.
			id := pin.ProcPin()
			if uint(id) >= uint(len(cells)) {
				id = 0 // the fallback's CPU number, past the table
			}
			if c := &cells[id].v.in; pin.Pinned {
				hal.StoreReleaseUintptr(c, hal.LoadAcquireUintptr(c)+1)
			} else {
				atomic.AddUintptr(c, 1)
			}
			pin.ProcUnpin()
			_ = x.v
			id = pin.ProcPin()
			if uint(id) >= uint(len(cells)) {
				id = 0
			}
			if c := &cells[id].v.out; pin.Pinned {
				hal.StoreReleaseUintptr(c, hal.LoadAcquireUintptr(c)+1)
			} else {
				atomic.AddUintptr(c, 1)
			}
			pin.ProcUnpin()
		}
	})
	var in, out uintptr
	for i := range cells {
		in += cells[i].v.in
		out += cells[i].v.out
	}
	if in != uintptr(b.N) || out != uintptr(b.N) {
		b.Fatalf("%d reads counted %d in and %d out", b.N, in, out)
	}
}

func rwRevokeXsync(b *testing.B, _ int) {
	l, x := xsync.NewRBMutex(), new(padded[int64])
	suite.RunRevoke(b, func() {
		t := l.RLock()
		_ = x.v
		l.RUnlock(t)
	}, func() {
		l.Lock()
		x.v++
		l.Unlock()
	})
	rwCheck(b, []int64{int64(b.N)}, x.v)
}
