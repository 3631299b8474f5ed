package spin

import "syscall"

// osYield asks the kernel to run another thread on this CPU
// (sched_yield), for when the goroutine everyone waits for sits on an OS
// thread the kernel has descheduled.
func osYield() {
	syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
}
