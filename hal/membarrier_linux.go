package hal

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// membarrier(2) commands (linux/membarrier.h).
const (
	membarrierCmdQuery                    = 0
	membarrierCmdPrivateExpedited         = 1 << 3
	membarrierCmdRegisterPrivateExpedited = 1 << 4
)

var (
	membarrierOnce sync.Once
	membarrierErr  error
)

// membarrierRegister asks the kernel for the private expedited command and
// registers the process for it, once; the error names the refusal's errno
// (ENOSYS from an old kernel or qemu-user, EPERM or ENOSYS from a seccomp
// profile or sandbox).
func membarrierRegister() error {
	membarrierOnce.Do(func() {
		r, _, e := unix.Syscall(unix.SYS_MEMBARRIER, membarrierCmdQuery, 0, 0)
		switch {
		case e != 0:
			membarrierErr = fmt.Errorf("membarrier query refused: %s (%d)", unix.ErrnoName(e), int(e))
		case r&membarrierCmdPrivateExpedited == 0:
			membarrierErr = fmt.Errorf("membarrier query: no private expedited command (mask %#x)", r)
		default:
			if _, _, e := unix.Syscall(unix.SYS_MEMBARRIER, membarrierCmdRegisterPrivateExpedited, 0, 0); e != 0 {
				membarrierErr = fmt.Errorf("membarrier registration refused: %s (%d)", unix.ErrnoName(e), int(e))
			}
		}
	})
	return membarrierErr
}

// membarrierExpedited makes every running thread of the process execute a
// full memory barrier.
func membarrierExpedited() error {
	if _, _, e := unix.Syscall(unix.SYS_MEMBARRIER, membarrierCmdPrivateExpedited, 0, 0); e != 0 {
		return e
	}
	return nil
}
