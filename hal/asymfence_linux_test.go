package hal_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
)

// A seccomp profile that refuses membarrier(2), as a container's may: the
// test binary runs again under a filter that fails the system call with
// ENOSYS or EPERM, installed before it is exec'd, so that hal's init meets
// the refusal. It must choose portable and name the errno.
func TestFenceHeavySeccomp(t *testing.T) {
	switch os.Getenv("GOHAL_SECCOMP_CHILD") {
	case "filter":
		n, _ := strconv.Atoi(os.Getenv("GOHAL_SECCOMP_ERRNO"))
		if err := refuseMembarrier(syscall.Errno(n)); err != nil {
			fmt.Println("SECCOMP UNAVAILABLE:", err)
			os.Exit(0)
		}
		env := slices.DeleteFunc(os.Environ(), func(s string) bool { return strings.HasPrefix(s, "GOHAL_SECCOMP_CHILD=") })
		err := syscall.Exec(os.Args[0], os.Args, append(env, "GOHAL_SECCOMP_CHILD=report"))
		fmt.Println("exec:", err)
		os.Exit(1)
	case "report":
		c := fenceHeavy(t)
		fmt.Printf("CHOICE %s %s\n", c.Variant, c.Reason)
		return
	}
	if testexec.Emulated() {
		t.Skip("under qemu-user a seccomp filter would see the host's system call numbers")
	}
	if b := haltool.Binding("fenceheavy"); b == haltool.Portable || b == haltool.Static {
		t.Skipf("binding %s: fenceheavy has one compiled-in variant", b)
	}
	for _, e := range []syscall.Errno{syscall.ENOSYS, syscall.EPERM} {
		// Natively (testexec.Emulated is false): under go test -exec
		// without GOHAL_TEST_EXEC the binary cannot run itself, and
		// SkipUnrunnable says so.
		cmd := testexec.Self("-test.run=^TestFenceHeavySeccomp$", "-test.v")
		cmd.Env = append(os.Environ(), "GOHAL=", "GOHAL_SECCOMP_CHILD=filter", "GOHAL_SECCOMP_ERRNO="+strconv.Itoa(int(e)))
		out, err := cmd.CombinedOutput()
		testexec.SkipUnrunnable(t, err)
		if strings.Contains(string(out), "SECCOMP UNAVAILABLE") {
			t.Skipf("cannot install a seccomp filter here:\n%s", out)
		}
		want := fmt.Sprintf("CHOICE portable fallback: membarrier needs membarrier (membarrier query refused: %s (%d))", unix.ErrnoName(e), int(e))
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "CHOICE ") {
				t.Logf("refused with %s: %s", unix.ErrnoName(e), line)
			}
		}
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("membarrier refused with %s: err %v, output lacks %q:\n%s", unix.ErrnoName(e), err, want, out)
		}
	}
}

// refuseMembarrier installs, on every thread of the process, a seccomp
// filter that fails membarrier(2) with e and allows every other system
// call; the filter stays across exec.
func refuseMembarrier(e syscall.Errno) error {
	runtime.LockOSThread() // exec from the thread that set no_new_privs
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_MEMBARRIER},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(e)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}
