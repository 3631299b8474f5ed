package hal

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

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

// cpuMaskWords is the size of the CPU masks sweepCPUs passes the kernel,
// in 64-bit words: 8192 CPUs, above any kernel's CPU id count
// (the kernel copies only its own mask size, nr_cpu_ids bits).
const cpuMaskWords = 128

// sweepCPUs runs the calling thread on every CPU the process may run on,
// one after another, then gives the thread back its own affinity. It is
// the heavy fence of the degradation (degrade), where membarrier is
// refused; it returns how it fenced, or an error if the kernel refused
// sched_setaffinity (a seccomp filter may), having fenced nothing.
//
// Why it is a heavy fence: sched_setaffinity(2) on the calling thread with
// a one-CPU mask returns only once the thread runs on that CPU, so that
// CPU has switched from whatever it ran to this thread. The kernel's
// scheduler executes a full barrier on every switch (smp_mb__after_spinlock
// in __schedule; membarrier(2) itself relies on it for the CPUs it does
// not interrupt), so each thread of the process has, when the sweep
// leaves its CPU, either executed a full barrier after its last access
// before the sweep came (a store in its store buffer is then visible to
// this thread), or not run on that CPU since (it was switched out, with
// the same barrier, on some CPU). Every access a thread makes after the
// switch on its CPU sees what this thread stored before the sweep, since
// the switch synchronizes with the sweep through the run queue's lock.
// A CPU the kernel will not let the process use (offline, or outside its
// cpuset: EINVAL) runs none of its threads. Threads confined to other
// cpusets than this one (cgroup v2 threaded mode) are outside the sweep.
//
// Only raw system calls, with the goroutine locked to its thread: the P is
// never handed off and nothing parks, so a goroutine that has disabled
// preemption may sweep; each migration costs microseconds, and the sweep
// runs once per process, at the degradation.
func sweepCPUs() (string, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var saved, one [cpuMaskWords]uint64
	n, _, e := unix.RawSyscall(unix.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(saved), uintptr(unsafe.Pointer(&saved)))
	if e != 0 {
		return "", fmt.Errorf("sched_getaffinity: %s", errnoText(e))
	}
	visited := 0
	var err error
	for cpu := 0; cpu < int(n)*8; cpu++ {
		one[cpu/64] = 1 << (cpu % 64)
		_, _, e := unix.RawSyscall(unix.SYS_SCHED_SETAFFINITY, 0, n, uintptr(unsafe.Pointer(&one)))
		one[cpu/64] = 0
		switch e {
		case 0:
			visited++
			continue
		case unix.EINVAL: // not a CPU this process may run on
			continue
		}
		err = fmt.Errorf("sched_setaffinity: %s", errnoText(e))
		break
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SCHED_SETAFFINITY, 0, n, uintptr(unsafe.Pointer(&saved))); e != 0 && err == nil {
		err = fmt.Errorf("sched_setaffinity (restoring the thread's CPUs): %s", errnoText(e))
	}
	if err == nil && visited == 0 {
		err = fmt.Errorf("sched_setaffinity: no CPU accepted")
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ran on each of the process's %d CPUs (sched_setaffinity)", visited), nil
}

// errnoText is e's name and number, "EPERM (1)", as dispatch's probe
// writes it; any other error as it prints.
func errnoText(err error) string {
	if e, ok := err.(syscall.Errno); ok {
		name := unix.ErrnoName(e)
		if name == "" {
			name = "errno"
		}
		return fmt.Sprintf("%s (%d)", name, int(e))
	}
	return err.Error()
}
