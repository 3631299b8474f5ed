//go:build linux

package suite

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// genericCPU is the CPU number the portable way on Linux: getcpu(2)
// through x/sys/unix, as hal's Go variant does.
func genericCPU() int {
	var c uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&c)), 0, 0); e != 0 {
		return 0
	}
	return int(c)
}
