package percpu

import (
	"sync"
	"sync/atomic"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
)

// RWMutex is a reader/writer mutual exclusion lock whose readers, once
// readers on many Ps overlap, write no shared cache line.
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
// At first readers count themselves in and out with one atomic add each
// way on a word of their own (the solo lane), which RLock and RUnlock
// inline, as sync.RWMutex's readers do on its word: a lock read by one
// goroutine at a time, or taken again by a reader inside its own RLock,
// costs what sync.RWMutex does, with no call. Readers that find others
// inside add to an overlap score that each write halves; once it reaches
// a threshold, readers on many Ps overlapping more often than about half
// that per write, a reader closes the lane for good. The threshold is low
// where a read on the per-P lines costs less than one on the lane, and
// high where it costs more, as timed once per process (laneCloseAt). From then on
// readers count themselves in, and out, on counters that only grow, each
// P's pair on a cache line of its own (Linux's percpu-rwsem and SRCU), so
// a reader writes only its P's line. A reader that migrates between RLock
// and RUnlock counts in on one P and out on another; a writer sums every
// P's counts out first and then every P's counts in (and the lane's), and
// only equal sums mean no reader is inside.
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
// or more often revokes nothing; a reader turns the bias back on after
// that. Counting out needs no fence there, biased or not: a writer that
// finds readers still inside after spinning pays one heavy fence before
// it parks, after which it sees each one's count out or that reader sees
// its flag and wakes it. Elsewhere (other systems, -race builds) readers
// on per-P lines pay the locked instruction, both ways, still on a line
// of their own.
//
// # When to use it
//
// For read-mostly data read by goroutines on many Ps at once: a
// sync.RWMutex's readers all write one word, so they pull its line from
// core to core, and its cost grows with the readers. Where readers seldom
// overlap (one core, or short critical sections read by one goroutine at
// a time), or overlap a few hundred times per write at most, this lock
// stays on its solo lane, whose readers count as sync.RWMutex's do and
// park when they find a writer, and costs about what sync.RWMutex does. Once spread, a read costs a lookup of its P's line,
// which some machines make dearer than the locked add it saves where the
// line is not contended; with frequent writes the lock gives up its
// reader bias, yet each write still sums every P's counts. So with
// frequent writes it can cost more. There
// sync.RWMutex, smaller (24 bytes on 64-bit platforms) and with no per-P
// lines, is the choice. halbench's read-mostly row says where the answer
// turns on your machine; `halbench -filter '^RWLock/'` gives the figures.
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
// writes are shorter than a park and a wake-up (only while spinning can
// pay, as for sync.Mutex's waiters: not while goroutines wait for its P,
// the writer perhaps among them; nor, for a while, on a P whose readers
// have spent about a tenth of its time or more so, where the writes' cache
// line transfers make taking turns cheaper); then it parks, and the
// writer, as it releases the lock and before the next writer can take it,
// counts every parked reader in and wakes them together: readers that
// waited during a write go in before the next writer, as sync.RWMutex's
// do (its readerWait) and as Linux's percpu-rwsem wakes blocked readers.
// Until they run, a reader that finds the next writer may take one's
// place, as sync.RWMutex's semaphore lets a running reader take the token
// released for a woken one: running readers go on without a context
// switch, and the one whose place was taken parks for the next writer.
// A writer waits only for the readers that were inside when it raised its
// flag, those it admitted among them: later readers see the flag and step
// back, so writers are not starved either. It spins briefly for them
// (past about a microsecond only while sync.Mutex would spin, and where
// spinning cannot pay it yields its P for as long), and then parks until
// the last of those readers wakes it. The first write after a read-only
// stretch (a revocation), and a write that parks for readers, costs one
// heavy fence, about a system call that interrupts every CPU running the
// program.
//
// # Memory
//
// A lock takes 64 bytes on 64-bit platforms (48 on 32-bit). The first time
// a reader finds another inside it allocates one cache line per P, since a
// reader's counts must sit on a line that no other P writes, and a table
// of pointers to them: 1,176 bytes with 16 Ps on amd64 (16 lines of 64
// bytes, 128 bytes of pointers, a 24-byte slice header; 2,200 on arm64,
// whose lines are 128 bytes); in the fallback build, one line per CPU
// instead of per P. The first writer that has to wait for readers, or
// reader that has to park, allocates where they wait (rwWaits and its
// wake-up channel: 208 bytes on amd64); readers that park allocate
// nothing more.
// TestRWMutexMemory computes these figures. A map sharded into many locks
// that are each read by one goroutine at a time never allocates either. If GOMAXPROCS grows,
// the lines grow with it; they are not freed while the lock lives.
//
// An unlocked lock that has been used need not be == to, nor
// reflect.DeepEqual with, a zero RWMutex (a sync.RWMutex is): once its
// lane has closed, its
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
// unlocked RWMutex" where it can tell at once (the solo lane is open and
// its count would go below zero, in this RUnlock or in the next one);
// otherwise the next Lock finds more RUnlocks than RLocks, repairs the
// counts, releases the lock and panics with that message. The lock is usable after
// the panic is recovered.
type RWMutex struct {
	// solo is where readers count themselves until readers on many Ps
	// overlap (the solo word, rwmutex_solo.go). It comes first: at
	// offset 0 RLock and RUnlock fit the inliner's budget
	// (TestRWMutexReadPathsInline).
	solo uint32

	// parked is how many readers wait, parked, for the writer whose
	// flag they saw to admit them (parkReader, admitReaders). It changes
	// only under waits.mu; a releasing writer reads it without the mutex.
	parked int32

	state hal.Uint64 // gen*rwGen | rwBiased | rwWriter

	// locks and unlocks count readers in and out on the lock itself:
	// every reader until readers overlap, and the readers of the slow
	// path. They only grow, and are updated atomically.
	locks, unlocks uintptr

	cells pin.Table[rwCell]       // per-P counts, made when readers first overlap
	waits atomic.Pointer[rwWaits] // where writers and readers park, made by the first that waits
	w     sync.Mutex              // writers exclude each other here
	until atomic.Int32            // the tick before which readers keep the bias off (ticks, inhibited)

	// tally is what readers keep a count of, by a plain load and store
	// (hal's acquire and release), with no locked instruction: while the
	// lane is open, its overlap score (laneOverlap; the writer halves it
	// in releaseSolo); once it is closed, the state's generation,
	// truncated, when readers last looked (tryBias). One word serves both,
	// so that a lock stays 64 bytes: the close sets the generation, and a
	// lane reader's late store only makes tryBias wait for another
	// stretch with no write.
	tally uint32
}

// The state word.
const (
	rwWriter = 1 << 0 // a writer holds the lock or waits for readers to leave
	rwBiased = 1 << 1 // per-P readers fence with FenceLight; a writer revokes with FenceHeavy
	rwGen    = 1 << 2 // one revocation or write: a reader that read an older state backs out
)

// RLock locks rw for reading. It must not be used for recursive read
// locking: a blocked Lock call excludes new readers, as for sync.RWMutex.
func (rw *RWMutex) RLock() {
	// [R-lane] The lane's fast path: one atomic add, as sync.RWMutex's
	// reader makes, inlined; r < 2*soloReader after it says the caller
	// is alone and unhindered. A closed lane (v >= soloClosed) is not
	// added to: readers there count on their P's line.
	if v := atomic.LoadUint32(&rw.solo); v >= soloClosed || atomic.AddUint32(&rw.solo, soloReader) >= 2*soloReader {
		rwRLock(rw, v) // rlockLane, or the per-P path (rwread.go)
	}
}

// TryRLock tries to lock rw for reading and reports whether it succeeded.
// It fails when a writer holds the lock or waits for it.
func (rw *RWMutex) TryRLock() bool {
	if rw.rlock(true) {
		return true
	}
	if !rw.w.TryLock() {
		return false
	}
	rw.countInUnderW(1) // no writer can start while we hold w
	rw.w.Unlock()
	return true
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

// RUnlock undoes a single RLock call; it may run on another goroutine or P
// than the RLock. RUnlock without RLock panics (see Misuse in the type's
// documentation).
func (rw *RWMutex) RUnlock() {
	// [U-lane] On an open lane every reader inside is counted on the
	// word (see the solo word): one atomic add out, as sync.RWMutex's. A
	// writer's flag after it, the lane closed meanwhile, or a count out
	// of an empty word leave r >= soloWriter.
	if v := atomic.LoadUint32(&rw.solo); v >= soloClosed || atomic.AddUint32(&rw.solo, soloLeave) >= soloWriter {
		rwRUnlock(rw, v) // runlockLane, or the per-P path (rwread.go)
	}
}

// writerFlag reports whether a writer holds the lock or waits for
// readers: its flag in the state word, or in the solo word while the lane
// is open.
func (rw *RWMutex) writerFlag() bool {
	return rw.state.Load()&rwWriter != 0 || atomic.LoadUint32(&rw.solo)&soloWriter != 0
}

// Lock locks rw for writing. If the lock is already locked for reading or
// writing, Lock blocks until it is available; readers that arrive while it
// waits wait for it.
func (rw *RWMutex) Lock() {
	// [W-lock]
	queued := !rw.w.TryLock()
	if queued {
		rw.lockWriters()
	}
	if queued || !rw.raiseIdle() {
		rw.raise()
	} else if rw.idleGone() {
		return // raise and readersGone's steps, on the lane, with no call
	}
	if err := rw.waitReaders(queued); err != "" {
		rw.release()
		rwPanic(err)
	}
}

// raiseIdle is raise's [W-raise-solo] on a lane with no flag set and no
// reader on it, the lane's write while readers come one at a time. It
// reports whether it raised the flag; if not, raise goes on.
func (rw *RWMutex) raiseIdle() bool {
	v := atomic.LoadUint32(&rw.solo)
	return v&(soloWriter|soloClosed|soloCount) == 0 && atomic.CompareAndSwapUint32(&rw.solo, v, v|soloWriter)
}

// idleGone is readersGone after raiseIdle, with no call: the lane had no
// reader, none can take it under the flag, and a lane open at the raise
// has no per-P lines (I2 in DESIGN.md), so [W-sum-solo] would find none
// and the sums are the lock's own counters. It reports whether no reader
// is inside; if not, waitReaders goes on (and finds an RUnlock without
// RLock).
func (rw *RWMutex) idleGone() bool {
	// [W-sum-out] [W-sum-in]
	out := atomic.LoadUintptr(&rw.unlocks)
	return atomic.LoadUintptr(&rw.locks) == out
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
	// [W-raise-solo] while the lane is open
	for v := atomic.LoadUint32(&rw.solo); v&soloClosed == 0; v = atomic.LoadUint32(&rw.solo) {
		if atomic.CompareAndSwapUint32(&rw.solo, v, v|soloWriter) {
			return
		}
	}
	// [W-raise]
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
		// [W-revoke]
		hal.FenceHeavy()
		d := monotonic() - t0
		revocation.Store(d)
		rw.until.Store(ticks(t0 + inhibition()))
	}
}

// release clears the writer flag, admits the readers parked while it was
// up (admitReaders), and unlocks w. [W-release]
//
// The flag goes down with a read-modify-write, and the count of parked
// readers is read after it: see parkReader for the reader's half of that
// pair. Go's sequentially consistent Store would do by the memory model,
// but this is a store-buffering pair, and qemu-user's arm64 emulation on
// x86 hosts (where arm64 code is often tested) lets a store-release pass a
// later load-acquire (shared/NOTES.md): the writer then misses a reader
// that missed its flag, and that reader waits for good. A read-modify-write
// is a locked instruction there too. On amd64 it is the XCHG that Go's
// Store already is; elsewhere it is one locked instruction per write.
func (rw *RWMutex) release() {
	if !rw.releaseSolo() {
		// Nobody else writes the state while the flag is up; readers
		// need only see what the writer did before it. The new
		// generation tells tryBias that a write was made, and a reader
		// that read the state before the flag went up and reads it
		// again after the release that the state changed.
		// [W-release-state]
		rw.state.Swap(rw.state.Load()&^rwWriter + rwGen)
	}
	// [W-admit]
	if atomic.LoadInt32(&rw.parked) != 0 {
		rw.admitReaders()
	}
	// [W-unlock]
	rw.w.Unlock()
}

// releaseSolo lowers the writer's flag if it is in the solo word, after
// halving the lane's overlap score (a write came); it reports whether the
// flag was there. Readers that find the flag add to the word and take
// their count back, so the flag goes down by compare-and-swap; the score
// is halved before, under the flag, which keeps new lane readers from
// adding to it (after a write no reader is inside either; after a failed
// TryLock one may be, and a count it adds meanwhile may be lost).
func (rw *RWMutex) releaseSolo() bool {
	v := atomic.LoadUint32(&rw.solo)
	if v&soloWriter == 0 {
		return false
	}
	// [W-release-solo]
	rw.halveScore()
	for !atomic.CompareAndSwapUint32(&rw.solo, v, v&^soloWriter) {
		v = atomic.LoadUint32(&rw.solo) // only readers' adds, taken back, change it under the flag
	}
	return true
}

// halveScore halves the lane's overlap score, the tally.
func (rw *RWMutex) halveScore() {
	if n := hal.LoadAcquireUint32(&rw.tally); n != 0 {
		hal.StoreReleaseUint32(&rw.tally, n/2)
	}
}

// Unlock unlocks rw for writing. Unlock of a lock that is not write-locked
// panics. As with sync.RWMutex, a locked RWMutex is not associated with a
// goroutine: one may Lock it and another Unlock it.
func (rw *RWMutex) Unlock() {
	if rw.releaseSolo() {
		// release's steps on the lane.
		// [W-admit]
		if atomic.LoadInt32(&rw.parked) != 0 {
			rw.admitReaders()
		}
		// [W-unlock]
		rw.w.Unlock()
		return
	}
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

// readersGone reports whether no reader is inside: the sum of the counts
// out, read first, equals the sum of the counts in. Every count out it
// sees has its count in before it, so the sums are equal only when every
// reader counted in has counted out. More outs than ins can only come from
// an RUnlock without RLock: readersGone then adds the difference to the
// counts in and returns the panic message.
func (rw *RWMutex) readersGone() (bool, string) {
	cs := rw.cells.Load()
	// [W-sum-out]
	out := atomic.LoadUintptr(&rw.unlocks)
	for _, c := range cs {
		out += atomic.LoadUintptr(&c.unlocks)
	}
	// A reader that counts out on the word leaves its count in behind,
	// for a reader counted in on the word: reading the word between the
	// sums keeps every reader inside in one of them (see the solo word).
	// [W-sum-solo]
	in := uintptr(atomic.LoadUint32(&rw.solo)&soloCount) / soloReader
	// [W-sum-in]
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
