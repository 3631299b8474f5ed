package hal

import "golang.org/x/sys/unix"

// membarrierCmdPrivateExpedited is membarrier(2)'s
// MEMBARRIER_CMD_PRIVATE_EXPEDITED (linux/membarrier.h).
const membarrierCmdPrivateExpedited = 1 << 3

// membarrierExpedited makes every running thread of the process execute a
// full memory barrier. The process must be registered for the command
// (dispatch's membarrier probe does it), else the kernel returns EPERM.
// A raw system call: the command does not block (it waits only for the
// other CPUs' barriers), so the P is not handed off, and a goroutine that
// has disabled preemption (percpu's pinned writer) may call it.
func membarrierExpedited() error {
	if _, _, e := unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierCmdPrivateExpedited, 0, 0); e != 0 {
		return e
	}
	return nil
}
