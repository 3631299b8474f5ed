//go:build linux

package dispatch

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

var osProbes = []osProbe{
	{FeatureMembarrier, func() (bool, string) { return probeMembarrier(membarrier) }},
}

// membarrier(2) commands (linux/membarrier.h).
const (
	membarrierCmdQuery                    = 0
	membarrierCmdPrivateExpedited         = 1 << 3
	membarrierCmdRegisterPrivateExpedited = 1 << 4
)

// membarrier runs membarrier(2) with cmd and no flags.
func membarrier(cmd uintptr) (uintptr, syscall.Errno) {
	r, _, e := unix.Syscall(unix.SYS_MEMBARRIER, cmd, 0, 0)
	return r, e
}

// probeMembarrier asks the kernel, through sys, for the private expedited
// command and registers the process for it, which that command requires
// before its first use (it fails with EPERM without). A kernel before 4.14,
// a seccomp profile or a sandbox refuses one of the two (ENOSYS, EPERM,
// EINVAL): the result then names the command refused and its errno.
// Tests pass a sys that refuses.
func probeMembarrier(sys func(cmd uintptr) (uintptr, syscall.Errno)) (bool, string) {
	r, e := sys(membarrierCmdQuery)
	switch {
	case e != 0:
		return false, "membarrier query refused: " + errnoText(e)
	case r&membarrierCmdPrivateExpedited == 0:
		return false, fmt.Sprintf("membarrier query: no private expedited command (commands %#x)", r)
	}
	if _, e := sys(membarrierCmdRegisterPrivateExpedited); e != 0 {
		return false, "membarrier registration refused: " + errnoText(e)
	}
	return true, "membarrier private expedited registered"
}

// errnoText is e's name and number, "EPERM (1)".
func errnoText(e syscall.Errno) string {
	name := unix.ErrnoName(e)
	if name == "" {
		name = "errno"
	}
	return fmt.Sprintf("%s (%d)", name, int(e))
}
