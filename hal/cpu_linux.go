//go:build linux

package hal

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// cpu_portable is op cpu's Go variant: getcpu(2) through x/sys/unix, a
// raw system call (getcpu does not block, so the scheduler need not know).
func cpu_portable() int {
	var c uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&c)), 0, 0); e != 0 {
		return 0
	}
	return int(c)
}
