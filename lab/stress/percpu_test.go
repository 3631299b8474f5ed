package stress

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/percpu"
)

// percpu.Counter, 32 goroutines on 2 Ps with the GC running: adds and
// subtracts, some goroutines yielding and allocating between Adds; the
// total is exact.
func TestPercpuCounterOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	var c percpu.Counter
	n := 20 * opsPerGoroutine()
	var sink atomic.Pointer[[]byte]
	hammer(func(g int) {
		for i := range n {
			c.Add(int64(g + 1))
			switch (g + i) % 97 {
			case 0:
				c.Add(-1)
			case 1:
				runtime.Gosched()
			case 2:
				b := make([]byte, 512)
				sink.Store(&b)
			}
		}
	})
	var want int64
	for g := range goroutines {
		for i := range n {
			want += int64(g + 1)
			if (g+i)%97 == 0 {
				want--
			}
		}
	}
	if got := c.Load(); got != want {
		t.Fatalf("Load = %d, want %d", got, want)
	}
}

// percpu.Counter while GOMAXPROCS changes under it, up (new shards) and
// down (shards left behind), with the GC running: no Add is lost, and a
// Load taken between changes never exceeds what was added so far.
func TestPercpuCounterGOMAXPROCSChanges(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	var c percpu.Counter
	var added atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				for range 50 {
					c.Add(1)
				}
				added.Add(50)
			}
		})
	}
	within(t, 60*time.Second, "GOMAXPROCS changes", func() {
		for _, p := range []int{4, 1, 8, 2, 16, 3, 2} {
			runtime.GOMAXPROCS(p)
			time.Sleep(3 * time.Millisecond)
			before := c.Load()
			if after := added.Load() + 50*goroutines; before > after {
				t.Errorf("GOMAXPROCS %d: Load %d above the %d adds that can have started", p, before, after)
			}
		}
		close(done)
		wg.Wait()
	})
	if got, want := c.Load(), added.Load(); got != want {
		t.Fatalf("Load = %d, want %d", got, want)
	}
}

// stressObj is a cached object that knows whether someone holds it.
type stressObj struct {
	held atomic.Int32
	sum  uint64
}

// percpu.Cache, 32 goroutines on 2 Ps with the GC running and GOMAXPROCS
// changing: no object is handed to two goroutines at once, and every
// object's running sum (incremented only while held) equals the number of
// times it was held.
func TestPercpuCacheOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	var made sync.Map
	c := percpu.NewCache(8, func() *stressObj {
		o := new(stressObj)
		made.Store(o, true)
		return o
	})
	n := 10 * opsPerGoroutine()
	var double, gets atomic.Int64
	var holds sync.Map // *stressObj -> *atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var mine []*stressObj
			for i := range n {
				o := c.Get()
				gets.Add(1)
				if !o.held.CompareAndSwap(0, 1) {
					double.Add(1)
				}
				o.sum++
				h, _ := holds.LoadOrStore(o, new(atomic.Int64))
				h.(*atomic.Int64).Add(1)
				mine = append(mine, o)
				if len(mine) > g%20 {
					for _, m := range mine {
						m.held.Store(0)
						c.Put(m)
					}
					mine = mine[:0]
				}
				if i%101 == 0 {
					runtime.Gosched()
				}
			}
			for _, m := range mine {
				m.held.Store(0)
				c.Put(m)
			}
		})
		if g == goroutines/2 {
			runtime.GOMAXPROCS(4)
		}
	}
	wg.Wait()
	runtime.GOMAXPROCS(2)
	if d := double.Load(); d != 0 {
		t.Fatalf("%d Gets returned an object another goroutine held", d)
	}
	var total int64
	holds.Range(func(k, v any) bool {
		o, h := k.(*stressObj), v.(*atomic.Int64).Load()
		if _, ok := made.Load(o); !ok {
			t.Errorf("Get returned an object New never made")
		}
		if int64(o.sum) != h {
			t.Errorf("object held %d times has sum %d: a write while someone else held it was lost", h, o.sum)
		}
		total += h
		return true
	})
	if total != gets.Load() {
		t.Fatalf("%d holds recorded for %d Gets", total, gets.Load())
	}
}

// percpu.Counter and percpu.Cache called inside the caller's own Pin, by
// 32 goroutines on 2 Ps with the GC running: fresh Counters (each first
// Add grows a table) and a Cache with buckets of 2 (the depot is
// exchanged with all the time). Nothing may block while pinned — the
// runtime would end the program with "schedule: holding locks" — no
// object may be handed out twice, and every total is exact.
func TestPercpuUnderPinOversubscribed(t *testing.T) {
	stop := oversubscribe(t)
	defer stop()
	counters := make([]percpu.Counter, 64)
	c := percpu.NewCache(2, func() *stressObj { return new(stressObj) })
	n := 10 * opsPerGoroutine()
	var double atomic.Int64
	hammer(func(g int) {
		var held [5]*stressObj
		for i := range n {
			k := 1 + (g+i)%len(held)
			percpu.Pin()
			counters[i%len(counters)].Add(1)
			for j := range k {
				held[j] = c.Get()
				if !held[j].held.CompareAndSwap(0, 1) {
					double.Add(1)
				}
			}
			for j := range k {
				held[j].held.Store(0)
				c.Put(held[j])
			}
			percpu.Unpin()
			if i%101 == 0 {
				runtime.Gosched()
			}
		}
	})
	if d := double.Load(); d != 0 {
		t.Fatalf("%d Gets returned an object another goroutine held", d)
	}
	var total int64
	for i := range counters {
		total += counters[i].Load()
	}
	if want := int64(goroutines * n); total != want {
		t.Fatalf("counters sum to %d, want %d", total, want)
	}
}
