package hal_test

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/gohal/gohal/hal"
)

func ExampleFetchAddUint64() {
	var next uint64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				hal.FetchAddUint64(&next, 1) // returns the ticket taken
			}
		}()
	}
	wg.Wait()
	fmt.Println(hal.FetchAddUint64(&next, 1), next)
	// Output: 4000 4001
}

func ExampleCompareAndSwapUint32() {
	state := uint32(1)
	fmt.Println(hal.CompareAndSwapUint32(&state, 0, 2), state)
	fmt.Println(hal.CompareAndSwapUint32(&state, 1, 2), state)
	// Output:
	// false 1
	// true 2
}

func ExampleUint128() {
	// A 128-bit word updated as a whole: here a value and a version
	// counter, so that a reader can tell a changed-and-changed-back value
	// (the ABA problem) from an unchanged one.
	var w hal.Uint128
	w.Store(10, 0)
	for {
		val, ver := w.Load()
		if w.CompareAndSwap(val, ver, val*2, ver+1) {
			break
		}
	}
	fmt.Println(w.Load())
	// Output: 20 1
}

func ExampleSelected() {
	// Which variant runs each op on this machine, and why. The variants
	// depend on the CPU (and on GOHAL), so this prints only what holds
	// everywhere: every op has a choice with its reason, the asymmetric
	// fence pair's (op fenceheavy) among them. Print c.Op, c.Variant and
	// c.Reason to see them (go run ./cmd/halbench features prints them all).
	choices := hal.Selected()
	complete, pair := 0, false
	for _, c := range choices {
		if c.Op != "" && c.Variant != "" && c.Reason != "" {
			complete++
		}
		pair = pair || c.Op == "fenceheavy"
	}
	fmt.Println("every choice has a variant and a reason:", complete == len(choices))
	fmt.Println("the fence pair has a choice:", pair)
	// Output:
	// every choice has a variant and a reason: true
	// the fence pair has a choice: true
}

// SpinLockUint32 is a whole test-and-test-and-set acquire loop in one call.
// It gives up after its budget of pauses, and the caller yields before
// trying again, so that a descheduled holder gets to run.
func ExampleSpinLockUint32() {
	var (
		lock  uint32 // 0 free, 1 held
		total int    // guarded by lock
		wg    sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				for !hal.SpinLockUint32(&lock, 128) {
					runtime.Gosched()
				}
				total++
				hal.StoreReleaseUint32(&lock, 0) // unlock
			}
		}()
	}
	wg.Wait()
	// With a budget of 0 it is a TryLock.
	fmt.Println(total, hal.SpinLockUint32(&lock, 0), hal.SpinLockUint32(&lock, 0))
	// Output: 4000 true false
}

// Message passing: the writer fills a buffer with plain stores, then
// publishes it with a release store of a flag; a reader that sees the flag
// with an acquire load sees the whole buffer. Release and acquire are all
// that this needs, and on some CPUs cheaper than sync/atomic's sequentially
// consistent Store and Load.
func ExampleStoreReleaseUint64() {
	var (
		msg   [3]string // plain memory
		ready uint64
		done  = make(chan struct{})
	)
	go func() {
		defer close(done)
		for hal.LoadAcquireUint64(&ready) == 0 {
			runtime.Gosched() // a real reader would spin a little (hal.Pause) first
		}
		fmt.Println(msg[0], msg[1], msg[2])
	}()
	msg = [3]string{"written", "before", "release"}
	hal.StoreReleaseUint64(&ready, 1)
	<-done
	// Output: written before release
}

// Cycles counts ticks of the CPU's cycle counter; CycleFrequency converts
// them to seconds. Here a 1 ms sleep measures at least about 1 ms (the
// sleep may take longer, never shorter).
func ExampleCycles() {
	start := hal.Cycles()
	time.Sleep(time.Millisecond)
	ticks := hal.Cycles() - start
	elapsed := time.Duration(float64(ticks) / hal.CycleFrequency() * float64(time.Second))
	fmt.Println(elapsed >= 900*time.Microsecond)
	// Output: true
}
