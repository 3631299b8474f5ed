package percpu

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/sandbox"
	"github.com/gohal/gohal/internal/testexec"
)

// The review's first reproducer: a program sandboxes itself in main (a
// seccomp filter installed after init refuses membarrier) and then writes
// a biased lock. The writer's heavy fence meets the refusal: no panic may
// escape Lock, the lock must keep excluding (GOROOT's hammer, readers and
// writers, with the invariant checked in every critical section), and
// hal.Selected must report the pair degraded, with the errno. The EPERM
// case meets the refusal first in a pinned writer (Pin held: the
// degradation must not stop the world there), the ENOSYS case in the
// hammer's writers, with readers inside; the third case refuses
// sched_setaffinity too, so that the degradation stops the world (from an
// unpinned writer, the only kind that may). Each case runs in a child
// process, the test binary run again, since the filter cannot be removed.
func TestRWMutexMembarrierRefusedAfterInit(t *testing.T) {
	if e := os.Getenv("GOHAL_RWDEGRADE_CHILD"); e != "" {
		rwDegradeChild(t, e)
		return
	}
	if testexec.Emulated() {
		t.Skip("under qemu-user a seccomp filter would see the host's system call numbers")
	}
	if !asymmetric {
		t.Skip("hal's heavy fence is not asymmetric here: nothing to degrade")
	}
	for _, name := range []string{"EPERM", "ENOSYS", "EPERM+affinity"} {
		e := rwDegradeErrno(name)
		t.Run(name, func(t *testing.T) {
			args := []string{"-test.run=^TestRWMutexMembarrierRefusedAfterInit$", "-test.v"}
			if testing.Short() {
				args = append(args, "-test.short")
			}
			cmd := testexec.Self(args...)
			cmd.Env = append(os.Environ(), "GOHAL=", "GOHAL_RWDEGRADE_CHILD="+name)
			out, err := cmd.CombinedOutput()
			testexec.SkipUnrunnable(t, err)
			if strings.Contains(string(out), "SECCOMP UNAVAILABLE") {
				t.Skipf("cannot install a seccomp filter here:\n%s", out)
			}
			want := fmt.Sprintf("membarrier refused after init: %s (%d)", unix.ErrnoName(e), int(e))
			how := "(sched_setaffinity)"
			if strings.Contains(name, "affinity") {
				how = "stopped the world"
			}
			if err != nil || !strings.Contains(string(out), want) || !strings.Contains(string(out), how) ||
				!strings.Contains(string(out), "\nPASS") {
				t.Fatalf("child: %v; want %q, %q and PASS in:\n%s", err, want, how, out)
			}
		})
	}
}

// rwDegradeErrno is the errno of TestRWMutexMembarrierRefusedAfterInit's
// case name.
func rwDegradeErrno(name string) syscall.Errno {
	if name == "ENOSYS" {
		return syscall.ENOSYS
	}
	return syscall.EPERM
}

// rwDegradeChild is the child of TestRWMutexMembarrierRefusedAfterInit for
// case name.
func rwDegradeChild(t *testing.T, name string) {
	e := rwDegradeErrno(name)
	nrs := []uintptr{unix.SYS_MEMBARRIER}
	if name == "EPERM+affinity" {
		nrs = append(nrs, unix.SYS_SCHED_SETAFFINITY)
	}
	rw := new(RWMutex)
	atomic.StoreUint32(&rw.solo, soloClosed)
	rw.spread()
	if rw.state.Load()&rwBiased == 0 {
		t.Fatal("spread did not bias the lock")
	}
	if err := sandbox.Refuse(e, nrs...); err != nil {
		fmt.Println("SECCOMP UNAVAILABLE:", err)
		return
	}
	if name == "EPERM" && pin.Pinned {
		pin.Pin()
		rw.Lock() // revokes the bias: the first heavy fence, refused
		rw.Unlock()
		pin.Unpin()
		if pin.Held() {
			t.Fatal("still pinned")
		}
	}
	iters := 2000
	if testing.Short() {
		iters = 500
	}
	for _, procs := range []int{2, 4} {
		rw.spread() // bias again, where the inhibition allows
		hammerRW(t, rw, procs, 4, iters)
	}
	rw.Lock()
	rw.Unlock()
	rw.RLock()
	rw.RUnlock()
	fresh := new(RWMutex) // not inhibited: it would bias if the pair reached
	atomic.StoreUint32(&fresh.solo, soloClosed)
	fresh.spread()
	if fresh.state.Load()&rwBiased != 0 {
		t.Error("after the pair degraded, a fresh lock's spread biased it")
	}
	found := false
	for _, c := range hal.Selected() {
		if c.Op == fencePairOp {
			fmt.Printf("CHOICE %s %s\n", c.Variant, c.Reason)
			found = c.Variant == "portable"
		}
	}
	if !found {
		t.Error("hal.Selected does not report the pair degraded")
	}
}
