package hal_test

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// onEachCPU binds the calling goroutine's thread to each of the first n
// CPUs the process may run on, one at a time (sched_setaffinity: the
// kernel moves the thread before the call returns), and calls f with that
// CPU's number there. It restores the thread's mask before it returns.
func onEachCPU(t *testing.T, n int, f func(cpu int)) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var orig unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		t.Fatalf("sched_getaffinity: %v", err)
	}
	defer unix.SchedSetaffinity(0, &orig)
	tried := 0
	for c := 0; c < len(orig)*64 && tried < n; c++ {
		if !orig.IsSet(c) {
			continue
		}
		tried++
		var one unix.CPUSet
		one.Set(c)
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatalf("sched_setaffinity to CPU %d: %v", c, err)
		}
		f(c)
	}
	if tried == 0 {
		t.Fatal("the affinity mask names no CPU")
	}
}

// allowedCPUs returns whether the process may run on a CPU, from its
// affinity mask, or nil if the mask cannot be read.
func allowedCPUs() func(cpu int) bool {
	var mask unix.CPUSet
	if unix.SchedGetaffinity(0, &mask) != nil {
		return nil
	}
	return mask.IsSet
}
