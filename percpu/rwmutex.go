package percpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/pin"
)

// RWMutex is a reader/writer mutual exclusion lock whose readers, once
// they overlap, write no shared cache line.
//
// It is a drop-in for [sync.RWMutex]: the same methods, the zero value is
// an unlocked lock, RUnlock needs no token from RLock and may run on
// another P than its RLock, and it must not be copied after first use.
// Lock has acquire and Unlock release semantics for every later RLock and
// Lock, and RUnlock release semantics for the next Lock, as for
// sync.RWMutex.
//
// # Design
//
// Until a reader finds another inside, a reader takes an idle lock with
// one compare-and-swap on a word of its own (the solo lane), which RLock
// and RUnlock inline, as sync.RWMutex's add: a lock read by one goroutine
// at a time costs what sync.RWMutex does, with no call. The first reader
// that finds another inside closes the lane for good. From then on
// readers count themselves in, and out, on counters that only grow, each
// P's pair on a cache line of its own (Linux's percpu-rwsem and SRCU), so
// a reader writes only its P's line. A reader that migrates between RLock
// and RUnlock counts in on one P and out on another; a writer sums every
// P's counts out first and then every P's counts in (and the lane's
// reader), and only equal sums mean no reader is inside.
//
// A spread reader must stay on its P while it writes the P's line. In Go
// that takes the runtime's pin (procPin and procUnpin, two calls per
// side). Where the build has the pinless read path (linux/amd64 with Go
// 1.26 or 1.27, not -race or purego; rwread.go), RLock and RUnlock call
// generated assembly instead, which reads its P's id in the runtime's
// structures and counts on that P's line: the runtime never preempts
// assembly asynchronously, so the goroutine keeps its P until the count
// is made. It checks the id against the pin's at init, and every case but
// the count itself goes on in Go.
//
// A reader must make its count in visible before it checks for a writer,
// and a writer its flag before it reads the counts: each needs a full
// fence.
// Where hal's heavy fence can reach every running thread of the process
// (hal.FenceHeavy's membarrier variant: Linux, registered at init, refused
// by some sandboxes and seccomp profiles; see hal.Selected), the lock is biased
// toward readers (BRAVO, Dice and Kogan, USENIX ATC 2019): a reader's
// fence is only a compiler barrier, and the writer that revokes the bias
// pays the heavy fence, a system call that interrupts every CPU running
// the process. After a revocation readers pay a locked instruction to
// count in, on their own line, until no write has come for 30 times the
// revocation's duration, so a mix with writes every few revocations' time
// or more often runs without heavy fences; a reader turns the bias back
// on after that. Counting out needs no fence there,
// biased or not: a writer that finds readers still inside pays one heavy
// fence before it parks, after which it sees each one's count out or that
// reader sees its flag and wakes it. Elsewhere (other systems, -race
// builds) readers on per-P lines always pay the locked instruction, both
// ways, still on a line of their own.
//
// # When to use it
//
// For read-mostly data read by goroutines on many Ps at once: a
// sync.RWMutex's readers all write one word, so they pull its line from
// core to core, and its cost grows with the readers. Where readers seldom
// overlap (one core, or short critical sections read by one goroutine at
// a time) this lock stays on its solo lane, and with frequent writes it
// gives up its reader bias: in both it costs about what sync.RWMutex
// does, so sync.RWMutex, smaller (24 bytes on 64-bit platforms) and with
// no per-P lines, is the simpler choice there. Run
// `halbench -filter '^RWLock/'` for the figures on your machine.
//
// Builds where a reader could find its line only with a system call
// (hal.CPU's syscall or portable variant in the fallback build: every
// purego build, and gohal_nolinkname builds on GOARCHes with no user-mode
// CPU number) never spread: readers count on the lock's own counters,
// one shared line, as sync.RWMutex's do, through more code, so
// sync.RWMutex is the better choice in those builds.
//
// # Writers
//
// Writers exclude each other with a sync.Mutex and park there. A reader
// that finds a writer spins about a microsecond for it to leave, as most
// writes are shorter than a park and a wake-up; then it waits on the same
// mutex, so readers and writers take turns with sync.Mutex's fairness. A
// writer waits only for the readers that were inside when it raised its
// flag: later readers see the flag and step back. It spins briefly for
// them (past about a microsecond only while sync.Mutex would spin, and
// where spinning cannot pay it yields its P for as long), and then pays a
// heavy fence (see Design) and parks until the last of those readers
// wakes it. The first write after a read-only stretch (a revocation)
// costs one heavy fence, about a system call that interrupts every CPU
// running the program.
//
// # Memory
//
// A lock takes 64 bytes on 64-bit platforms (48 on 32-bit). The first time
// a reader finds another inside it allocates one cache line per P, since a
// reader's counts must sit on a line that no other P writes, and a table
// of pointers to them: 1,176 bytes with 16 Ps on amd64 (16 lines of 64
// bytes, 128 bytes of pointers, a 24-byte slice header; 2,200 on arm64,
// whose lines are 128 bytes); in the fallback
// build, one line per CPU instead of per P. The first writer that has to
// wait for readers allocates a channel: 120 bytes on amd64.
// TestRWMutexMemory computes both figures. A map sharded into many locks
// that are each read by one goroutine at a time never allocates either.
// If GOMAXPROCS grows, the lines grow with it; they are not freed while
// the lock lives.
//
// An unlocked lock that has been used need not be == to, nor
// reflect.DeepEqual with, a zero RWMutex (a sync.RWMutex is): once its
// readers have overlapped or a writer has used the state word, its
// counters and generation only grow, and its lines, channel and bias
// stay. Compare locks by their behaviour, not their bits; a used lock
// works as a fresh one does for every method.
//
// # Pinned callers
//
// A goroutine that holds a [Pin] cannot park. Its RLock, RUnlock, Lock and
// Unlock never park or yield: where they would wait, they spin, and a wait
// that lasts over a second panics naming the rule (the lock must then be
// held only by pinned goroutines, for short critical sections, as for the
// kit's spin locks), after releasing the goroutine's Pins so that the
// panic can be recovered.
//
// # Misuse
//
// Unlock of a lock that is not write-locked panics with "percpu: Unlock of
// unlocked RWMutex". RUnlock without RLock panics with "percpu: RUnlock of
// unlocked RWMutex" where it can tell at once (the solo lane is open: that
// RUnlock, or the lane reader's, finds no reader to count out); otherwise
// the next Lock finds more RUnlocks than RLocks, repairs the counts,
// releases the lock and panics with that message. The lock is usable after
// the panic is recovered.
type RWMutex struct {
	state hal.Uint64 // gen*rwGen | rwBiased | rwWriter

	// locks and unlocks count readers in and out on the lock itself:
	// every reader until readers overlap, and the readers of the slow
	// path. They only grow, and are updated atomically.
	locks, unlocks uintptr

	cells pin.Table[rwCell]             // per-P counts, made when readers first overlap
	wake  atomic.Pointer[chan struct{}] // a waiting writer's wake-up, made by the first writer that waits
	w     sync.Mutex                    // writers exclude each other here
	until atomic.Int32                  // the tick before which readers keep the bias off (ticks, inhibited)
	seen  atomic.Uint32                 // the state's generation, truncated, when readers last looked (tryBias)

	// solo is the lane of a reader that finds the lock idle: soloIn,
	// soloWriter and soloClosed. RLock and RUnlock inline to a
	// compare-and-swap on it and no call.
	solo uint32

	// slowSeen is locks, truncated, when the last writer that waited for
	// readers read it (waitReaders): written and read only under w.
	slowSeen uint32
}

// rwCell is one P's reader counts for one RWMutex, on a cache line of its
// own: written only by goroutines pinned to that P.
type rwCell struct {
	rwCounts
	_ [cacheline.Size - unsafe.Sizeof(rwCounts{})%cacheline.Size]byte
}

// rwCounts are the counts a reader adds to on its P: RLocks and RUnlocks,
// each only growing (wrapping), so that their difference is the readers
// inside whichever P they left from.
type rwCounts struct {
	locks, unlocks uintptr
}

// The state word.
const (
	rwWriter = 1 << 0 // a writer holds the lock or waits for readers to leave
	rwBiased = 1 << 1 // per-P readers fence with FenceLight; a writer revokes with FenceHeavy
	rwGen    = 1 << 2 // one revocation or write: a reader that read an older state backs out
)

// The solo word. While the lane is open a reader that finds the word 0
// takes the lock by setting soloIn, and a writer raises soloWriter there
// instead of rwWriter in the state. The first reader that finds another
// inside closes the lane for good and spreads; from then on readers use
// the state word and the per-P counts, and the word only says whether a
// reader that came through the lane before it closed is still inside.
//
// Readers are not told apart: any RUnlock that finds soloIn set may clear
// it, whichever way its RLock came in, and its counts in stay for the
// reader that came through the lane to count out on. A writer adds soloIn
// to the counts in (readersGone), so the sums hold either way.
const (
	soloIn     = 1 << 0 // a reader is inside through the lane
	soloWriter = 1 << 1 // a writer holds the lock or waits for readers, while the lane is open
	soloClosed = 1 << 2 // readers have overlapped: the lane is closed for good
)

// RLock locks rw for reading. It must not be used for recursive read
// locking: a blocked Lock call excludes new readers, as for sync.RWMutex.
func (rw *RWMutex) RLock() {
	// The lane's fast path, small enough to inline: an idle lock is
	// taken with one compare-and-swap, what sync.RWMutex's add costs.
	if atomic.LoadUint32(&rw.solo) != 0 || !atomic.CompareAndSwapUint32(&rw.solo, 0, soloIn) {
		rwRLock(rw) // the pinless read path, or rlock (rwread.go)
	}
}

// TryRLock tries to lock rw for reading and reports whether it succeeded.
// It fails when a writer holds the lock or waits for it.
func (rw *RWMutex) TryRLock() bool {
	if atomic.LoadUint32(&rw.solo) == 0 && atomic.CompareAndSwapUint32(&rw.solo, 0, soloIn) {
		return true // the lane, as in RLock
	}
	if rw.rlock(true) {
		return true
	}
	if !rw.w.TryLock() {
		return false
	}
	atomic.AddUintptr(&rw.locks, 1) // no writer can start while we hold w
	rw.w.Unlock()
	return true
}

// rlock counts the caller in unless a writer holds or wants the lock, and
// reports whether it did; a reader that sees the state change after
// counting in counts out again. Where it does not count in, it returns
// false if try is set and else waits (rlockSlow). RLock calls it off the
// solo lane. The per-P path is written out here, and every other case is
// a call away (rlockNoLine): this is the one call a spread reader pays
// besides the pin's, and it reads nothing it does not need.
func (rw *RWMutex) rlock(try bool) bool {
	// The lines are loaded before the pin, so that a lock with none pays
	// no pin (a system call in some fallback builds). Lines, once made,
	// stay: a table loaded earlier holds the same ones, or fewer.
	cs := rw.cells.Load()
	if cs == nil {
		return rw.rlockNoLine(try)
	}
	id := pin.ProcPin()
	if uint(id) < uint(len(cs)) {
		// The lines exist, so the lane is closed: spread closes it
		// before it makes them.
		s := rw.state.Load()
		if s&rwWriter != 0 {
			pin.ProcUnpin()
			return rw.rlockFailed(try)
		}
		c := cs[id]
		light := pin.Pinned && s&rwBiased != 0
		if light {
			// The revoking writer's heavy fence pairs with hal.FenceLight.
			hal.StoreReleaseUintptr(&c.locks, hal.LoadAcquireUintptr(&c.locks)+1)
			hal.FenceLight()
		} else {
			// A full fence. Without it each writer would have to
			// learn that this P's count came before its flag or
			// after the P saw the flag: a heavy fence per write (what
			// the bias's inhibition avoids), or a round trip with
			// every reader's P per write, which the writer and the
			// readers it stalls wait out on every write, and which
			// a reader's P busy elsewhere never answers.
			atomic.AddUintptr(&c.locks, 1)
		}
		if rw.state.Load() == s {
			rebias := s&rwBiased == 0 && asymmetric && hal.LoadAcquireUintptr(&c.locks)%rwRebiasEvery == 0
			pin.ProcUnpin()
			if rebias {
				rw.tryBias()
			}
			return true
		}
		countOut(c, light)
		pin.ProcUnpin()
		rw.wakeWriter()
		return rw.rlockFailed(try)
	}
	pin.ProcUnpin()
	return rw.rlockNoLine(try)
}

// rlockNoLine is rlock where the caller's P has no line: the lane is open
// (rlockOpen), or closed with the lines not made yet (rlockOwn), or
// GOMAXPROCS grew since they were made.
func (rw *RWMutex) rlockNoLine(try bool) bool {
	if atomic.LoadUint32(&rw.solo)&soloClosed == 0 {
		return rw.rlockOpen(try)
	}
	if rw.cells.Load() != nil {
		// Grow the lines for the next readers (to pin.IDs(); never
		// blocks), and count this one on the lock's own counters, which
		// a writer sums with the lines': a retry on the lines could find
		// the id out of range again if GOMAXPROCS keeps changing.
		rw.cells.Grow(0)
	}
	return rw.rlockOwn(try)
}

// rlockOwn is rlock on the lock's own counters: the lane is closed and the
// lines are not made yet (the moment between the two in spread). The add
// is a full fence, so the flag loaded after it is the only check needed.
func (rw *RWMutex) rlockOwn(try bool) bool {
	n := atomic.AddUintptr(&rw.locks, 1)
	if rw.state.Load()&rwWriter == 0 {
		if n-atomic.LoadUintptr(&rw.unlocks) > 1 && slotsPay {
			// Another reader is inside: readers overlap on this
			// word, so spread the next ones over per-P lines.
			rw.spread()
		}
		return true
	}
	atomic.AddUintptr(&rw.unlocks, 1)
	rw.wakeWriter()
	return rw.rlockFailed(try)
}

// rlockOpen is rlock while the solo lane is open: it takes the lane if the
// lock is idle, fails (rlockFailed) if a writer holds it, and closes the
// lane and spreads if another reader is inside.
func (rw *RWMutex) rlockOpen(try bool) bool {
	for {
		v := atomic.LoadUint32(&rw.solo)
		switch {
		case v&soloClosed != 0:
			return rw.rlock(try)
		case v == 0:
			if atomic.CompareAndSwapUint32(&rw.solo, 0, soloIn) {
				return true
			}
		case v&soloWriter != 0:
			return rw.rlockFailed(try)
		default: // soloIn: another reader is inside, so readers overlap
			if !slotsPay {
				// Two system calls a read would cost far more than
				// the shared line spreading avoids: count in on the
				// lock's own counters, as sync.RWMutex's readers do.
				rw.closeLane()
				continue
			}
			if rw.spread() != nil {
				return rw.rlock(try)
			}
		}
	}
}

// rlockFailed ends an rlock that did not count the caller in: false for
// a try, else the slow path, which counts it in.
func (rw *RWMutex) rlockFailed(try bool) bool {
	if try {
		return false
	}
	rw.rlockSlow()
	return true
}

// countOut counts a reader out on P cell c, light as its count in was.
func countOut(c *rwCell, light bool) {
	if light {
		hal.StoreReleaseUintptr(&c.unlocks, hal.LoadAcquireUintptr(&c.unlocks)+1)
		hal.FenceLight()
		return
	}
	atomic.AddUintptr(&c.unlocks, 1)
}

// rlockSlow waits for the writer that made rlock fail. It spins for the
// writer to leave (awaitWriter), as most writes are short, and counts in
// as rlock does; failing that, it counts the caller in while holding the
// writers' mutex, so that no writer can start before the count is visible
// and a reader is never overtaken for good.
func (rw *RWMutex) rlockSlow() {
	if pin.Held() {
		var clk pinnedClock
		for !rw.rlock(true) {
			if rw.w.TryLock() {
				atomic.AddUintptr(&rw.locks, 1)
				rw.w.Unlock()
				return
			}
			if clk.pause() {
				rwPanic(pinnedWaitMessage)
			}
		}
		return
	}
	if rw.awaitWriter() && rw.rlock(true) {
		return
	}
	rw.w.Lock()
	atomic.AddUintptr(&rw.locks, 1)
	rw.w.Unlock()
}

// awaitWriter spins while a writer's flag is up, for at most
// rwShortWait, and reports whether the flag went down.
func (rw *RWMutex) awaitWriter() bool {
	var until int64
	for i := 0; rw.writerFlag(); i++ {
		if i%8 == 0 {
			now := monotonic()
			if until == 0 {
				until = now + rwShortWait
			} else if now > until {
				return false
			}
		}
		spinPause()
	}
	return true
}

// RUnlock undoes a single RLock call; it may run on another goroutine or P
// than the RLock. RUnlock without RLock panics (see Misuse in the type's
// documentation).
func (rw *RWMutex) RUnlock() {
	if atomic.LoadUint32(&rw.solo) != soloIn || !atomic.CompareAndSwapUint32(&rw.solo, soloIn, 0) {
		rwRUnlock(rw) // the pinless read path, or runlock (rwread.go)
	}
}

// runlock is RUnlock off the lane's fast path: it clears soloIn if set
// (see the solo word), else counts out on the current P's line or, before
// the lines are made, on the lock's own counters (runlockNoLine). The
// per-P path is written out here, as in rlock, so that it costs one call.
//
// On a P's line the count out is a release store and FenceLight, whatever
// the state: a writer that waits for this reader sees it, or heavy-fences
// before it parks, after which this reader's load of the flag sees it.
func (rw *RWMutex) runlock() {
	if atomic.LoadUint32(&rw.solo)&soloIn != 0 {
		rw.runlockSolo()
		return
	}
	cs := rw.cells.Load() // before the pin, as in rlock
	if cs == nil {
		rw.runlockNoLine()
		return
	}
	id := pin.ProcPin()
	if uint(id) < uint(len(cs)) {
		c := cs[id]
		if pin.Pinned {
			// Biased or not: a writer heavy-fences before it parks
			// for a reader (waitReaders).
			hal.StoreReleaseUintptr(&c.unlocks, hal.LoadAcquireUintptr(&c.unlocks)+1)
			hal.FenceLight()
		} else {
			atomic.AddUintptr(&c.unlocks, 1)
		}
		pin.ProcUnpin()
		// As in wakeWriter; the lines exist, so the lane is closed and
		// a writer's flag can only be in the state word (raise).
		if rw.state.Load()&rwWriter != 0 {
			rw.signalWriter()
		}
		return
	}
	pin.ProcUnpin()
	rw.runlockNoLine()
}

// runlockNoLine is runlock where the caller's P has no line: the lines
// are not made yet (runlockOwn), or GOMAXPROCS grew since they were.
func (rw *RWMutex) runlockNoLine() {
	if rw.cells.Load() == nil {
		rw.runlockOwn()
		return
	}
	// As in rlockNoLine: grow the lines, and count out on the lock's own
	// counters (a full fence), not retrying on the lines. Its RLock may
	// have counted in on a line, so the own counters alone prove no
	// misuse here; the next writer's sums do (readersGone).
	rw.cells.Grow(0)
	atomic.AddUintptr(&rw.unlocks, 1)
	rw.wakeWriter()
}

// runlockSolo clears soloIn (see the solo word), or counts out as runlock
// does if another RUnlock clears it first.
func (rw *RWMutex) runlockSolo() {
	for v := atomic.LoadUint32(&rw.solo); v&soloIn != 0; v = atomic.LoadUint32(&rw.solo) {
		if atomic.CompareAndSwapUint32(&rw.solo, v, v&^soloIn) {
			// The compare-and-swap is a full fence, so either the
			// writer's sum sees soloIn clear or this sees its flag.
			if v&soloWriter != 0 || rw.state.Load()&rwWriter != 0 {
				rw.signalWriter()
			}
			return
		}
	}
	rw.runlock()
}

// runlockOwn is RUnlock on the lock's own counters, before the lines are
// made. Every count so far is on the lock itself (cells, once made,
// stay), so this RUnlock's RLock counted in here, or through the lane,
// whose reader then counts out here for the RUnlock that cleared soloIn.
func (rw *RWMutex) runlockOwn() {
	if u := atomic.AddUintptr(&rw.unlocks, 1); int(u-atomic.LoadUintptr(&rw.locks)) > 0 || rw.writerFlag() {
		rw.runlockCheck(u)
	}
}

// runlockCheck ends an RUnlock on the lock's own counters that found more
// outs than ins (u of them), an RUnlock without RLock, or a writer's flag.
func (rw *RWMutex) runlockCheck(u uintptr) {
	if int(u-atomic.LoadUintptr(&rw.locks)) > 0 {
		atomic.AddUintptr(&rw.unlocks, ^uintptr(0))
		rwPanic("percpu: RUnlock of unlocked RWMutex")
	}
	rw.wakeWriter()
}

// wakeWriter wakes the writer, if one waits for readers to leave. The
// caller has just counted out with a full fence, or with FenceLight,
// for which a writer heavy-fences before it parks (waitReaders): so either
// the writer's sum sees the count or this load sees its flag. The send
// never blocks, so a pinned reader may make it.
func (rw *RWMutex) wakeWriter() {
	if rw.writerFlag() {
		rw.signalWriter()
	}
}

// writerFlag reports whether a writer holds the lock or waits for
// readers: its flag in the state word, or in the solo word while the lane
// is open.
func (rw *RWMutex) writerFlag() bool {
	return rw.state.Load()&rwWriter != 0 || atomic.LoadUint32(&rw.solo)&soloWriter != 0
}

// signalWriter wakes a writer parked in waitReaders, if there is one; a
// wake-up that finds none stays pending, and a writer that wakes for
// nothing sums the counts again.
//
// It fences first. A reader that counted out with hal.FenceLight may
// still hold its count in its CPU's store buffer, and a send that finds a
// wake-up pending returns without a locked instruction: the writer could
// then take that wake-up, sum without this reader's count out, and park
// for good. After the fence the count is visible before the send finds
// the wake-up pending, so the writer's sum after taking it sees the count.
func (rw *RWMutex) signalWriter() {
	hal.Fence()
	if ch := rw.wake.Load(); ch != nil {
		select {
		case *ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// Lock locks rw for writing. If the lock is already locked for reading or
// writing, Lock blocks until it is available; readers that arrive while it
// waits wait for it.
func (rw *RWMutex) Lock() {
	queued := !rw.w.TryLock()
	if queued {
		rw.lockWriters()
	}
	rw.raise()
	if err := rw.waitReaders(queued); err != "" {
		rw.release()
		rwPanic(err)
	}
}

// lockWriters locks w when TryLock failed: parking, or spinning for a
// pinned caller.
func (rw *RWMutex) lockWriters() {
	if !pin.Held() {
		rw.w.Lock()
		return
	}
	var clk pinnedClock
	for !rw.w.TryLock() {
		if clk.pause() {
			rwPanic(pinnedWaitMessage)
		}
	}
}

// TryLock tries to lock rw for writing and reports whether it succeeded.
// Where the lock is biased toward readers, a TryLock that finds readers
// still revokes the bias.
func (rw *RWMutex) TryLock() bool {
	if !rw.w.TryLock() {
		return false
	}
	rw.raise()
	gone, err := rw.readersGone()
	if err != "" {
		rw.release()
		rwPanic(err)
	}
	if !gone {
		rw.release() // readers that stepped back wait on w: they go on now
		return false
	}
	return true
}

// raise sets the writer flag; the caller holds w. If the lock was biased
// toward readers it revokes the bias: a new generation, the flag and no
// bias in one store, then the heavy fence that pairs with the readers'
// light ones. It records when readers may turn the bias back on.
func (rw *RWMutex) raise() {
	// While the lane is open no reader uses the state word or the per-P
	// lines, so the flag goes in the solo word, where a reader's
	// compare-and-swap finds it; a lane that closes first sends the
	// writer to the state word.
	for v := atomic.LoadUint32(&rw.solo); v&soloClosed == 0; v = atomic.LoadUint32(&rw.solo) {
		if atomic.CompareAndSwapUint32(&rw.solo, v, v|soloWriter) {
			return
		}
	}
	s := rw.state.Load()
	for {
		ns := s | rwWriter
		if s&rwBiased != 0 {
			ns = (s+rwGen)&^rwBiased | rwWriter
		}
		if rw.state.CompareAndSwap(s, ns) {
			break
		}
		s = rw.state.Load() // a reader turned the bias on
	}
	if s&rwBiased != 0 {
		t0 := monotonic()
		hal.FenceHeavy()
		d := monotonic() - t0
		revocation.Store(d)
		rw.until.Store(ticks(t0 + inhibition()))
	}
}

// release clears the writer flag and unlocks w.
func (rw *RWMutex) release() {
	if v := atomic.LoadUint32(&rw.solo); v&soloWriter != 0 {
		// With soloIn clear nobody else can write the word while the
		// flag is up; with it set (a TryLock that failed) its reader
		// may clear it at any time.
		for v != soloWriter && !atomic.CompareAndSwapUint32(&rw.solo, v, v&^soloWriter) {
			v = atomic.LoadUint32(&rw.solo)
		}
		if v == soloWriter {
			hal.StoreReleaseUint32(&rw.solo, 0)
		}
		rw.w.Unlock()
		return
	}
	// Nobody else writes the state while the flag is up; readers need
	// only see what the writer did before it. The new generation tells
	// tryBias that a write was made, and a reader that read the state
	// before the flag went up and reads it again after the release that
	// the state changed.
	rw.state.StoreRelease(rw.state.Load()&^rwWriter + rwGen)
	rw.w.Unlock()
}

// Unlock unlocks rw for writing. Unlock of a lock that is not write-locked
// panics. As with sync.RWMutex, a locked RWMutex is not associated with a
// goroutine: one may Lock it and another Unlock it.
func (rw *RWMutex) Unlock() {
	if !rw.writerFlag() {
		rwPanic("percpu: Unlock of unlocked RWMutex")
	}
	rw.release()
}

// RLocker returns a [sync.Locker] whose Lock and Unlock call rw.RLock and
// rw.RUnlock.
func (rw *RWMutex) RLocker() sync.Locker { return (*rlocker)(rw) }

type rlocker RWMutex

func (r *rlocker) Lock()   { (*RWMutex)(r).RLock() }
func (r *rlocker) Unlock() { (*RWMutex)(r).RUnlock() }

// spread closes the solo lane, makes the per-P cells and, where the heavy
// fence is asymmetric and no revocation is recent, biases the lock toward
// readers. It returns nil, and changes nothing, if a writer holds the lock
// through the open lane (its readers must keep failing on the solo word).
// Readers call it only where slotsPay.
func (rw *RWMutex) spread() []*rwCell {
	if !rw.closeLane() {
		return nil
	}
	cs := rw.cells.Grow(0)
	if asymmetric {
		rw.tryBias()
	}
	return cs
}

// closeLane closes the solo lane for good, and reports whether it is
// closed: false if a writer holds the lock through the open lane.
func (rw *RWMutex) closeLane() bool {
	for v := atomic.LoadUint32(&rw.solo); v&soloClosed == 0; v = atomic.LoadUint32(&rw.solo) {
		if v&soloWriter != 0 {
			return false
		}
		if atomic.CompareAndSwapUint32(&rw.solo, v, v|soloClosed) {
			break
		}
	}
	return true
}

// tryBias turns the bias on unless a writer is there or writes are
// recent: it waits for a stretch with no write that lasts inhibition(),
// first from the revocation itself (raise) and then from the first look
// after each write (each makes a new generation, release), so that a
// lock written often stays unbiased and its writes pay no heavy fence.
// Turning the bias on needs no fence: a reader that still sees the old
// state fences fully, and the next writer revokes with a heavy fence.
func (rw *RWMutex) tryBias() {
	now := monotonic()
	if inhibited(rw.until.Load(), ticks(now)) {
		return
	}
	s := rw.state.Load()
	if g := uint32(s / rwGen); g != rw.seen.Load() {
		rw.seen.Store(g)
		rw.until.Store(ticks(now + inhibition()))
		return
	}
	if s&(rwWriter|rwBiased) == 0 {
		rw.state.CompareAndSwap(s, s|rwBiased)
	}
}

// revocation is how long (ns) the last revocation's heavy fence took, in
// any lock: its cost is the machine's and the program's (the CPUs it runs
// on), not one lock's.
var revocation atomic.Int64

// inhibition is how long (ns) readers keep the bias off after a
// revocation or a write: rwInhibitFactor revocations, at most
// rwInhibitMax.
func inhibition() int64 {
	return min(revocation.Load()*rwInhibitFactor, rwInhibitMax)
}

// ticks is monotonic time t (ns) in units of 1<<rwTickShift ns, wrapping
// in an int32 (every 36 minutes), as RWMutex's until holds it.
func ticks(t int64) int32 { return int32(t >> rwTickShift) }

// inhibited reports whether now is before until, both ticks: until is
// ahead of now by no more than the longest inhibition (an until ahead by
// more was set over a wrap ago and has passed).
func inhibited(until, now int32) bool {
	d := until - now // wraps
	return d > 0 && int64(d) <= rwInhibitMax>>rwTickShift+1
}

// readersGone reports whether no reader is inside: the sum of the counts
// out, read first, equals the sum of the counts in. Every count out it
// sees has its count in before it, so the sums are equal only when every
// reader counted in has counted out. More outs than ins can only come from
// an RUnlock without RLock: readersGone then adds the difference to the
// counts in and returns the panic message.
func (rw *RWMutex) readersGone() (bool, string) {
	cs := rw.cells.Load()
	out := atomic.LoadUintptr(&rw.unlocks)
	for _, c := range cs {
		out += atomic.LoadUintptr(&c.unlocks)
	}
	// A reader that clears soloIn leaves its counts in behind, for the
	// reader that came through the lane: reading the word between the
	// sums keeps every reader inside in one of them (see the solo word).
	in := uintptr(atomic.LoadUint32(&rw.solo) & soloIn)
	in += atomic.LoadUintptr(&rw.locks)
	for _, c := range cs {
		in += atomic.LoadUintptr(&c.locks)
	}
	if d := int(out - in); d > 0 {
		atomic.AddUintptr(&rw.locks, uintptr(d))
		return false, "percpu: RUnlock of unlocked RWMutex (found by Lock: more RUnlocks than RLocks)"
	}
	return in == out, ""
}

// waitReaders waits until the readers that were inside when the writer
// flag went up have left: it spins for rwWriterSpin (past rwShortWait,
// or at once if queued says the writer had to queue for w, yielding its
// P instead where spinning cannot pay), then parks until a leaving reader
// wakes it (a pinned writer keeps spinning). It returns a misuse message,
// or "".
func (rw *RWMutex) waitReaders(queued bool) string {
	if gone, err := rw.readersGone(); gone || err != "" {
		return err
	}
	pinned := pin.Held()
	var clk pinnedClock
	// A reader that came through the slow path counts in on locks, under
	// w, and may still be in w's Unlock, waking the next waiter, or have
	// handed its P to it: a writer that sees locks changed since the last
	// writer looked, as one that queued, spins only where CanSpin says.
	slow := uint32(atomic.LoadUintptr(&rw.locks))
	spinFirst := !queued && slow == rw.slowSeen
	rw.slowSeen = slow
	start := monotonic()
	for {
		if gone, err := rw.readersGone(); gone || err != "" {
			return err
		}
		now := monotonic()
		switch {
		case pinned:
			if clk.pause() {
				return pinnedWaitMessage
			}
			continue
		case spinFirst && now < start+rwShortWait || now < start+rwWriterSpin && pin.CanSpin():
			spinPause()
			continue
		case now < start+rwWriterSpin:
			// Another goroutine waits for this P, and may be the
			// reader: let it run rather than park, which costs the
			// heavy fence below and a wake-up.
			runtime.Gosched()
			continue
		}
		break
	}
	ch := rw.wake.Load()
	if ch == nil {
		c := make(chan struct{}, 1)
		ch = &c
		rw.wake.Store(ch) // only writers store it, under w
	}
	// A reader counts out with hal.FenceLight (runlock), then loads the
	// flag and the channel: its count may still sit in its CPU's store
	// buffer when that load misses the flag. The heavy fence makes every
	// count out made before it visible to the sums below, and a reader
	// that counts out after it finds the flag and the channel, so either
	// the loop sees a reader's count or that reader wakes it (a reader
	// that fenced fully is a case of both). With the portable pair,
	// FenceLight is a full fence and this one the writer's own.
	hal.FenceHeavy()
	for {
		if gone, err := rw.readersGone(); gone || err != "" {
			return err
		}
		<-*ch
	}
}
