package counter

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/lab/countertest"
)

// adder is what every counter under test can do.
type adder interface {
	Add(delta int64)
	Load() int64
}

// limited counters also have AddLimited.
type limited interface {
	adder
	AddLimited(delta, max int64) bool
}

// mutexCounter and atomicCounter are the baselines the benchmarks compare
// with.
type mutexCounter struct {
	mu sync.Mutex
	v  int64
}

func (c *mutexCounter) Add(d int64) { c.mu.Lock(); c.v += d; c.mu.Unlock() }
func (c *mutexCounter) Load() int64 { c.mu.Lock(); defer c.mu.Unlock(); return c.v }

type atomicCounter struct {
	_ cacheline.Line
	v atomic.Int64
	_ [cacheline.Size - unsafe.Sizeof(atomic.Int64{})%cacheline.Size]byte
}

func (c *atomicCounter) Add(d int64) { c.v.Add(d) }
func (c *atomicCounter) Load() int64 { return c.v.Load() }

type kind struct {
	name string
	new  func() adder
}

var kinds = []kind{
	{"casloop", func() adder { return new(CASLoop) }},
	{"fetchadd", func() adder { return new(FetchAdd) }},
	{"striped", func() adder { return new(Striped) }},
	{"adder", func() adder { return new(Adder) }},
	{"mutex", func() adder { return new(mutexCounter) }},
	{"atomic", func() adder { return new(atomicCounter) }},
}

// TestValidate has goroutines add and subtract concurrently, checking
// the total at the end: Concurrency Kit's validation for counters, which
// have no critical section to check for exclusion.
func TestValidate(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			c := k.new()
			countertest.AddSubtract(t, c.Add, c.Load, max(4, 2*runtime.GOMAXPROCS(0)), countertest.Iterations(50000, 5000))
		})
	}
}

// TestAddLimited runs many goroutines adding against a limit; the
// successful adds must sum to the final value, which must not exceed the
// limit, and with only positive deltas the limit must be reached exactly
// when the deltas divide it.
func TestAddLimited(t *testing.T) {
	for _, k := range []struct {
		name string
		new  func() limited
	}{
		{"casloop", func() limited { return new(CASLoop) }},
		{"fetchadd", func() limited { return new(FetchAdd) }},
	} {
		t.Run(k.name, func(t *testing.T) {
			c := k.new()
			const max = 10000
			var ok atomic.Int64
			var over atomic.Bool
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range countertest.Iterations(5000, 2000) {
						if c.AddLimited(1, max) {
							ok.Add(1)
						}
						if _, isCAS := c.(*CASLoop); isCAS && c.Load() > max {
							over.Store(true)
						}
					}
				}()
			}
			wg.Wait()
			if got := c.Load(); got != ok.Load() || got > max {
				t.Fatalf("Load = %d, successful adds %d, max %d", got, ok.Load(), max)
			}
			// 8 goroutines × at least 2000 adds of 1 exceed max, and
			// failures only happen at the limit, so it is reached.
			if got := c.Load(); got != max {
				t.Fatalf("Load = %d, want the limit %d", got, max)
			}
			if over.Load() {
				t.Fatal("CASLoop counter seen above its limit")
			}
			if c.AddLimited(1, max) {
				t.Fatal("AddLimited past the limit succeeded")
			}
			if !c.AddLimited(-5, max) || c.Load() != max-5 {
				t.Fatalf("AddLimited(-5) at the limit: %d", c.Load())
			}
		})
	}
}

func TestAddLimitedSequential(t *testing.T) {
	for _, c := range []limited{new(CASLoop), new(FetchAdd)} {
		if !c.AddLimited(5, 5) || c.AddLimited(1, 5) || !c.AddLimited(0, 5) || c.Load() != 5 {
			t.Errorf("%T: limit check wrong, value %d", c, c.Load())
		}
		if c.AddLimited(3, 4) || c.Load() != 5 {
			t.Errorf("%T: failed AddLimited changed the value to %d", c, c.Load())
		}
	}
}

func TestCASLoopRetries(t *testing.T) {
	var c CASLoop
	if r := c.AddRetries(3); r != 0 || c.Load() != 3 {
		t.Fatalf("uncontended AddRetries: %d retries, value %d", r, c.Load())
	}
	// Contended: 4 goroutines hammering; the retries are counted and
	// the value is exact.
	var retries atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			n := 0
			for range 20000 {
				n += c.AddRetries(1)
			}
			retries.Add(int64(n))
		}()
	}
	close(start)
	wg.Wait()
	if c.Load() != 3+80000 {
		t.Fatalf("value %d", c.Load())
	}
	t.Logf("%d retries in 80000 contended adds", retries.Load())
}

func TestStripedSpreads(t *testing.T) {
	var c Striped
	if c.Load() != 0 {
		t.Fatal("zero value not 0")
	}
	c.Add(7)
	s := c.set.Load()
	n := len(s.stripes)
	if n&(n-1) != 0 || n < 4*runtime.GOMAXPROCS(0) && n < 256 || n > 256 {
		t.Fatalf("%d stripes for GOMAXPROCS %d", n, runtime.GOMAXPROCS(0))
	}
	if unsafe.Sizeof(stripe{}) != cacheline.Size {
		t.Fatalf("stripe is %d bytes, want a %d-byte line", unsafe.Sizeof(stripe{}), cacheline.Size)
	}
	// Goroutines that run at the same time have stacks of their own, so
	// their hashes name different slots, and slots start on different
	// stripes: 16 of them, all alive while they add, use more than one
	// stripe. Goroutines that run one after another may reuse one stack,
	// hence one hash and one stripe, and nothing here asks otherwise:
	// they do not contend. So every goroutine first waits until all 16
	// have started, and none returns (freeing its stack) before all have
	// added. Stripes would be used by chance; which ones depends only on
	// the stack addresses, not on how busy the machine is.
	var started, added, wg sync.WaitGroup
	started.Add(16)
	added.Add(16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			started.Wait()
			for range 1000 {
				c.Add(1)
			}
			added.Done()
			added.Wait()
		}()
	}
	wg.Wait()
	used := 0
	for i := range s.stripes {
		if s.stripes[i].v != 0 {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("16 goroutines alive at once used %d stripe(s)", used)
	}
	if c.Load() != 16007 {
		t.Fatalf("Load = %d", c.Load())
	}
}

// TestGoroutineHash checks the hash is stable within a goroutine and
// differs between goroutines that are alive at once (each has a stack of
// its own). Goroutines that run one after another may reuse one stack and
// one hash, so all 32 are kept alive until every one has hashed.
func TestGoroutineHash(t *testing.T) {
	if goroutineHash() != goroutineHash() {
		t.Fatal("hash differs between two calls on one goroutine")
	}
	const n = 32
	var hashes [n]uint32
	var hashed, wg sync.WaitGroup
	hashed.Add(n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hashes[i] = goroutineHash()
			hashed.Done()
			hashed.Wait()
		}()
	}
	wg.Wait()
	seen := map[uint32]bool{}
	for _, h := range hashes {
		seen[h%slots] = true
	}
	if len(seen) < 8 {
		t.Fatalf("%d goroutines alive at once hashed to %d of %d slots: %x", n, len(seen), slots, hashes)
	}
}

func TestNoAllocs(t *testing.T) {
	for _, k := range kinds {
		c := k.new()
		c.Add(1) // Striped allocates its stripes once, here
		if a := testing.AllocsPerRun(1000, func() { c.Add(1); _ = c.Load() }); a != 0 {
			t.Errorf("%s: %v allocs/op", k.name, a)
		}
	}
	var c CASLoop
	if a := testing.AllocsPerRun(1000, func() { c.AddLimited(1, 1<<40); c.AddRetries(1) }); a != 0 {
		t.Errorf("CASLoop limited: %v allocs/op", a)
	}
	var f FetchAdd
	if a := testing.AllocsPerRun(1000, func() { f.AddLimited(1, 1<<40) }); a != 0 {
		t.Errorf("FetchAdd limited: %v allocs/op", a)
	}
}

// TestStripedMoveStep checks that a slot moved on contention always lands
// on a different stripe, for every stripe count the counter can have.
func TestStripedMoveStep(t *testing.T) {
	for n := uint32(4); n <= 256; n <<= 1 {
		mask := n - 1
		for h := uint32(0); h < 1<<14; h += 7 {
			for i := uint32(0); i < n; i += 3 {
				if next := (i + 1 + (h>>8)&(mask>>1)) & mask; next == i {
					t.Fatalf("n=%d h=%#x: slot at stripe %d moves to itself", n, h, i)
				}
			}
		}
	}
}

// TestAddLimitedEdges checks AddLimited at the ends of int64 for both
// counters: a delta that would overflow, wrap below math.MinInt64 or pass
// max is refused and leaves the counter unchanged (issue 10 item 1: a
// counter at 5 accepted AddLimited(math.MaxInt64, 100) and wrapped).
func TestAddLimitedEdges(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	cases := []struct {
		start, delta, max int64
		ok                bool
	}{
		{5, maxI, 100, false},      // the case: wraps
		{5, maxI, maxI, false},     // overflows even with no limit
		{5, maxI - 5, maxI, true},  // exactly MaxInt64
		{5, maxI - 4, maxI, false}, // one past
		{0, maxI, maxI, true},
		{-1, maxI, maxI, true},
		{minI, maxI, 0, true},       // -1
		{minI, maxI, -2, false},     // -1 passes max -2
		{-10, 5, -5, true},          // negative max, exactly at it
		{-10, 6, -5, false},         // one past a negative max
		{minI, 1, minI, false},      // max MinInt64 admits no positive delta
		{200, 1, 100, false},        // above max already
		{200, -50, 100, true},       // a decrement is not limited by max
		{minI + 5, -5, 0, true},     // down to exactly MinInt64
		{minI + 5, -6, 0, false},    // wraps below MinInt64
		{-5, minI, 0, false},        // wraps
		{0, minI, 0, true},          // exactly MinInt64
		{maxI, minI, 0, true},       // -1
		{3, 1 << 40, 1 << 41, true}, // large deltas take the CAS path
		{3, 1 << 40, 1 << 40, false},
		{1 << 62, 1, maxI, true},
		{3, 0, 2, true}, // delta 0 counts as a decrement: never limited by max
	}
	for _, tc := range cases {
		for _, c := range []interface {
			limited
			set(int64)
		}{new(CASLoop), new(FetchAdd)} {
			c.set(tc.start)
			got := c.AddLimited(tc.delta, tc.max)
			want := tc.start
			if tc.ok {
				want = tc.start + tc.delta
			}
			if got != tc.ok || c.Load() != want {
				t.Errorf("%T at %d: AddLimited(%d, %d) = %v, value %d; want %v, value %d",
					c, tc.start, tc.delta, tc.max, got, c.Load(), tc.ok, want)
			}
		}
	}
}

// TestAddLimitedNeverPassesMax hammers AddLimited with deltas of every
// size, positive and negative, near the top of int64, and checks after
// each call that the counter never passed max and that the successful
// deltas sum to the final value.
func TestAddLimitedNeverPassesMax(t *testing.T) {
	for _, c := range []interface {
		limited
		set(int64)
	}{new(CASLoop), new(FetchAdd)} {
		t.Run(fmt.Sprintf("%T", c), func(t *testing.T) {
			const max int64 = math.MaxInt64 - 10
			c.set(max - 1000)
			deltas := []int64{1, 7, 1 << 33, math.MaxInt64, -3, math.MinInt64, 1 << 61, -(1 << 40)}
			var sum atomic.Int64 // successful deltas, wrapping like the counter
			var bad atomic.Int64
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var mine int64
					for i := range countertest.Iterations(20000, 2000) {
						d := deltas[(g+i)%len(deltas)]
						if c.AddLimited(d, max) {
							mine += d
						}
						// Above max: FetchAdd's take-back path is
						// not used this close to the top.
						if c.Load() > max {
							bad.Add(1)
						}
					}
					sum.Add(mine)
				}()
			}
			wg.Wait()
			if bad.Load() != 0 {
				t.Fatalf("counter seen above max %d times", bad.Load())
			}
			if got, want := c.Load(), max-1000+sum.Load(); got != want || got > max {
				t.Fatalf("Load = %d, want start + successful deltas = %d (max %d)", got, want, max)
			}
		})
	}
}
