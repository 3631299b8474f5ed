//go:build linux && !race

package percpu

import (
	"fmt"

	"github.com/gohal/gohal/hal"
	"golang.org/x/sys/unix"
)

// membarrier(2) commands.
const (
	membarrierQuery                    = 0
	membarrierPrivateExpedited         = 1 << 3
	membarrierRegisterPrivateExpedited = 1 << 4
)

// asymmetric reports whether fenceHeavy is a private expedited membarrier:
// queried, then registered once, at init. A kernel, seccomp profile or
// emulator that refuses either leaves it false, and asymmetricWhy names
// the errno.
var asymmetric = func() bool {
	r, _, e := unix.Syscall(unix.SYS_MEMBARRIER, membarrierQuery, 0, 0)
	if e != 0 {
		asymmetricWhy = fmt.Sprintf("membarrier(MEMBARRIER_CMD_QUERY) failed: %v", e)
		return false
	}
	if r&membarrierPrivateExpedited == 0 {
		asymmetricWhy = fmt.Sprintf("membarrier: the kernel lacks MEMBARRIER_CMD_PRIVATE_EXPEDITED (commands %#x)", r)
		return false
	}
	if _, _, e := unix.Syscall(unix.SYS_MEMBARRIER, membarrierRegisterPrivateExpedited, 0, 0); e != 0 {
		asymmetricWhy = fmt.Sprintf("membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed: %v", e)
		return false
	}
	asymmetricWhy = "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) is registered"
	return true
}()

// fenceLight is the readers' side: a compiler barrier where asymmetric
// (see fence.go), else a full fence.
func fenceLight() {
	if !asymmetric {
		hal.Fence()
	}
}

// fenceHeavy is the writer's side: every running thread of the process
// executes a full barrier before it returns (a system call that
// interrupts each CPU running the process), else a full fence.
func fenceHeavy() {
	if !asymmetric {
		hal.Fence()
		return
	}
	// RawSyscall: no hand-off of the P, so a pinned writer may call it (the
	// call does not block; it waits only for the other CPUs' barriers).
	if _, _, e := unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierPrivateExpedited, 0, 0); e != 0 {
		// Registered at init, so the kernel cannot refuse it now.
		panic(fmt.Sprintf("percpu: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration: %v", e))
	}
}
