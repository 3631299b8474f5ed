package percpu

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/waitpolicy"
)

// RWMutex's tuning constants, each with its rule. Re-measure them with
// `go run ./cmd/halbench -filter '^RWLock/'` (every write share and thread
// count, beside sync.RWMutex and sync.Mutex) and `go run ./cmd/halbench
// peers` (beside xsync's RBMutex).
const (
	// rwInhibitFactor: after a revocation, and after every write while the
	// bias is off, readers keep the bias off until this many times the
	// last revocation's duration has passed without a write (tryBias), so
	// that revocations cost writers at most about 1/(1+rwInhibitFactor)
	// of their time. BRAVO's N is 9, and BRAVO counts from the revocation
	// only; but a revocation also interrupts every CPU that runs the
	// program, and readers that find its writer wait, so a lock written
	// every few revocations' time (0.1-1% writes) must not be biased at
	// all: counting from the last write keeps it off there (the rwlock
	// peers at w1 and w10), and costs a read-mostly lock only its readers'
	// locked adds for 30 revocations' time after its last write.
	rwInhibitFactor = 30

	// rwInhibitMax: the longest inhibition (ns), whatever a revocation
	// cost (a machine that stalls one for milliseconds): the bias comes
	// back at the latest this long after the last write.
	rwInhibitMax = int64(10 * time.Millisecond)

	// rwTickShift: RWMutex keeps the inhibition's end in an int32, in
	// ticks of 1<<rwTickShift ns (1.024 µs), which wrap every 36 minutes;
	// inhibitions are microseconds to rwInhibitMax, far shorter.
	rwTickShift = 10

	// rwRebiasEvery: a reader on a per-P line in the unbiased state looks
	// at the clock once per this many of its P's RLocks, to turn the bias
	// back on. A power of two, so the test is a mask; large enough that
	// the clock read (tens of nanoseconds) is lost in the RLocks.
	rwRebiasEvery = 1024

	// rwLaneOverlaps and rwLaneOverlapsCheap: the lane's overlap score at
	// which it closes and spreads (laneOverlap), where a read on the per-P
	// lines costs more than one on the lane, and where it costs less
	// (laneCloseAt times both, once per process). Each reader that finds
	// others inside adds one to the score and each write halves it, so
	// just before a write the score is near twice the overlaps per write:
	// the lane closes once readers overlap more than about half the
	// threshold times per write, and after that many overlaps where
	// nothing writes.
	//
	// Rule: the lines pay where the reads they save from moving the
	// word's line outweigh what they add: each read finds its line
	// through its P, and each write sums every P's line. Where that
	// lookup costs more than the lane's two locked adds (a machine whose
	// dependent loads before a store are slow), only many overlaps per
	// write pay for it: two goroutines each writing every hundred of their
	// operations (GOROOT's RWMutexWrite100) have under 200 reads between
	// writes and can never reach 512, and one written every thousand, at 2
	// goroutines, reaches it within a few writes
	// (results/m-issue40-lane-turns.md). Where the lookup costs less, the
	// lines pay from a few overlaps per write, but not for a lock two
	// goroutines write every ten operations (under 20 reads between
	// writes, never 40), whose readers do better taking turns with its
	// writers on the lane (awaitWriter). A reader that takes the lock
	// again inside its own RLock overlaps once per write. Re-measure with
	// `go test ./percpu -run '^$' -bench 'RWMutexLane' -cpu 2,4 -count 6`,
	// and GOROOT's RWMutexWrite and WorkWrite benchmarks at -cpu 2.
	rwLaneOverlaps      = 512
	rwLaneOverlapsCheap = 40

	// rwTimingRounds, rwTimingReads: laneCloseAt times rwTimingRounds
	// rounds of rwTimingReads RLock+RUnlock pairs on each path and keeps
	// each path's fastest round, so that a preemption or a migration in a
	// round does not decide; a round is long enough that the clock's two
	// reads are lost in it, and all of it takes tens of microseconds,
	// once per process.
	rwTimingRounds = 8
	rwTimingReads  = 64

	// rwShortWait: how long (ns) a reader on the per-P lines that finds a
	// writer spins for the flag to go down before it counts itself parked
	// (awaitWriter; the lane's readers park at once),
	// and a writer that took the writers' mutex at once spins for readers
	// before it yields its P. About a goroutine switch: a writer's
	// critical section, or a reader's, that is shorter is cheaper to wait
	// out than to park or yield for, which also leaves Ps idle (with
	// goroutines parked, a P may find nothing to run). A writer that had
	// to queue, or that sees readers were admitted since the last writer
	// looked, yields at once: the readers it waits for may be waiting for
	// its P. A reader spins only while sync.Mutex's waiters would
	// (pin.CanSpin), for the same reason.
	rwShortWait = 1000

	// rwWriterSpin: how long (ns) a writer waits for readers to leave
	// before it parks. About one wake-up's cost: a critical section
	// shorter than that is cheaper to wait out than to park for (and a
	// parking writer pays a heavy fence first, see waitReaders). Past
	// rwShortWait a writer spins only while sync.Mutex would
	// (pin.CanSpin); with goroutines queued on its P, the readers it waits
	// for may be among them and cannot run while it spins, so it yields
	// the P instead. A parked reader does not spin for its admission: see
	// parkReader.
	rwWriterSpin = 2000

	// rwTurnShare: the share of a P's time, in 1/1024, spent spinning for
	// writers' flags, over which its readers park at once for a stint
	// instead (rwturn.go). Rule: per write that a spinning reader meets,
	// the reader and the writer lose some k times the spin's duration to
	// the write's line transfers (the spin sees only part of them), so
	// reading in parallel pays while k times the share is under half the
	// P's time. GOROOT's WorkWrite and Write benchmarks at 2 goroutines
	// give k about 4.5 whether a transfer is fast or slow, so the limit is
	// near 1/9; it sits at 1/11, between the shares measured where
	// parallel reads won and where taking turns won
	// (results/z5-issue40-turns.md, "Taking turns"). Re-measure with
	// `go test ./percpu -run '^$' -bench 'RWMutex(Work)?/' -cpu 2 -count 6`
	// and `go run ./cmd/halbench -filter '^RWLock/'`, on a machine whose
	// cache-line transfers are slow and on one where they are fast.
	rwTurnShare = 1024 / 11

	// rwTurnStint: how many readers that find a writer on a P park at once
	// once its share is over rwTurnShare, before its readers spin again to
	// measure it afresh. Readers that take turns cannot measure what
	// spinning would cost (they share one P with the writers, and cannot
	// spin there); the stint makes the measuring a few percent of the
	// writes they meet.
	rwTurnStint = 256

	// rwTurnBlock: how many timed spins measure the share before it
	// decides (their sums): enough that a few short gaps between spins do
	// not start a stint where spinning pays.
	rwTurnBlock = 32

	// rwTurnSample: a reader times every rwTurnSample-th spin for the
	// meter (a power of two): a clock read costs about as much as a short
	// spin, and the spins between stand for themselves in the count.
	rwTurnSample = 4

	// rwPinnedWaitLimit: how long (ns) a goroutine that holds a Pin spins
	// for the lock before it panics (see the type's "Pinned callers").
	rwPinnedWaitLimit = time.Second
)

// monotonic returns nanoseconds on the waits' one clock
// (waitpolicy.Nanotime).
func monotonic() int64 { return waitpolicy.Nanotime() }

// spinPause is one step of a spin-wait: the kit's (waitpolicy.Pause),
// which never yields while the goroutine holds a Pin.
func spinPause() { waitpolicy.Pause() }

// pinnedClock times a pinned goroutine's wait: it cannot park, so it
// spins, and only a holder that keeps running ends the wait.
type pinnedClock struct{ waitpolicy.PinnedClock }

// pause spins one step and reports whether the wait has lasted
// rwPinnedWaitLimit.
func (c *pinnedClock) pause() bool {
	spinPause()
	return c.TimedOut(rwPinnedWaitLimit)
}

var pinnedWaitMessage = fmt.Sprintf("percpu: a goroutine that holds a Pin waited over %v for an RWMutex: "+
	"a pinned goroutine cannot park, so it spins, and the lock's holder is not running. "+
	"A lock that pinned goroutines take must be held only pinned (Pin, Lock, …, Unlock, Unpin)", time.Duration(rwPinnedWaitLimit))

// rwPanic panics with msg. A panic while pinned is a fatal error of the
// runtime, so it first releases the caller's Pins and says how many.
func rwPanic(msg string) {
	if pin.Held() {
		n := pin.Release()
		msg += fmt.Sprintf(" (the goroutine's %d Pin(s) were released so that it could panic: each matching Unpin now panics)", n)
	}
	panic(msg)
}

// Waiting: a reader parks until the writer whose flag it saw admits it
// (rlockSlow), a writer waits for the readers inside (waitReaders), and
// each side wakes the other.

// rwWaits is where an RWMutex's writer waits for readers to leave, and
// readers for a writer to admit them. The first of either that has to
// park makes it, and it is kept while the lock lives.
type rwWaits struct {
	// wake is the writer's wake-up (capacity 1): a reader that counts
	// out and sees the flag sends on it (signalWriter).
	wake chan struct{}

	// admittedSeen is admitted when the last writer that waited for
	// readers read it (waitReaders): written and read only under w.
	admittedSeen uint32

	// tickets is how many counts in admitReaders has made that no reader
	// has taken yet: each is taken by one reader (takeTicket), which is
	// then inside, counted in, and counts out as any reader does.
	tickets atomic.Int32

	// mu guards the lock's parked, and orders admitted's changes with it.
	mu sync.Mutex

	// admitted counts the writers that have admitted parked readers
	// (admitReaders), so that a parked reader knows whether it has been.
	// It changes under mu; a waiting writer also reads it without.
	admitted atomic.Uint32

	// admission wakes the parked readers that a writer admits. Its
	// Broadcast readies them in the order they parked, as sync.RWMutex's
	// writer releases its readers' semaphore, so the last to park runs
	// first on the writer's P. Its Locker is mu, but Wait returns without
	// it (mutexAfterWait).
	admission sync.Cond
}

// mutexAfterWait is rwWaits.mu as the Locker of rwWaits.admission.
// sync.Cond.Wait unlocks it as the reader parks, and does not lock it
// again: the reader needs nothing under it once admitted.
type mutexAfterWait rwWaits

func (m *mutexAfterWait) Lock()   {}
func (m *mutexAfterWait) Unlock() { m.mu.Unlock() }

// rlockSlow waits for the writer that made rlock fail. It spins for the
// writer to leave (awaitWriter), as most writes are short, and counts in
// as rlock does; failing that, it parks until the writer that holds the
// lock admits it (parkReader): that writer counts it in before it lets
// the next writer in, so a reader that waited goes in before the next
// writer, as sync.RWMutex's do (readerWait), and all that waited go in
// together, as percpu-rwsem's blocked readers do.
func (rw *RWMutex) rlockSlow() {
	if pin.Held() {
		var clk pinnedClock
		for !rw.rlock(true) {
			if rw.w.TryLock() {
				rw.countInUnderW(1) // no writer can start while we hold w
				rw.w.Unlock()
				return
			}
			if clk.pause() {
				rwPanic(pinnedWaitMessage)
			}
		}
		return
	}
	if rw.takeTicket() || rw.awaitWriter() && rw.rlock(true) {
		return
	}
	for !rw.parkReader() {
		if rw.rlock(true) {
			return
		}
	}
}

// takeTicket takes one of the counts in that a releasing writer made for
// the readers it admitted, if one is left, and reports whether it did:
// the caller is then inside. [R-ticket]
//
// A reader that finds a writer takes the place of an admitted reader that
// has not run yet, as sync.RWMutex's semaphore lets a running reader take
// the token released for a woken one: the woken reader, when it runs and
// finds no ticket, parks again for the next writer. So while readers are
// admitted and not yet running, running readers go on without a context
// switch and the next writer waits for no more readers than it would
// have; the admitted readers still go in before the writer that follows
// the one that admitted them, in number if not in person.
func (rw *RWMutex) takeTicket() bool {
	ws := rw.waits.Load()
	if ws == nil {
		return false
	}
	for n := ws.tickets.Load(); n > 0; n = ws.tickets.Load() {
		if ws.tickets.CompareAndSwap(n, n-1) {
			return true
		}
	}
	return false
}

// parkReader parks the caller until a writer admits it, and reports
// whether it is inside: whether it took a ticket (takeTicket) once
// admitted. It reports false at once if no writer's flag is up; either
// way, on false the caller tries to count in again.
//
// [R-park] The count of parked readers goes up, then the flag is read,
// both sequentially consistent (the count's add a read-modify-write, as
// the writer's flag-down is, see release); a releasing writer lowers its
// flag and then reads that count: so either this reader sees the flag
// down, or the writer that lowers it sees the count and admits it. Both
// happen under waits.mu, so the writer never counts in a reader that
// leaves again.
//
// A parked reader does not spin for its admission. Where the CPUs
// running the program pass a cache line between them slowly, a reader
// polling the words the writer must write next makes every write wait
// for those transfers; a blocked reader leaves the writer to run alone,
// as sync.RWMutex's readers do (results/z5-issue40-turns.md). It only
// lets go of waits.mu once before it blocks.
func (rw *RWMutex) parkReader() bool {
	ws := rw.waitsOf()
	ws.mu.Lock()
	atomic.AddInt32(&rw.parked, 1)
	if !rw.writerFlag() {
		atomic.AddInt32(&rw.parked, -1)
		ws.mu.Unlock()
		return false
	}
	seen := ws.admitted.Load()
	ws.mu.Unlock()
	// A releasing writer admits parked readers under waits.mu: one that
	// waits for it now may admit this reader before the reader takes it
	// again, and then the reader goes in without blocking.
	ws.mu.Lock()
	if ws.admitted.Load() != seen {
		ws.mu.Unlock()
	} else {
		ws.admission.Wait() // unlocks mu
	}
	// [R-admitted] counted in by the writer, unless another reader took its ticket
	return rw.takeTicket()
}

// admitReaders counts in the readers parked for the releasing writer, and
// wakes them. The caller still holds w, so the next writer's sums see
// them and it waits for them to leave. [W-admit]
func (rw *RWMutex) admitReaders() {
	ws := rw.waits.Load() // made by the parked reader, before it counted itself
	ws.mu.Lock()
	if n := atomic.LoadInt32(&rw.parked); n > 0 {
		atomic.StoreInt32(&rw.parked, 0)
		rw.countInUnderW(uint32(n))
		ws.tickets.Add(n)
		ws.admitted.Add(1)
	}
	ws.mu.Unlock()
	ws.admission.Broadcast()
}

// waitsOf returns the lock's rwWaits, making it if no one has.
func (rw *RWMutex) waitsOf() *rwWaits {
	if ws := rw.waits.Load(); ws != nil {
		return ws
	}
	ws := &rwWaits{wake: make(chan struct{}, 1)}
	ws.admission.L = (*mutexAfterWait)(ws)
	if rw.waits.CompareAndSwap(nil, ws) {
		return ws
	}
	return rw.waits.Load()
}

// awaitWriter spins while a writer's flag is up, for at most
// rwShortWait and only while spinning can pay, and reports whether the
// flag went down. A reader spins only while sync.Mutex's waiters would
// (pin.CanSpin: another P is running, and none of this P's goroutines
// waits to run): with goroutines queued on its P, the writer it waits for
// may be among them, and cannot run while it spins.
//
// While the lane is open it gives up at once, so the reader parks, as
// sync.RWMutex's readers do: the lane's readers and writers share one
// word, and a reader that spins while a short write ends reads beside the
// writers that follow, each operation passing the word's line between
// CPUs, where readers that park leave the writer's goroutine to run alone
// until they are admitted together. Where the lock has per-P lines, the
// caller's P's turn meter may say that its readers do better taking turns
// with the writers than reading beside them: it then gives up at once
// (rwturn.go).
func (rw *RWMutex) awaitWriter() bool {
	if atomic.LoadUint32(&rw.solo) < soloClosed {
		return false
	}
	m := rw.turnMeter()
	var timed bool
	if m != nil {
		var park bool
		if park, timed = m.begin(); park {
			return false
		}
	}
	var start, until int64
	// [R-await]
	for i := 0; rw.writerFlag(); i++ {
		if i%8 == 0 {
			now := monotonic()
			if until == 0 {
				start, until = now, now+rwShortWait
			}
			if now > until || !pin.CanSpin() {
				return false
			}
		}
		spinPause()
	}
	switch {
	case m == nil || start == 0: // the flag was down: no spin
	case timed:
		m.record(start, monotonic())
	default:
		m.spun()
	}
	return true
}

// wakeWriter wakes the writer, if one waits for readers to leave. The
// caller has just counted out with a full fence, or with FenceLight,
// for which a writer heavy-fences before it parks (waitReaders): so either
// the writer's sum sees the count or this load sees its flag. The send
// never blocks, so a pinned reader may make it.
func (rw *RWMutex) wakeWriter() {
	// [R-wake]
	if rw.writerFlag() {
		rw.signalWriter()
	}
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
	// [G-fence]
	hal.Fence()
	if ws := rw.waits.Load(); ws != nil {
		select {
		// [G-send]
		case ws.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
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
	// Readers admitted by the last writer (admitReaders) are counted in
	// and may not run yet, or wait for this writer's P: a writer that
	// sees an admission since the last writer looked, as one that
	// queued, spins only where CanSpin says.
	ws := rw.waitsOf()
	admitted := ws.admitted.Load()
	spinFirst := !queued && admitted == ws.admittedSeen
	ws.admittedSeen = admitted
	start := monotonic()
	for {
		// [W-spin]
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
	// A reader counts out with hal.FenceLight (runlock, rwRUnlock), biased
	// or not, then loads the flag and the channel: its count may still sit
	// in its CPU's store buffer when that load misses the flag. The heavy
	// fence makes every count out made before it visible to the sums
	// below, and a reader that counts out after it finds the flag and the
	// channel, so either the loop sees a reader's count or that reader
	// wakes it (a reader that fenced fully is a case of both). With the
	// portable pair, or once hal has degraded it, FenceLight is a full
	// fence and this one the writer's own, and a refused membarrier
	// degrades the pair instead of panicking (hal's degrade).
	//
	// While the flag is in the solo word the lane is open, so no line
	// exists and none can be made (closeLane refuses): every reader counts
	// out with a locked instruction (the lane's compare-and-swap, or the
	// lock's own counters), a full fence, and the heavy one, a system call
	// that interrupts every CPU running the program, is not needed.
	// [W-heavy]
	if atomic.LoadUint32(&rw.solo)&soloWriter == 0 {
		hal.FenceHeavy()
	}
	for {
		// [W-sum-out] again after each wake-up: [W-park]
		if gone, err := rw.readersGone(); gone || err != "" {
			return err
		}
		<-ws.wake
	}
}
