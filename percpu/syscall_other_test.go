//go:build !linux

package percpu

import "time"

// haveSleepSyscall reports whether sleepInSyscall exists here: the
// syscall package has no nanosleep outside Linux, so
// TestBlockingWhilePinnedIsFatal leaves its system-call case out.
const haveSleepSyscall = false

func sleepInSyscall(time.Duration) {
	panic("percpu: sleepInSyscall needs nanosleep(2) (Linux)")
}
