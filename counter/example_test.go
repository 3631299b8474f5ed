package counter_test

import (
	"fmt"
	"math"
	"sync"

	"github.com/gohal/gohal/counter"
)

// Three counters, one total: they differ in how they behave when many
// CPUs add at once, not in the result.
func Example() {
	var (
		cas     counter.CASLoop
		fa      counter.FetchAdd
		striped counter.Striped
		wg      sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				cas.Add(1)
				fa.Add(1)
				striped.Add(1)
			}
		}()
	}
	wg.Wait()
	fmt.Println(cas.Load(), fa.Load(), striped.Load())
	// Output: 4000 4000 4000
}

// Striped is for a count many goroutines add to and few read, such as
// requests served: each goroutine adds to a stripe of its own, and Load sums
// the stripes. A Load after the adders have finished sees every Add.
func ExampleStriped() {
	var (
		served counter.Striped
		wg     sync.WaitGroup
	)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				served.Add(int64(w + 1))
			}
		}()
	}
	wg.Wait()
	fmt.Println(served.Load()) // 1000 × (1+2+…+8)
	// Output: 36000
}

// AddLimited enforces a limit, like FreeBSD's per-user process count.
func ExampleFetchAdd_AddLimited() {
	var procs counter.FetchAdd
	for i := range 5 {
		fmt.Println(i, procs.AddLimited(1, 3))
	}
	fmt.Println("count:", procs.Load())
	// Output:
	// 0 true
	// 1 true
	// 2 true
	// 3 false
	// 4 false
	// count: 3
}

// AddLimited refuses a delta that would pass the limit or wrap the
// counter, and leaves the count as it was; a decrement is never limited
// by max.
func ExampleCASLoop_AddLimited() {
	var c counter.CASLoop
	c.Add(5)
	fmt.Println(c.AddLimited(math.MaxInt64, 100), c.Load()) // would wrap
	fmt.Println(c.AddLimited(96, 100), c.Load())            // would pass 100
	fmt.Println(c.AddLimited(95, 100), c.Load())            // exactly 100
	fmt.Println(c.AddLimited(-30, 50), c.Load())            // a decrement: max does not apply
	// Output:
	// false 5
	// false 5
	// true 100
	// true 70
}

// Adder is the counter to reach for: one compare-and-swap while nobody
// contends, per-line cells once goroutines collide.
func ExampleAdder() {
	var (
		requests counter.Adder
		wg       sync.WaitGroup
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				requests.Add(1)
			}
			requests.Add(-10)
		}()
	}
	wg.Wait()
	fmt.Println(requests.Load())
	// Output: 7920
}
