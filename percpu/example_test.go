package percpu_test

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/gohal/gohal/percpu"
)

// A Counter counts from many goroutines without a shared cache line; the
// total is exact once the adders are done.
func ExampleCounter() {
	var requests percpu.Counter
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				requests.Add(1)
			}
		}()
	}
	wg.Wait()
	fmt.Println(requests.Load())
	// Output: 8000
}

// A Cache recycles buffers per P; Get makes a new one only when neither
// the P's buckets nor the depot have one.
func ExampleCache() {
	made := 0
	bufs := percpu.NewCache(16, func() *[4096]byte { made++; return new([4096]byte) })
	for range 100 {
		b := bufs.Get()
		b[0] = 1 // use it
		bufs.Put(b)
	}
	fmt.Println(made <= max(runtime.GOMAXPROCS(0), runtime.NumCPU()))
	// Output: true
}

// Pin gives a short critical section on the current P: between Pin and
// Unpin, per-P data indexed by the returned id has one writer (when
// percpu.Pinned is true). Nothing in between may block, yield or panic.
func ExamplePin() {
	slots := make([]int, runtime.GOMAXPROCS(0))
	id := percpu.Pin()
	if percpu.Pinned {
		slots[id]++ // no other goroutine runs on this P until Unpin
	}
	percpu.Unpin()
	fmt.Println(id >= 0)
	// Output: true
}

// An RWMutex guards read-mostly data as a sync.RWMutex would: replace the
// type and nothing else changes.
func ExampleRWMutex() {
	var (
		mu     percpu.RWMutex
		config = map[string]string{"mode": "fast"}
	)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				mu.RLock()
				_ = config["mode"]
				mu.RUnlock()
			}
		}()
	}
	mu.Lock()
	config["mode"] = "safe"
	mu.Unlock()
	wg.Wait()

	mu.RLock()
	fmt.Println(config["mode"])
	mu.RUnlock()
	// Output: safe
}
