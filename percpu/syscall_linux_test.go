package percpu

import (
	"syscall"
	"time"
)

// haveSleepSyscall reports whether sleepInSyscall exists here.
const haveSleepSyscall = true

// sleepInSyscall blocks the calling thread in nanosleep(2) for d, a
// blocking system call that ends by itself (syscallPinned).
func sleepInSyscall(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
		// A signal ended the sleep early; ts holds what is left.
	}
}
