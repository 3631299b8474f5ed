package percpu

import (
	"golang.org/x/sys/unix"
)

// TEMPORARY until hal.FenceLight/FenceHeavy land.
var asymmetric = func() bool {
	if raceEnabled {
		return false
	}
	_, _, e := unix.Syscall(unix.SYS_MEMBARRIER, 1<<4, 0, 0)
	return e == 0
}()

func fenceLight() {}
func fenceHeavy() {
	if asymmetric {
		unix.Syscall(unix.SYS_MEMBARRIER, 1<<3, 0, 0)
	} else {
		atomicFence()
	}
}
