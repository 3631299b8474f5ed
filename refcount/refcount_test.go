package refcount_test

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/lab/refimpl"
	"github.com/gohal/gohal/refcount"
)

// counter is the method set Count shares with the counts in
// lab/refimpl that exist only to be measured against it; the tests
// (an external test package, as refimpl imports refcount) run all four.
type counter interface {
	Set(n int32)
	Load() int32
	Inc()
	IncNotZero() bool
	Dec()
	DecAndTest() bool
}

// checked adds Saturated.
type checked interface {
	counter
	Saturated() bool
}

type kind struct {
	name    string
	new     func() counter
	checked bool
}

var kinds = []kind{
	{"plain", func() counter { return new(refimpl.Plain) }, false},
	{"plain-hal", func() counter { return new(refimpl.PlainHal) }, false},
	{"checked", func() counter { return new(refcount.Count) }, true},
	{"checked-hal", func() counter { return new(refimpl.CountHal) }, true},
}

func forEach(t *testing.T, checkedOnly bool, f func(t *testing.T, k kind)) {
	for _, k := range kinds {
		if checkedOnly && !k.checked {
			continue
		}
		t.Run(k.name, func(t *testing.T) { f(t, k) })
	}
}

// hookRecorder installs a saturation hook that records events, and
// restores the previous hook when the test ends.
func hookRecorder(t *testing.T) *[]string {
	t.Helper()
	var mu sync.Mutex
	var events []string
	prev := refcount.OnSaturate(func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	t.Cleanup(func() { refcount.OnSaturate(prev) })
	return &events
}

func TestBasics(t *testing.T) {
	forEach(t, false, func(t *testing.T, k kind) {
		c := k.new()
		if c.Load() != 0 {
			t.Fatalf("zero value = %d", c.Load())
		}
		if c.IncNotZero() {
			t.Fatal("IncNotZero on 0 succeeded")
		}
		c.Set(1)
		c.Inc()
		c.Inc()
		if !c.IncNotZero() {
			t.Fatal("IncNotZero on 3 failed")
		}
		if got := c.Load(); got != 4 {
			t.Fatalf("count %d, want 4", got)
		}
		c.Dec()
		for i, want := range []bool{false, false, true} {
			if got := c.DecAndTest(); got != want {
				t.Fatalf("DecAndTest #%d = %v, want %v", i, got, want)
			}
		}
		if c.Load() != 0 {
			t.Fatalf("count %d after last DecAndTest", c.Load())
		}
	})
}

// TestSaturation drives each checked counter into each saturating edge and
// checks the count lands on SaturatedValue, stays there through further
// operations, and that the hook fired exactly once with the right event.
func TestSaturation(t *testing.T) {
	edges := []struct {
		name  string
		start int32
		op    func(c checked)
		event string
	}{
		{"inc-on-zero", 0, func(c checked) { c.Inc() }, refcount.EventIncOnZero},
		{"inc-overflow", math.MaxInt32, func(c checked) { c.Inc() }, refcount.EventOverflow},
		{"incnotzero-overflow", math.MaxInt32, func(c checked) {
			if !c.IncNotZero() {
				panic("IncNotZero on MaxInt32 failed")
			}
		}, refcount.EventOverflow},
		{"dec-to-zero", 1, func(c checked) { c.Dec() }, refcount.EventDecToZero},
		{"dec-below-zero", 0, func(c checked) { c.Dec() }, refcount.EventUnderflow},
		{"decandtest-below-zero", 0, func(c checked) {
			if c.DecAndTest() {
				panic("DecAndTest on 0 reported zero")
			}
		}, refcount.EventUnderflow},
	}
	forEach(t, true, func(t *testing.T, k kind) {
		for _, e := range edges {
			t.Run(e.name, func(t *testing.T) {
				events := hookRecorder(t)
				c := k.new().(checked)
				c.Set(e.start)
				e.op(c)
				if got := c.Load(); got != refcount.SaturatedValue {
					t.Fatalf("count %d after %s, want SaturatedValue %d", got, e.name, refcount.SaturatedValue)
				}
				if !c.Saturated() {
					t.Fatal("Saturated() = false")
				}
				// Further use leaves it saturated, never reports zero,
				// and does not report again.
				for range 3 {
					c.Inc()
					if c.Load() != refcount.SaturatedValue {
						t.Fatalf("Inc moved a saturated count to %d", c.Load())
					}
					if !c.IncNotZero() {
						t.Fatal("IncNotZero on a saturated count failed")
					}
					c.Dec()
					if c.DecAndTest() {
						t.Fatal("DecAndTest on a saturated count reported zero")
					}
					if c.Load() != refcount.SaturatedValue {
						t.Fatalf("decrements moved a saturated count to %d", c.Load())
					}
				}
				if len(*events) != 1 || (*events)[0] != e.event {
					t.Fatalf("hook calls %q, want exactly [%q]", *events, e.event)
				}
			})
		}
	})
}

// TestSaturatedCannotReachZero decrements a saturated count many times and
// checks it never reaches zero or a positive value: the kernel's reason
// for putting the saturation point at INT_MIN/2.
func TestSaturatedCannotReachZero(t *testing.T) {
	forEach(t, true, func(t *testing.T, k kind) {
		hookRecorder(t)
		c := k.new().(checked)
		c.Set(0)
		c.Inc() // saturates
		var wg sync.WaitGroup
		var zero atomic.Bool
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5000 {
					if c.DecAndTest() {
						zero.Store(true)
					}
					c.Inc()
					c.Dec()
				}
			}()
		}
		wg.Wait()
		if zero.Load() || c.Load() >= 0 {
			t.Fatalf("saturated count reached %d (zero reported: %v)", c.Load(), zero.Load())
		}
	})
}

// TestConcurrentHookOnce saturates one counter from many goroutines at
// once and checks the hook fired exactly once.
func TestConcurrentHookOnce(t *testing.T) {
	forEach(t, true, func(t *testing.T, k kind) {
		for round := range 20 {
			events := hookRecorder(t)
			c := k.new().(checked)
			c.Set(math.MaxInt32 - 3)
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 10 {
						c.Inc()
					}
				}()
			}
			wg.Wait()
			if len(*events) != 1 {
				t.Fatalf("round %d: hook called %d times: %q", round, len(*events), *events)
			}
			if !c.Saturated() {
				t.Fatalf("round %d: count %d not saturated", round, c.Load())
			}
		}
	})
}

func TestOnSaturateDefault(t *testing.T) {
	prev := refcount.OnSaturate(nil)
	defer refcount.OnSaturate(prev)
	f := refcount.OnSaturate(nil)
	if f == nil {
		t.Fatal("OnSaturate returned a nil previous hook")
	}
	called := 0
	refcount.OnSaturate(func(string) { called++ })
	var c refcount.Count
	c.Inc()
	if called != 1 {
		t.Fatalf("custom hook called %d times", called)
	}
}

// TestValidate runs the lock-free version of Concurrency Kit's validation:
// goroutines take and drop references on a shared count concurrently; the
// count must never be seen at or below zero while every goroutine holds a
// reference, and must return to exactly 1.
func TestValidate(t *testing.T) {
	forEach(t, false, func(t *testing.T, k kind) {
		events := hookRecorder(t)
		c := k.new()
		c.Set(1)
		threads := max(4, runtime.GOMAXPROCS(0)*2)
		iters := 20000
		if testing.Short() {
			iters = 2000
		}
		var wg sync.WaitGroup
		var bad atomic.Int64
		for g := range threads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range iters {
					switch (g + i) % 3 {
					case 0:
						c.Inc()
					default:
						if !c.IncNotZero() {
							bad.Add(1)
						}
					}
					if c.Load() < 2 {
						bad.Add(1)
					}
					if (g+i)%2 == 0 {
						c.Dec()
					} else if c.DecAndTest() {
						bad.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if n := bad.Load(); n != 0 {
			t.Errorf("%d impossible observations", n)
		}
		if got := c.Load(); got != 1 {
			t.Errorf("final count %d, want 1", got)
		}
		if !c.DecAndTest() {
			t.Error("last DecAndTest did not report zero")
		}
		if len(*events) != 0 {
			t.Errorf("saturation events in correct use: %q", *events)
		}
	})
}

// TestLastReferenceOnce checks that exactly one of many concurrent
// DecAndTest calls reports the last reference.
func TestLastReferenceOnce(t *testing.T) {
	forEach(t, false, func(t *testing.T, k kind) {
		for round := range 50 {
			const refs = 16
			c := k.new()
			c.Set(refs)
			var wins atomic.Int32
			var wg sync.WaitGroup
			for range refs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if c.DecAndTest() {
						wins.Add(1)
					}
				}()
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("round %d: %d goroutines saw the last reference", round, wins.Load())
			}
		}
	})
}

func TestNoAllocs(t *testing.T) {
	forEach(t, false, func(t *testing.T, k kind) {
		c := k.new()
		c.Set(1)
		if a := testing.AllocsPerRun(1000, func() {
			c.Inc()
			c.IncNotZero()
			c.Dec()
			c.DecAndTest()
			_ = c.Load()
		}); a != 0 {
			t.Errorf("%v allocs/op", a)
		}
	})
}

func TestSaturatedValue(t *testing.T) {
	if refcount.SaturatedValue != -1<<30 {
		t.Fatalf("SaturatedValue = %d, want INT_MIN/2 = %d", refcount.SaturatedValue, -1<<30)
	}
	// The plain counters wrap: the point of the checked ones.
	var p refimpl.Plain
	p.Set(math.MaxInt32)
	p.Inc()
	if p.Load() != math.MinInt32 {
		t.Fatalf("Plain did not wrap: %d", p.Load())
	}
}
