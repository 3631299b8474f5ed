package hal_test

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/gohal/gohal/dispatch"
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
	// everywhere: every op of this build has a choice, and it is one this
	// CPU can run. Print c.Variant and c.Reason to see the choices
	// (go run ./cmd/halbench features prints them all).
	choices := hal.Selected()
	runnable := 0
	for _, c := range choices {
		if ok, _ := hal.Runnable(c.Op, c.Variant); ok && c.Reason != "" {
			runnable++
		}
	}
	fmt.Println("every op has a choice:", len(choices) == len(hal.Ops()))
	fmt.Println("every choice runs here:", runnable == len(choices))
	// Output:
	// every op has a choice: true
	// every choice runs here: true
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

// Force switches an op to another of its variants in a running program, as
// a benchmark comparing the variants does; restore puts the previous choice
// back. Values written under one variant are valid under the others.
func ExampleForce() {
	var n uint64
	variants, _ := hal.Variants("fetchadd64")
	forced := 0
	for _, v := range variants {
		if ok, _ := hal.Runnable("fetchadd64", v.Name); !ok {
			continue // needs a feature this CPU lacks
		}
		restore, err := hal.Force("fetchadd64", v.Name)
		if err != nil {
			continue // a gohal_static build compiles in one variant only
		}
		hal.FetchAddUint64(&n, 1)
		restore()
		forced++
	}
	fmt.Println(n == uint64(forced), forced > 0)

	// A variant that does not exist is refused, and nothing changes.
	_, err := hal.Force("fetchadd64", "abacus")
	var oe *dispatch.OverrideError
	if errors.As(err, &oe) {
		fmt.Printf("refused: op %s, variant %s\n", oe.Op, oe.Variant)
	}
	// Output:
	// true true
	// refused: op fetchadd64, variant abacus
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

func ExampleTable() {
	// The dispatch table offers the chosen variants as func values, for
	// callers that keep operations in data.
	add := hal.Table().FetchAddUint64.Func
	var n uint64
	add(&n, 5)
	fmt.Println(n)
	// Output: 5
}

func ExampleInlined() {
	// Whether hal.FetchAddUint64 runs the compiler's inlined intrinsic
	// right now, with no call: on amd64 always (binding "inline"); on
	// arm64 (binding "guarded") while the chosen variant is what the
	// intrinsic runs on this CPU, so not under GOHAL=fetchadd64=llsc. The
	// output depends on the CPU and GOHAL, so it is not checked here.
	fmt.Println(hal.Binding("fetchadd64"), hal.Inlined("fetchadd64"))
}
