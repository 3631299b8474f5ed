package spin

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
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

// TestFIFO checks that the fair locks serve waiters in arrival order:
// with the lock held, waiters queue one at a time (each is known to be
// queued before the next starts), then the order they get in must match.
func TestFIFO(t *testing.T) {
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
	for p := l.holder.next.Load(); p != nil; p = p.next.Load() {
		n++
	}
	return n
}

// TestLockWordPadding checks that nothing but padding shares a cache line
// with a lock word, wherever the lock sits: the words start one line into
// the struct (so, being 8-aligned and at most 8 bytes wide, they lie in a
// line that starts after the struct does) and padding runs to two lines.
func TestLockWordPadding(t *testing.T) {
	check := func(name string, off, width, end uintptr) {
		t.Helper()
		if off != lineSize || width > 8 || end < 2*lineSize {
			t.Errorf("%s: lock word at %d, %d bytes, next field or end at %d: want %d, <= 8, >= %d",
				name, off, width, end, lineSize, 2*lineSize)
		}
	}
	check("TAS", unsafe.Offsetof(TAS{}.word), 4, unsafe.Sizeof(TAS{}))
	check("TTAS", unsafe.Offsetof(TTAS{}.word), 4, unsafe.Sizeof(TTAS{}))
	check("Asm", unsafe.Offsetof(Asm{}.word), 4, unsafe.Sizeof(Asm{}))
	check("Backoff", unsafe.Offsetof(Backoff{}.word), 4, unsafe.Sizeof(Backoff{}))
	check("Ticket", unsafe.Offsetof(Ticket{}.next), 8, unsafe.Sizeof(Ticket{}))
	// MCS: tail is the shared word; holder, beside it, is touched only by
	// the holder, and own only by the holder and its successor.
	check("MCS", unsafe.Offsetof(MCS{}.tail), 8, unsafe.Offsetof(MCS{}.own))
	if s := unsafe.Sizeof(mcsNode{}); s != lineSize {
		t.Errorf("mcsNode is %d bytes, want one %d-byte line", s, lineSize)
	}
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
