package percpu

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/testexec"
	"github.com/gohal/gohal/internal/waitpolicy"
	"github.com/gohal/gohal/lab/countertest"
)

// withProcs runs f with GOMAXPROCS set to n.
func withProcs(t *testing.T, n int) {
	t.Helper()
	prev := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

func TestPinRangeAndNesting(t *testing.T) {
	withProcs(t, 4)
	var wg sync.WaitGroup
	var bad atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				id := Pin()
				inner := Pin()
				if id < 0 || (Pinned && (id >= 4 || inner != id)) {
					bad.Add(1)
				}
				Unpin()
				Unpin()
			}
		}()
	}
	wg.Wait()
	if n := bad.Load(); n != 0 {
		t.Fatalf("%d Pins returned an id out of [0, 4) or a nested Pin a different id", n)
	}
}

func TestUnpinWithoutPinPanics(t *testing.T) {
	if !Pinned {
		t.Skip("the fallback build cannot tell a goroutine's Pins apart")
	}
	for _, pins := range []int{0, 1, 2} {
		for range pins {
			Pin()
		}
		for range pins {
			Unpin()
		}
		msg := func() (msg any) {
			defer func() { msg = recover() }()
			Unpin()
			return nil
		}()
		if s, _ := msg.(string); !strings.Contains(s, "Unpin without a matching Pin") {
			t.Fatalf("after %d Pin/Unpin pairs, a further Unpin: recovered %v, want a panic naming the misuse", pins, msg)
		}
	}
	// The goroutine is not left pinned: it can still be rescheduled (a
	// pinned goroutine that yields is a fatal error).
	runtime.Gosched()
	time.Sleep(time.Millisecond)
}

// TestPinExcludes checks the promise Pin makes: data indexed by the id
// has one writer at a time. Each goroutine does a non-atomic
// read-modify-write of its P's slot, with a yield of the CPU's attention
// (a spin) in between; no increment may be lost. The race detector cannot
// see this exclusion, so the test uses atomic loads and stores, which
// exclude nothing by themselves.
func TestPinExcludes(t *testing.T) {
	if !Pinned {
		t.Skip("the fallback build's Pin excludes nothing")
	}
	withProcs(t, 2)
	type slotWord struct{ v atomic.Int64 }
	slots := make([]struct {
		slotWord
		_ [cacheline.Size - unsafe.Sizeof(slotWord{})%cacheline.Size]byte
	}, 2)
	const goroutines = 16
	n := countertest.Iterations(20000, 2000)
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				id := Pin()
				v := slots[id].v.Load()
				for range i % 16 {
					_ = slots[1-id].v.Load()
				}
				slots[id].v.Store(v + 1)
				Unpin()
			}
		}()
	}
	wg.Wait()
	if got := slots[0].v.Load() + slots[1].v.Load(); got != goroutines*int64(n) {
		t.Fatalf("%d increments counted, want %d: two goroutines wrote one P's slot at once", got, goroutines*n)
	}
}

// TestHelperProcess is the child of the subprocess tests.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv("PERCPU_TEST_HELPER") {
	case "":
		t.Skip("helper for the subprocess tests")
	case "sleep-pinned":
		Pin()
		time.Sleep(time.Millisecond)
		Unpin()
	case "chan-pinned":
		ch := make(chan int)
		go func() { time.Sleep(10 * time.Millisecond); ch <- 1 }()
		Pin()
		<-ch
		Unpin()
	case "panic-pinned":
		defer func() { recover() }()
		Pin()
		panic("boom")
	case "gosched-pinned":
		Pin()
		runtime.Gosched()
		Unpin()
	case "mutex-pinned":
		var mu sync.Mutex
		mu.Lock()
		go func() { time.Sleep(10 * time.Millisecond); mu.Unlock() }()
		Pin()
		mu.Lock()
		Unpin()
	case "exit-pinned":
		done := make(chan bool)
		go func() { Pin(); done <- true }() // never unpins: then it ends
		<-done
		// The ending goroutine's fatal error exits with status 2; the
		// child must not reach its own os.Exit(0) first, which on a
		// loaded machine it did after a 10 ms wait (exit 0 with the
		// fatal message printed). 5 s bounds the wait if it never comes.
		time.Sleep(5 * time.Second)
	case "memstats-pinned":
		var m runtime.MemStats
		Pin()
		runtime.ReadMemStats(&m)
		Unpin()
	case "stack-pinned":
		buf := make([]byte, 1<<16)
		Pin()
		runtime.Stack(buf, true)
		Unpin()
	case "gc-pinned":
		Pin()
		runtime.GC()
		Unpin()
	case "gomaxprocs-pinned":
		Pin()
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
		Unpin()
	case "syscall-pinned":
		syscallPinned()
	case "noop":
	case "affinity":
		affinityChild()
	case "counter-under-pin":
		counterUnderPin()
	case "cache-under-pin":
		cacheUnderPin()
	}
	os.Exit(0)
}

// syscallPinned blocks in a system call while pinned, on one P that
// another goroutine then keeps busy: when the call returns, the thread
// finds no P to run on and must sleep, holding the pin. The call is
// nanosleep(2), which needs no other goroutine to end it (a write that
// ends a read is a system call too, during which the reader can take the
// P back).
func syscallPinned() {
	runtime.GOMAXPROCS(1)
	var sleeping atomic.Bool
	go func() {
		// Runs once the runtime has handed the P of the goroutine in
		// nanosleep to another thread (or, run earlier, waits there,
		// preempted in turn), then keeps the P.
		for !sleeping.Load() {
		}
		for {
		}
	}()
	Pin()
	sleeping.Store(true)
	// The P is handed off only when sysmon sees the call blocked, and a
	// loaded machine can keep sysmon's thread off a CPU for the whole of
	// one sleep: the thread then gets its own P back and nothing fails.
	// So the pinned goroutine sleeps again, up to 50 times (5 s), until
	// a return finds the P taken; a child that gets through all of them
	// exits 0 and the test reports it.
	for range 50 {
		sleepInSyscall(100 * time.Millisecond)
	}
	Unpin()
}

// affinityChild runs under taskset -c 1 with GOMAXPROCS=1: the kernel's
// CPU number (1) is then >= both runtime.NumCPU() and GOMAXPROCS. Pin's
// id must still index a slice of max(GOMAXPROCS, NumCPU) entries, and
// Counter and Cache must work.
func affinityChild() {
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
		os.Exit(3)
	}
	if c := hal.CPU(); c != 1 && runtime.GOOS == "linux" {
		fail("hal.CPU() = %d under taskset -c 1", c)
	}
	n := max(runtime.GOMAXPROCS(0), runtime.NumCPU())
	slots := make([]int, n)
	var c Counter
	cache := NewCache(2, func() *obj { return new(obj) })
	for i := range 1000 {
		id := Pin()
		if id < 0 || id >= n {
			fail("Pin() = %d with GOMAXPROCS %d, NumCPU %d", id, runtime.GOMAXPROCS(0), runtime.NumCPU())
		}
		slots[id]++
		Unpin()
		c.Add(2)
		var held []*obj
		for range i % 7 {
			held = append(held, cache.Get())
		}
		for _, o := range held {
			cache.Put(o)
		}
	}
	if got := c.Load(); got != 2000 {
		fail("Counter.Load() = %d, want 2000", got)
	}
}

// TestAffinityMask: under taskset -c 1 (and GOMAXPROCS=1) the CPU number
// is above NumCPU-1; Pin, Counter and Cache keep within their tables.
func TestAffinityMask(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("taskset is Linux's")
	}
	ts, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("no taskset")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("CPU 1 is not in this process's affinity mask")
	}
	runChild(t, "noop") // skips where the test binary cannot exec itself (qemu-user)
	for _, c := range hal.Selected() {
		if c.Op == "cpu" && c.Variant != "portable" && runtime.GOARCH == "amd64" && testexec.Emulated() {
			// As in hal's TestCPU: qemu-user's RDTSCP and LSL read the
			// emulator's CPU number (0), not the kernel's.
			t.Skipf("cpu=%s under qemu-user reads the emulator's CPU number, not taskset's CPU 1", c.Variant)
		}
	}
	stderr, code := runChildUnder(t, []string{ts, "-c", "1"}, "affinity", "GOMAXPROCS=1")
	if code != 0 {
		t.Fatalf("under taskset -c 1: exit %d, stderr %q", code, firstLines(stderr, 3))
	}
}

// underPinGoroutines is how many goroutines the under-Pin tests run, on as
// many Ps.
const underPinGoroutines = 4

// counterUnderPin: goroutines add to fresh Counters inside their own Pin,
// so that the first Add of each (which grows its table) meets the others'.
func counterUnderPin() {
	runtime.GOMAXPROCS(underPinGoroutines)
	cs := make([]Counter, 20000)
	var wg sync.WaitGroup
	for range underPinGoroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range cs {
				Pin()
				cs[i].Add(1)
				cs[i].Add(2)
				Unpin()
			}
		}()
	}
	wg.Wait()
	for i := range cs {
		if got := cs[i].Load(); got != 3*underPinGoroutines {
			fmt.Fprintf(os.Stderr, "counter %d: Load = %d, want %d\n", i, got, 3*underPinGoroutines)
			os.Exit(3)
		}
	}
}

// cacheUnderPin: goroutines Get and Put inside their own Pin, with small
// buckets, so that they exchange buckets with the depot all the time and
// meet at its mutex; no object may be handed to two goroutines at once.
func cacheUnderPin() {
	runtime.GOMAXPROCS(underPinGoroutines)
	c := NewCache(2, func() *obj { return new(obj) })
	var wg sync.WaitGroup
	var double atomic.Int64
	for g := range underPinGoroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var held [7]*obj
			for i := range 50000 {
				k := 1 + (g+i)%len(held)
				Pin()
				for j := range k {
					held[j] = c.Get()
					if !held[j].inUse.CompareAndSwap(0, 1) {
						double.Add(1)
					}
				}
				for j := range k {
					held[j].inUse.Store(0)
					c.Put(held[j])
				}
				Unpin()
			}
		}()
	}
	wg.Wait()
	if n := double.Load(); n != 0 {
		fmt.Fprintf(os.Stderr, "%d Gets returned an object another goroutine held\n", n)
		os.Exit(3)
	}
}

// TestUnderOuterPin: Counter.Add, Cache.Get and Cache.Put called inside
// the caller's own Pin, by 4 goroutines at once. Their slow paths (a
// Counter's first Add grows its table; a Cache exchanges buckets with its
// depot) must not block while pinned: a contended mutex parks the
// goroutine, which the runtime makes a fatal error ("schedule: holding
// locks"). Run in a child process, so that such a failure is reported
// rather than ending the test binary.
func TestUnderOuterPin(t *testing.T) {
	for _, what := range []string{"counter-under-pin", "cache-under-pin"} {
		stderr, code := runChild(t, what)
		if code != 0 {
			t.Errorf("%s: exit %d, stderr %q", what, code, firstLines(stderr, 3))
		}
	}
}

// runChild re-runs the test binary's helper with PERCPU_TEST_HELPER=what.
// Under qemu-user without binfmt_misc the binary cannot exec itself: set
// GOHAL_TEST_EXEC to the emulator command, as for hal's tests.
func runChild(t *testing.T, what string) (stderr string, code int) {
	t.Helper()
	return runChildUnder(t, nil, what)
}

// runChildUnder is runChild with the child started by the command wrap
// (taskset -c 1, say), extra environment variables in env form after it.
func runChildUnder(t *testing.T, wrap []string, what string, env ...string) (stderr string, code int) {
	t.Helper()
	args := append(append([]string(nil), wrap...), testexec.Argv(os.Args[0], "-test.run=^TestHelperProcess$")...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "PERCPU_TEST_HELPER="+what), env...)
	_, stderr, code = testexec.Run(t, cmd)
	return stderr, code
}

// TestBlockingWhilePinnedIsFatal shows each case the package
// documentation lists as fatal while pinned, with the runtime's message:
// parking or yielding ("schedule: holding locks"), stopping the world
// ("stopTheWorld: holding locks"), a blocking system call whose thread
// returns to find no P ("stopm holding locks"), and a panic ("panic
// holding locks").
//
// Each child runs at GOMAXPROCS 1, so the throwing thread holds the only
// P: a goroutine it made runnable before throwing (Gosched queues the
// caller, a timer or a sender readies it) cannot run on elsewhere, reach
// Unpin on an unpinned thread and print its panic over the throw's.
func TestBlockingWhilePinnedIsFatal(t *testing.T) {
	if !Pinned {
		t.Skip("the fallback build does not pin")
	}
	for what, want := range map[string]string{
		"sleep-pinned":      "schedule: holding locks",
		"chan-pinned":       "schedule: holding locks",
		"mutex-pinned":      "schedule: holding locks",
		"gosched-pinned":    "schedule: holding locks",
		"gc-pinned":         "schedule: holding locks",
		"exit-pinned":       "schedule: holding locks",
		"gomaxprocs-pinned": "stopTheWorld: holding locks",
		"memstats-pinned":   "stopTheWorld: holding locks",
		"stack-pinned":      "stopTheWorld: holding locks",
		"syscall-pinned":    "stopm holding locks",
		"panic-pinned":      "panic holding locks",
	} {
		if what == "syscall-pinned" && !haveSleepSyscall {
			continue
		}
		stderr, code := runChildUnder(t, nil, what, "GOMAXPROCS=1")
		if code == 0 || !strings.Contains(stderr, "fatal error: "+want) {
			t.Errorf("%s: exit %d, stderr %q; want a fatal error %q", what, code, firstLines(stderr, 3), want)
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

func TestShardLayout(t *testing.T) {
	if unsafe.Sizeof(shard{}) != lineSize {
		t.Fatalf("shard is %d bytes, want one %d-byte line", unsafe.Sizeof(shard{}), lineSize)
	}
	if unsafe.Sizeof(local{}) != lineSize {
		t.Errorf("Cache's local is %d bytes, want one %d-byte line", unsafe.Sizeof(local{}), lineSize)
	}
	var c Counter
	c.Add(1)
	for i, s := range c.shards.Load() {
		if a := uintptr(unsafe.Pointer(s)); a%lineSize != 0 {
			t.Errorf("shard %d at %#x, not on a %d-byte line boundary", i, a, lineSize)
		}
	}
}

// TestCounterExact: goroutines add and subtract concurrently; the total
// is exact.
func TestCounterExact(t *testing.T) {
	var c Counter
	if c.Load() != 0 {
		t.Fatal("zero Counter does not Load 0")
	}
	countertest.AddSubtract(t, c.Add, c.Load, max(8, 4*runtime.GOMAXPROCS(0)), countertest.Iterations(50000, 5000))
}

// TestCounterFollowsGOMAXPROCS grows and shrinks GOMAXPROCS while
// goroutines add: the shards follow the growth and no Add is lost.
func TestCounterFollowsGOMAXPROCS(t *testing.T) {
	withProcs(t, 1)
	var c Counter
	c.Add(1)
	if n := len(c.shards.Load()); n < 1 {
		t.Fatalf("%d shards at GOMAXPROCS 1", n)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var added atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := int64(0)
			defer func() { added.Add(n) }()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 100 {
					c.Add(1)
				}
				n += 100
			}
		}()
	}
	for _, p := range []int{2, 8, 3, 16, 1, 4} {
		runtime.GOMAXPROCS(p)
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if got, want := c.Load(), 1+added.Load(); got != want {
		t.Fatalf("Load = %d, want %d", got, want)
	}
	if Pinned {
		if n := len(c.shards.Load()); n < 16 {
			t.Fatalf("%d shards after GOMAXPROCS 16", n)
		}
	}
}

func TestCounterNoAllocs(t *testing.T) {
	var c Counter
	c.Add(1)
	if a := testing.AllocsPerRun(1000, func() { c.Add(1); _ = c.Load() }); a != 0 {
		t.Fatalf("%v allocs per Add+Load", a)
	}
}

type obj struct {
	inUse atomic.Int32
	id    int
	buf   [6]uint64
}

// TestCacheReturnsWhatWasPut: on one P, objects Put come back from Get
// (the buckets and the depot hold them) before New is called again.
func TestCacheReturnsWhatWasPut(t *testing.T) {
	withProcs(t, 1)
	made := 0
	c := NewCache(4, func() *obj { made++; return &obj{id: made} })
	const n = 21 // on the P a private object and 2 buckets of 4; 3 full buckets to the depot, which keeps 2 at GOMAXPROCS 1
	var objs []*obj
	for range n {
		objs = append(objs, c.Get())
	}
	if made != n {
		t.Fatalf("empty cache: %d News for %d Gets", made, n)
	}
	for _, o := range objs {
		c.Put(o)
	}
	kept := 1 + 2*c.BucketSize() + c.DepotBuckets()*c.BucketSize()
	seen := map[*obj]bool{}
	for range n {
		o := c.Get()
		if seen[o] {
			t.Fatalf("object %d returned twice without a Put", o.id)
		}
		seen[o] = true
	}
	if reused := 2*n - made; reused != kept {
		t.Fatalf("%d of %d objects came back, want %d (a private object and 2 buckets of %d on the P, %d in the depot)", reused, n, kept, c.BucketSize(), c.DepotBuckets())
	}
}

// TestCacheHammer: goroutines Get, use and Put objects; no object is
// handed to two goroutines at once, and the cache does not call New
// for every Get.
func TestCacheHammer(t *testing.T) {
	var made atomic.Int64
	c := NewCache(8, func() *obj { made.Add(1); return new(obj) })
	threads := max(8, 4*runtime.GOMAXPROCS(0))
	iters := countertest.Iterations(20000, 3000)
	var wg sync.WaitGroup
	var double atomic.Int64
	for g := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var held []*obj
			for i := range iters {
				o := c.Get()
				if !o.inUse.CompareAndSwap(0, 1) {
					double.Add(1)
				}
				o.buf[i%len(o.buf)]++
				held = append(held, o)
				// Hold up to a bucket and a half, so buckets fill, empty
				// and move through the depot.
				if len(held) > (g%3)*6 || i%7 == 0 {
					for _, h := range held {
						h.inUse.Store(0)
						c.Put(h)
					}
					held = held[:0]
				}
			}
			for _, h := range held {
				h.inUse.Store(0)
				c.Put(h)
			}
		}()
	}
	wg.Wait()
	if n := double.Load(); n != 0 {
		t.Fatalf("%d Gets returned an object another goroutine held", n)
	}
	if m, gets := made.Load(), int64(threads*iters); m > gets/4 {
		t.Fatalf("New called %d times for %d Gets: the cache barely caches", m, gets)
	}
}

func TestCacheBadUse(t *testing.T) {
	for name, f := range map[string]func(){
		"size 0":  func() { NewCache(0, func() *obj { return nil }) },
		"nil New": func() { NewCache[obj](1, nil) },
		"Put nil": func() { NewCache(1, func() *obj { return new(obj) }).Put(nil) },
	} {
		msg := func() (msg any) {
			defer func() { msg = recover() }()
			f()
			return nil
		}()
		if s, _ := msg.(string); !strings.HasPrefix(s, "percpu: ") {
			t.Errorf("%s: recovered %v, want a percpu panic", name, msg)
		}
	}
}

func TestCacheNoAllocs(t *testing.T) {
	c := NewCache(16, func() *obj { return new(obj) })
	c.Put(c.Get())
	if a := testing.AllocsPerRun(1000, func() { c.Put(c.Get()) }); a != 0 {
		t.Fatalf("%v allocs per Get+Put", a)
	}
}

// TestSlotsPay: the structures spread over per-P slots where the pin
// exists or hal.CPU is an instruction, and keep to slot 0 where it is a
// system call.
func TestSlotsPay(t *testing.T) {
	v := waitpolicy.Variant("cpu")
	if want := Pinned || (v != "portable" && v != "syscall"); slotsPay != want {
		t.Fatalf("slotsPay %v with Pinned %v and hal.CPU's variant %q", slotsPay, Pinned, v)
	}
	if !slotsPay {
		for range 100 {
			if id := enter(); id != 0 {
				exit()
				t.Fatalf("enter returned slot %d where slots do not pay", id)
			}
			exit()
		}
	}
}
