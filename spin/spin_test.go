package spin

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/internal/cacheline"
)

// TestValidate is Concurrency Kit's lock validation: goroutines take the
// lock, check that nobody else is inside (a flag that must never be seen
// set on entry), then increment and decrement a protected counter with
// plain, non-atomic accesses, checking at every step that it holds what
// this goroutine left there. A lock that lets two goroutines in at once, or
// that fails to order the protected accesses, trips a check or leaves the
// final count wrong. Run it with -race too.
func TestValidate(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		for _, threads := range []int{2, runtime.GOMAXPROCS(0) + 1, 8} {
			t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
				validate(t, k.new(), threads, iterations(t, 20000, 2000))
			})
		}
	})
}

// iterations scales a loop count down under -short.
func iterations(t *testing.T, long, short int) int {
	if testing.Short() {
		return short
	}
	return long
}

func validate(t *testing.T, l Locker, threads, iters int) {
	t.Helper()
	var (
		inside    atomic.Bool
		protected int // guarded by l; plain accesses on purpose
		total     int // guarded by l
		failures  atomic.Int64
		wg        sync.WaitGroup
	)
	const depth = 5
	for g := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range iters {
				if (g+i)%7 == 0 {
					// Exercise TryLock too; fall back to Lock.
					if !l.TryLock() {
						l.Lock()
					}
				} else {
					l.Lock()
				}
				if inside.Swap(true) {
					failures.Add(1)
				}
				base := protected
				for j := 1; j <= depth; j++ {
					protected++
					if protected != base+j {
						failures.Add(1)
					}
				}
				for j := depth - 1; j >= 0; j-- {
					protected--
					if protected != base+j {
						failures.Add(1)
					}
				}
				total++
				if !inside.Swap(false) {
					failures.Add(1)
				}
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n := failures.Load(); n != 0 {
		t.Errorf("%d mutual-exclusion violations", n)
	}
	if protected != 0 {
		t.Errorf("protected value %d, want 0", protected)
	}
	if want := threads * iters; total != want {
		t.Errorf("%d critical sections counted, want %d", total, want)
	}
}

// TestOversubscribed runs 8 goroutines on 2 processors, released together,
// each taking the lock many times, and fails if they do not all finish
// within a time bound. Without the yield after a spin budget the FIFO locks
// stall here: once a goroutine holding a ticket (or queued in MCS) is
// preempted, the running waiters spin until the scheduler preempts them in
// turn, about 10 ms per handover (measured: Ticket without the yield did
// under half of the 160,000 acquisitions in 10 s; with it, all of them in
// well under a second on an idle machine). The bound is generous because
// other processes on a shared machine deschedule OS threads too.
func TestOversubscribed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	forEachLock(t, func(t *testing.T, k lockKind) {
		const goroutines = 8
		iters := iterations(t, 20000, 2000)
		l := k.new()
		var count atomic.Int64
		done := make(chan struct{})
		start := time.Now()
		go func() {
			var wg sync.WaitGroup
			var ready sync.WaitGroup
			ready.Add(goroutines)
			release := make(chan struct{})
			for range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ready.Done()
					<-release
					for range iters {
						l.Lock()
						count.Add(1)
						l.Unlock()
					}
				}()
			}
			ready.Wait()
			close(release)
			wg.Wait()
			close(done)
		}()
		limit := 60 * time.Second
		select {
		case <-done:
			t.Logf("%d acquisitions by %d goroutines on 2 Ps in %v", goroutines*iters, goroutines, time.Since(start))
		case <-time.After(limit):
			t.Fatalf("%s: only %d of %d acquisitions after %v: waiters do not yield", k.name, count.Load(), goroutines*iters, limit)
		}
	})
}

func TestZeroValueAndTryLock(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		l := k.new()
		if !l.TryLock() {
			t.Fatal("TryLock on a new lock failed")
		}
		if l.TryLock() {
			t.Fatal("TryLock on a held lock succeeded")
		}
		l.Unlock()
		l.Lock()
		if l.TryLock() {
			t.Fatal("TryLock after Lock succeeded")
		}
		l.Unlock()
		if !l.TryLock() {
			t.Fatal("TryLock after Unlock failed")
		}
		l.Unlock()
	})
}

// TestTryLockWhileQueued checks TryLock fails while waiters are queued on
// a held lock, not only while it is held.
func TestTryLockWhileQueued(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		l := k.new()
		l.Lock()
		got := make(chan struct{})
		go func() { l.Lock(); close(got); l.Unlock() }()
		time.Sleep(10 * time.Millisecond)
		if l.TryLock() {
			t.Fatal("TryLock succeeded while held with a waiter")
		}
		select {
		case <-got:
			t.Fatal("waiter got a held lock")
		default:
		}
		l.Unlock()
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("waiter never got the lock")
		}
	})
}

func TestUnlockOfUnlockedPanics(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		defer func() {
			if recover() == nil {
				t.Error("Unlock of an unlocked lock did not panic")
			}
		}()
		k.new().Unlock()
	})
}

// TestFIFO checks that the fair locks serve waiters that stay in line in
// arrival order: with the lock held, waiters queue one at a time (each is
// known to be queued before the next starts), then the order they get in
// must match. Waiters normally leave the line after their spin budget
// (TestPassOver); strictFIFO keeps them in it here.
func TestFIFO(t *testing.T) {
	useSeams(t, seams{strictFIFO: true})
	forEachLock(t, func(t *testing.T, k lockKind) {
		if !k.fifo {
			t.Skip("not a FIFO lock")
		}
		const waiters = 5
		l := k.new()
		l.Lock()
		var order []int // guarded by l
		var wg sync.WaitGroup
		for i := range waiters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l.Lock()
				order = append(order, i)
				l.Unlock()
			}()
			waitQueued(t, l, i+1)
		}
		l.Unlock()
		wg.Wait()
		for i, v := range order {
			if v != i {
				t.Fatalf("acquisition order %v, want arrival order", order)
			}
		}
	})
}

// waitQueued waits until n goroutines are queued on a held FIFO lock.
func waitQueued(t *testing.T, l Locker, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		switch l := l.(type) {
		case *Ticket:
			if int(atomic.LoadUint32(&l.next)-atomic.LoadUint32(&l.serving)) == n+1 {
				return
			}
		case *MCS:
			if mcsQueueLen(l) == n {
				return
			}
		default:
			t.Fatalf("waitQueued: %T", l)
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d waiters never queued", n)
}

// mcsQueueLen counts waiters queued behind the holder of l, following next
// links from the holder's node. Test use only, on a lock whose holder is
// parked.
func mcsQueueLen(l *MCS) int {
	n := 0
	for p := l.holderNode().next.Load(); p != nil; p = p.next.Load() {
		n++
	}
	return n
}

// TestLockWordPadding checks that nothing but padding and the lock's own
// fields share a cache line with a lock word, wherever the lock sits: the
// lock's first fields (its word, the parking lot the releaser reads after
// releasing, for FIFO locks their other hot fields) start one line into
// the struct, so, being 8-aligned, they lie in a line that starts after
// the struct does, and padding runs to two lines.
func TestLockWordPadding(t *testing.T) {
	check := func(name string, off, width, end uintptr) {
		t.Helper()
		if off != cacheline.Size || width > cacheline.Size || end < 2*cacheline.Size {
			t.Errorf("%s: lock fields at %d, %d bytes, next field or end at %d: want %d, <= %d, >= %d",
				name, off, width, end, cacheline.Size, cacheline.Size, 2*cacheline.Size)
		}
	}
	check("TAS", unsafe.Offsetof(TAS{}.s), unsafe.Sizeof(tasState{}), unsafe.Sizeof(TAS{}))
	check("TTAS", unsafe.Offsetof(TTAS{}.s), unsafe.Sizeof(tasState{}), unsafe.Sizeof(TTAS{}))
	check("Asm", unsafe.Offsetof(Asm{}.s), unsafe.Sizeof(tasState{}), unsafe.Sizeof(Asm{}))
	check("Backoff", unsafe.Offsetof(Backoff{}.s), unsafe.Sizeof(tasState{}), unsafe.Sizeof(Backoff{}))
	check("Ticket", unsafe.Offsetof(Ticket{}.next), unsafe.Offsetof(Ticket{}.serving)+4-unsafe.Offsetof(Ticket{}.next), unsafe.Offsetof(Ticket{}.slots))
	// MCS: tail is the shared word; holder, beside it, is touched only by
	// the holder, and own only by the holder and its successor.
	check("MCS", unsafe.Offsetof(MCS{}.tail), unsafe.Sizeof(mcsHot{}), unsafe.Offsetof(MCS{}.own))
	if s := unsafe.Sizeof(mcsNode{}); s != cacheline.Size {
		t.Errorf("mcsNode is %d bytes, want one %d-byte line", s, cacheline.Size)
	}
}

// TestEmbeddedAfterUint32 embeds every lock after a uint32 field, the
// layout that puts a 64-bit word at a 4-byte offset on 32-bit platforms
// unless the type aligns itself, and exercises the 64-bit words (Ticket's
// slots and both FIFO locks' pass counters go through sync/atomic's 64-bit
// operations, which panic on a misaligned word there). Run on GOARCH=arm
// under qemu-arm by CI.
func TestEmbeddedAfterUint32(t *testing.T) {
	var s struct {
		flag uint32
		tas  TAS
		f2   uint32
		ttas TTAS
		f3   uint32
		asm  Asm
		f4   uint32
		bo   Backoff
		f5   uint32
		tk   Ticket
		f6   uint32
		mcs  MCS
	}
	for _, l := range []Locker{&s.tas, &s.ttas, &s.asm, &s.bo, &s.tk, &s.mcs} {
		validate(t, l, 3, iterations(t, 2000, 500))
	}
	for i := range s.tk.slots {
		s.tk.slots[i].mark.Add(0)
	}
	if s.tk.PassedOver() > uint64(3*iterations(t, 2000, 500)) || s.mcs.PassedOver() > uint64(3*iterations(t, 2000, 500)) {
		t.Errorf("passed over %d (Ticket), %d (MCS) times in %d acquisitions", s.tk.PassedOver(), s.mcs.PassedOver(), 3*iterations(t, 2000, 500))
	}
	for name, p := range map[string]unsafe.Pointer{"Ticket.passed": unsafe.Pointer(&s.tk.passed), "MCS.passed": unsafe.Pointer(&s.mcs.passed), "Ticket.slots": unsafe.Pointer(&s.tk.slots)} {
		if uintptr(p)%8 != 0 {
			t.Errorf("%s at %p: not 8-byte aligned", name, p)
		}
	}
}

// TestPassOver checks the preemption adaptivity of the FIFO locks: a
// waiter that has spent its spin budget leaves the line and parks; the
// releaser passes over it (counted by PassedOver) instead of handing it
// the lock, so the lock is free at once for a running goroutine, and
// wakes it, and the woken waiter gets the lock later. Nothing else wakes a
// sleeping waiter (no timeout), so the pass happens in every round; with
// the parking lot's timeout it did not always (the waiter woke by itself
// and took its place back), and the test had to retry rounds.
func TestPassOver(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		if !k.fifo {
			t.Skip("not a FIFO lock")
		}
		for range 5 {
			l := k.new()
			l.Lock()
			got := make(chan struct{})
			go func() { l.Lock(); close(got); l.Unlock() }()
			waitFor(t, "the waiter to sleep", func() bool { return sleepingOn(l) == 1 })
			l.Unlock()
			select {
			case <-got:
			case <-time.After(10 * time.Second):
				t.Fatal("the passed-over waiter never got the lock")
			}
			if n := passedOver(l); n != 1 {
				t.Fatalf("PassedOver = %d with one sleeping waiter, want 1", n)
			}
		}
	})
}

// sleepingOn returns how many waiters of a FIFO lock have published that
// they sleep (or are about to).
func sleepingOn(l Locker) uint32 {
	switch l := l.(type) {
	case *Ticket:
		return l.sleeping()
	case *MCS:
		return mcsSleepers(l)
	}
	panic(fmt.Sprintf("sleepingOn: %T", l))
}

// passedOver returns PassedOver of a FIFO lock.
func passedOver(l Locker) uint64 {
	switch l := l.(type) {
	case *Ticket:
		return l.PassedOver()
	case *MCS:
		return l.PassedOver()
	}
	panic(fmt.Sprintf("passedOver: %T", l))
}

// TestParkedWaitersWake checks the locks' parking: waiters that find the
// lock held for long park (counted in the lock, not polling), and all get
// the lock once it is released.
func TestParkedWaitersWake(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		l := k.new()
		const waiters = 4
		l.Lock()
		var wg sync.WaitGroup
		var got atomic.Int32
		for range waiters {
			wg.Add(1)
			go func() { defer wg.Done(); l.Lock(); got.Add(1); l.Unlock() }()
		}
		waitFor(t, "every waiter to park", func() bool { return parkedOn(l) == waiters })
		l.Unlock()
		wg.Wait()
		if got.Load() != waiters {
			t.Fatalf("%d of %d waiters got the lock", got.Load(), waiters)
		}
	})
}

// parkedOn returns how many goroutines are counted as parked (or about
// to park) on any lock in the package: the TAS family's waiter count in
// its state word, the FIFO locks' sleepers.
func parkedOn(l Locker) uint32 {
	switch l := l.(type) {
	case *TAS:
		return l.s.waiters()
	case *TTAS:
		return l.s.waiters()
	case *Asm:
		return l.s.waiters()
	case *Backoff:
		return l.s.waiters()
	}
	return sleepingOn(l)
}

// TestNoAllocs checks that locking allocates nothing in steady state,
// uncontended and (for MCS) through the queueing path.
func TestNoAllocs(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		l := k.new()
		if a := testing.AllocsPerRun(1000, func() { l.Lock(); l.Unlock() }); a != 0 {
			t.Errorf("Lock+Unlock: %v allocs/op", a)
		}
		if a := testing.AllocsPerRun(1000, func() {
			if l.TryLock() {
				l.Unlock()
			}
		}); a != 0 {
			t.Errorf("TryLock+Unlock: %v allocs/op", a)
		}
	})
	t.Run("mcs-queued", func(t *testing.T) {
		var l MCS
		if a := testing.AllocsPerRun(1000, func() { l.lockSlow(); l.Unlock() }); a != 0 {
			t.Errorf("queued Lock+Unlock: %v allocs/op", a)
		}
	})
}
