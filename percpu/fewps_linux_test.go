package percpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/waitpolicy"
)

// The review's second reproducer: GOMAXPROCS 1 on a machine with more
// CPUs, and the reader's thread on the highest CPU. In the fallback build
// (gohal_nolinkname, purego) the reader's index is the CPU number, and a
// table of lines sized by GOMAXPROCS sent rlock, rlockNoLine, Grow(0) and
// rlock round until the stack overflowed. Every structure indexed by
// pin.ProcPin (RWMutex's lines, Counter's shards, Cache's locals) must
// take the reader, whatever the build.
func TestFewerPsThanCPUs(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var saved unix.CPUSet
	if err := unix.SchedGetaffinity(0, &saved); err != nil {
		t.Skipf("sched_getaffinity: %v", err)
	}
	hi := -1
	for i := range len(saved) * 8 * int(unsafe.Sizeof(saved[0])) {
		if saved.IsSet(i) {
			hi = i
		}
	}
	if saved.Count() < 2 {
		t.Skipf("the thread may run on %d CPU: the case needs 2", saved.Count())
	}
	var one unix.CPUSet
	one.Set(hi)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		t.Skipf("sched_setaffinity to CPU %d: %v", hi, err)
	}
	defer unix.SchedSetaffinity(0, &saved)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if v := waitpolicy.Variant("cpu"); v != "portable" {
		if c := hal.CPU(); c != hi {
			t.Fatalf("hal.CPU() = %d on a thread confined to CPU %d (variant %s)", c, hi, v)
		}
	}
	id := pin.ProcPin()
	pin.ProcUnpin()
	t.Logf("GOMAXPROCS 1, thread on CPU %d of %d, index %d, %d slots (pin.IDs)", hi, saved.Count(), id, pin.IDs())
	if n := pin.IDs(); id >= n {
		t.Fatalf("pin.ProcPin() = %d, outside pin.IDs() = %d", id, n)
	}

	setSlotsPay(t, true) // spread even where hal.CPU is a system call: the index is what is checked
	rw := new(RWMutex)
	atomic.StoreUint32(&rw.solo, soloClosed)
	if rw.spread() == nil {
		t.Fatal("spread made no lines")
	}
	for range 100 {
		rw.RLock()
		rw.RUnlock()
		if !rw.TryRLock() {
			t.Fatal("TryRLock failed on an unlocked lock")
		}
		rw.RUnlock()
		rw.Lock()
		rw.Unlock()
	}
	if gone, err := rw.readersGone(); !gone || err != "" {
		t.Fatalf("readers still inside after balanced RLocks (%q)", err)
	}
	var c Counter
	for range 100 {
		c.Add(1)
	}
	if got := c.Load(); got != 100 {
		t.Fatalf("Counter.Load() = %d after 100 Adds", got)
	}
	k := NewCache(2, func() *int { return new(int) })
	for range 10 {
		p := k.Get()
		k.Put(p)
	}
}

// TestRWMutexGOMAXPROCSChurn: readers and writers run while GOMAXPROCS
// shrinks and grows, past the lines made and past the CPU count, so that
// readers meet ids their lines do not cover yet (or no longer) on both
// sides of RLock and RUnlock; GOROOT's hammer checks exclusion in every
// critical section, and nothing may recurse past one retry.
func TestRWMutexGOMAXPROCSChurn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rw := new(RWMutex)
	atomic.StoreUint32(&rw.solo, soloClosed)
	rw.spread()
	stop := make(chan struct{})
	var churn sync.WaitGroup
	churn.Add(1)
	go func() {
		defer churn.Done()
		sizes := []int{1, 3, 1, 2 * runtime.NumCPU(), 2, 8, 1}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			runtime.GOMAXPROCS(sizes[i%len(sizes)])
			runtime.Gosched()
		}
	}()
	iters := 2000
	if testing.Short() {
		iters = 300
	}
	for _, readers := range []int{2, 8} {
		hammerChurn(t, rw, readers, iters)
	}
	close(stop)
	churn.Wait()
	if gone, err := rw.readersGone(); !gone || err != "" {
		t.Fatalf("readers still inside after the hammer (%q)", err)
	}
}

// hammerChurn is hammerRW without its GOMAXPROCS setting, which the
// churning goroutine owns.
func hammerChurn(t *testing.T, rw *RWMutex, readers, iters int) {
	t.Helper()
	var activity atomic.Int32
	var bad atomic.Value
	var wg sync.WaitGroup
	for i := range readers + 2 {
		wg.Add(1)
		go func(writer bool) {
			defer wg.Done()
			for range iters {
				if writer {
					rw.Lock()
					if n := activity.Add(10000); n != 10000 {
						bad.CompareAndSwap(nil, n)
					}
					activity.Add(-10000)
					rw.Unlock()
					continue
				}
				rw.RLock()
				if n := activity.Add(1); n < 1 || n >= 10000 {
					bad.CompareAndSwap(nil, n)
				}
				runtime.Gosched() // let the reader move to another P before its RUnlock
				activity.Add(-1)
				rw.RUnlock()
			}
		}(i < 2)
	}
	wg.Wait()
	if v := bad.Load(); v != nil {
		t.Fatalf("%d readers: exclusion broken (activity %v)", readers, v)
	}
}
