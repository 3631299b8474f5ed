package stress

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/counter"
	"github.com/gohal/gohal/refcount"
	"github.com/gohal/gohal/spin"
)

const goroutines = 32

// oversubscribe sets GOMAXPROCS to 2 (fewer CPUs than goroutines by far)
// and keeps the garbage collector running until the returned stop is called.
func oversubscribe(t *testing.T) (stop func()) {
	t.Helper()
	prev := runtime.GOMAXPROCS(2)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var junk [][]byte
		for {
			select {
			case <-done:
				return
			default:
			}
			junk = append(junk, make([]byte, 64<<10))
			if len(junk) > 16 {
				junk = junk[:0]
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	})
	return func() {
		close(done)
		wg.Wait()
		runtime.GOMAXPROCS(prev)
	}
}

// within fails the test if f does not return in d: a lock that wedges its
// waiters must fail, not hang the test binary.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		f()
	}()
	select {
	case <-finished:
	case <-time.After(d):
		buf := make([]byte, 1<<16)
		n := runtime.Stack(buf, true)
		t.Fatalf("%s did not finish in %v; goroutines:\n%s", what, d, buf[:n])
	}
}

// hammer runs f(g) on goroutines goroutines, g from 0, and waits for them.
func hammer(f func(g int)) {
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() { f(g) })
	}
	wg.Wait()
}

func opsPerGoroutine() int {
	if testing.Short() {
		return 300
	}
	// The FIFO locks (Ticket, MCS) hand off to a waiter that, with 32
	// goroutines on 2 Ps, is usually not running: each handoff waits for
	// the scheduler (~100-200 µs here), so keep the count moderate.
	return 1000
}

type lockUnderTest struct {
	name string
	new  func() sync.Locker
}

func locks() []lockUnderTest {
	return []lockUnderTest{
		{"Mutex", func() sync.Locker { return new(sync.Mutex) }}, // the baseline the others' times are logged against
		{"TAS", func() sync.Locker { return new(spin.TAS) }},
		{"TTAS", func() sync.Locker { return new(spin.TTAS) }},
		{"Asm", func() sync.Locker { return new(spin.Asm) }},
		{"Backoff", func() sync.Locker { return new(spin.Backoff) }},
		{"Ticket", func() sync.Locker { return new(spin.Ticket) }},
		{"MCS", func() sync.Locker { return new(spin.MCS) }},
	}
}

// Every lock, 32 goroutines on 2 Ps with the GC running: mutual exclusion
// holds (a flag no one else may see set), the protected count is exact,
// and a goroutine that yields or allocates inside the critical section does
// not wedge the others. Each lock's time is logged with its ratio to
// sync.Mutex's (run first): a figure to read (-v), not an assertion, since
// other processes on the machine deschedule the goroutines at random.
func TestLocksOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	n := opsPerGoroutine()
	var mutexTime time.Duration
	for _, lk := range locks() {
		t.Run(lk.name, func(t *testing.T) {
			start := time.Now()
			defer func() {
				d := time.Since(start)
				if lk.name == "Mutex" {
					mutexTime = d
				}
				t.Logf("%s: %d acquisitions by %d goroutines on 2 Ps in %v: %.2f× sync.Mutex's %v", lk.name,
					goroutines*n, goroutines, d, float64(d)/float64(mutexTime), mutexTime)
			}()
			mu := lk.new()
			var inside atomic.Int32
			var violations atomic.Int64
			var protected int64
			var sink []byte
			within(t, 60*time.Second, lk.name, func() {
				hammer(func(g int) {
					for i := range n {
						mu.Lock()
						if inside.Add(1) != 1 {
							violations.Add(1)
						}
						protected++
						switch (g + i) % 64 {
						case 0:
							runtime.Gosched() // holder gives up its P mid-section
						case 1:
							sink = make([]byte, 256) // allocate, maybe assist the GC
						}
						protected--
						protected++
						inside.Add(-1)
						mu.Unlock()
					}
				})
			})
			_ = sink
			if v := violations.Load(); v != 0 {
				t.Fatalf("mutual exclusion violated %d times", v)
			}
			if want := int64(goroutines * n); protected != want {
				t.Fatalf("protected count = %d, want %d", protected, want)
			}
		})
	}
}

// A holder that is descheduled for a long time (it sleeps inside the
// critical section) must not wedge the 31 waiters: once it releases, all of
// them get through, in bounded time, and they yield rather than spin the
// holder off its CPU meanwhile.
func TestLockHolderDescheduled(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	for _, lk := range locks() {
		t.Run(lk.name, func(t *testing.T) {
			mu := lk.new()
			var got atomic.Int32
			within(t, 30*time.Second, lk.name, func() {
				mu.Lock()
				var wg sync.WaitGroup
				for range goroutines - 1 {
					wg.Go(func() {
						for range 10 {
							mu.Lock()
							got.Add(1)
							mu.Unlock()
						}
					})
				}
				// The waiters pile up while the holder sleeps. The sleep
				// timer only fires if the waiters leave the Ps to the
				// runtime now and then, which is the property under test.
				time.Sleep(50 * time.Millisecond)
				if n := got.Load(); n != 0 {
					t.Errorf("%d acquisitions while the lock was held", n)
				}
				mu.Unlock()
				wg.Wait()
			})
			if n := got.Load(); n != (goroutines-1)*10 {
				t.Fatalf("acquisitions = %d, want %d", n, (goroutines-1)*10)
			}
		})
	}
}

// Counters under the same conditions: exact totals, and AddLimited never
// lets the value past its limit.
func TestCountersOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	n := opsPerGoroutine() * 30
	type ctr interface {
		Add(int64)
		Load() int64
	}
	for _, c := range []struct {
		name string
		c    ctr
	}{{"CASLoop", new(counter.CASLoop)}, {"FetchAdd", new(counter.FetchAdd)}, {"Striped", new(counter.Striped)}} {
		t.Run(c.name, func(t *testing.T) {
			within(t, 60*time.Second, c.name, func() {
				hammer(func(g int) {
					for i := range n {
						c.c.Add(int64(g%3 + 1))
						if i%97 == 0 {
							runtime.Gosched()
						}
					}
				})
			})
			var want int64
			for g := range goroutines {
				want += int64(n * (g%3 + 1))
			}
			if got := c.c.Load(); got != want {
				t.Fatalf("total = %d, want %d", got, want)
			}
		})
	}
	type limited interface {
		AddLimited(delta, max int64) bool
		Load() int64
	}
	for _, c := range []struct {
		name string
		c    limited
		// transient: FetchAdd's AddLimited adds first and takes the
		// delta back when over the limit (as FreeBSD's chgproccnt does),
		// so a concurrent Load may see the excess for a moment; a CAS
		// loop never stores a value over the limit.
		transient bool
	}{{"CASLoop", new(counter.CASLoop), false}, {"FetchAdd", new(counter.FetchAdd), true}} {
		t.Run(c.name+"/AddLimited", func(t *testing.T) {
			const max = 5000
			var ok atomic.Int64
			var over atomic.Int64
			within(t, 60*time.Second, c.name, func() {
				hammer(func(int) {
					for range n / 10 {
						if c.c.AddLimited(1, max) {
							ok.Add(1)
						}
						if v := c.c.Load(); v > max {
							over.Add(1)
						}
					}
				})
			})
			if over.Load() != 0 && !c.transient {
				t.Fatalf("value seen above the limit %d times", over.Load())
			}
			if got := c.c.Load(); got != ok.Load() || got > max {
				t.Fatalf("value %d, successful adds %d, limit %d", got, ok.Load(), max)
			}
		})
	}
}

// A refcount shared by 32 goroutines taking and dropping references ends
// where it started, never saturates, and the final DecAndTest reports zero
// exactly once.
func TestRefcountOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	var saturations atomic.Int32
	prev := refcount.OnSaturate(func(event string) { saturations.Add(1); t.Errorf("saturated: %s", event) })
	defer refcount.OnSaturate(prev)
	var c refcount.Count
	c.Set(1)
	n := opsPerGoroutine() * 30
	var zeros atomic.Int32
	within(t, 60*time.Second, "refcount", func() {
		hammer(func(g int) {
			for i := range n {
				if !c.IncNotZero() {
					t.Errorf("IncNotZero failed on a live count")
					return
				}
				if (g+i)%50 == 0 {
					runtime.Gosched()
				}
				if c.DecAndTest() {
					zeros.Add(1)
				}
			}
		})
	})
	if got := c.Load(); got != 1 {
		t.Fatalf("count = %d, want 1", got)
	}
	if !c.DecAndTest() {
		t.Fatal("last DecAndTest did not report zero")
	}
	if zeros.Load() != 0 || saturations.Load() != 0 || c.Saturated() {
		t.Fatalf("zeros=%d saturations=%d saturated=%v", zeros.Load(), saturations.Load(), c.Saturated())
	}
	if c.IncNotZero() {
		t.Fatal("IncNotZero resurrected a count at zero")
	}
}
