package sandbox

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Refuse installs, on every thread of the process (seccomp's TSYNC), a
// filter that fails each system call numbered in nrs with errno e and
// allows every other one. It sets no_new_privs first, which an
// unprivileged process needs to install a filter. The filter stays for
// the life of the process and across exec. It fails, installing nothing,
// where the kernel has no seccomp filters or refuses them (an outer
// sandbox, an emulator).
func Refuse(e syscall.Errno, nrs ...uintptr) error {
	if len(nrs) == 0 || len(nrs) > 200 {
		return fmt.Errorf("sandbox: %d system calls to refuse, want 1 to 200", len(nrs))
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	// Load seccomp_data.nr; for each refused number, jump to the refusal
	// (the last instruction) on a match; else allow.
	prog := []unix.SockFilter{{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}}
	for i, nr := range nrs {
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K,
			Jt: uint8(len(nrs) - i), Jf: 0, K: uint32(nr)})
	}
	prog = append(prog,
		unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
		unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(e)&unix.SECCOMP_RET_DATA})
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}
