//go:build !linux

package hal_test

import "testing"

// onEachCPU is Linux's (sched_setaffinity); TestCPU returns before it
// elsewhere, where every variant of cpu is the portable 0.
func onEachCPU(t *testing.T, _ int, _ func(cpu int)) {
	t.Helper()
	t.Fatal("onEachCPU needs sched_setaffinity (Linux)")
}

// allowedCPUs returns nil: no affinity mask to check against here.
func allowedCPUs() func(cpu int) bool { return nil }
