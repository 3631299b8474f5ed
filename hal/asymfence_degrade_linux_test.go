package hal

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gohal/gohal/internal/binding"
	"github.com/gohal/gohal/internal/sandbox"
	"github.com/gohal/gohal/internal/testexec"
)

// degradeCases are the refusals TestFenceHeavyRefusedAfterInit installs
// after init: membarrier refused with EPERM or ENOSYS (the pair's
// transition then sweeps the CPUs with sched_setaffinity), and both
// membarrier and sched_setaffinity refused (it stops the world).
var degradeCases = []struct {
	name  string
	errno syscall.Errno
	nrs   []uintptr
	how   string // what the reason says of the transition's heavy fence
}{
	{"EPERM", syscall.EPERM, []uintptr{unix.SYS_MEMBARRIER}, "(sched_setaffinity)"},
	{"ENOSYS", syscall.ENOSYS, []uintptr{unix.SYS_MEMBARRIER}, "(sched_setaffinity)"},
	{"EPERM+affinity", syscall.EPERM, []uintptr{unix.SYS_MEMBARRIER, unix.SYS_SCHED_SETAFFINITY}, "stopped the world"},
}

// A seccomp filter installed after init (a server that sandboxes itself
// in main) refuses membarrier while goroutines use the pair: the first
// heavy fences that meet the refusal, several at once, must neither panic
// nor lose their ordering, FenceLight must fence from then on, and
// Selected must say so with the errno. Each case runs in a child process,
// the test binary run again, since the filter cannot be removed.
func TestFenceHeavyRefusedAfterInit(t *testing.T) {
	if name := os.Getenv("GOHAL_DEGRADE_CHILD"); name != "" {
		degradeChild(name)
		return
	}
	if testexec.Emulated() {
		t.Skip("under qemu-user a seccomp filter would see the host's system call numbers")
	}
	if b := bindingOf(fenceHeavyOp); b == binding.Portable || b == binding.Static {
		t.Skipf("binding %s: fenceheavy has one compiled-in variant", b)
	}
	if v := selectedVariant(fenceHeavyOp); v != "membarrier" {
		t.Skipf("fenceheavy runs %s here: nothing to degrade", v)
	}
	for _, c := range degradeCases {
		t.Run(c.name, func(t *testing.T) {
			cmd := testexec.Self("-test.run=^TestFenceHeavyRefusedAfterInit$", "-test.v")
			cmd.Env = append(os.Environ(), "GOHAL=", "GOHAL_DEGRADE_CHILD="+c.name)
			out, err := cmd.CombinedOutput()
			testexec.SkipUnrunnable(t, err)
			if strings.Contains(string(out), "SECCOMP UNAVAILABLE") {
				t.Skipf("cannot install a seccomp filter here:\n%s", out)
			}
			want := []string{
				"CHOICE portable fallback: membarrier refused after init: " + fmt.Sprintf("%s (%d)", unix.ErrnoName(c.errno), int(c.errno)),
				c.how,
				"FENCELIGHT full",
				"VIOLATIONS 0",
			}
			for _, w := range want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if err != nil || t.Failed() {
				t.Fatalf("child: %v\n%s", err, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(line, "CHOICE ") {
					t.Log(line)
				}
			}
		})
	}
}

// selectedVariant is op's live variant.
func selectedVariant(op string) string {
	for _, c := range Selected() {
		if c.Op == op {
			return c.Variant
		}
	}
	return ""
}

// degradeChild is the child of TestFenceHeavyRefusedAfterInit for case
// name: it installs the case's filter, then runs the pair as Dekker's
// mutual exclusion (each side raises its flag, fences, and enters only if
// the other's is down) while heavy fences meet the refusal, several at
// once, and prints what it found.
func degradeChild(name string) {
	i := 0
	for i < len(degradeCases) && degradeCases[i].name != name {
		i++
	}
	if i == len(degradeCases) {
		fmt.Println("unknown case", name)
		os.Exit(2)
	}
	c := degradeCases[i]
	FenceHeavy() // registered, and granted
	if err := sandbox.Refuse(c.errno, c.nrs...); err != nil {
		fmt.Println("SECCOMP UNAVAILABLE:", err)
		os.Exit(0)
	}
	if err := membarrierExpedited(); err != c.errno {
		fmt.Printf("membarrier under the filter: %v, want %v\n", err, c.errno)
		os.Exit(1)
	}
	const rounds = 20000
	var light, heavy uint32 // the two sides' flags
	var inside, violations atomic.Int32
	enter := func() {
		if inside.Add(1) != 1 {
			violations.Add(1)
		}
		inside.Add(-1)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the light side
		defer wg.Done()
		for range rounds {
			StoreReleaseUint32(&light, 1)
			FenceLight()
			if LoadAcquireUint32(&heavy) == 0 {
				enter()
			}
			StoreReleaseUint32(&light, 0)
		}
	}()
	// The heavy side: several goroutines meet the refusal at once, then
	// one goes on through the degraded pair; each takes a turn at the
	// flag under a mutex, so there is one heavy side at a time.
	var mu sync.Mutex
	heavySide := func(n int) {
		for range n {
			mu.Lock()
			StoreReleaseUint32(&heavy, 1)
			FenceHeavy()
			if LoadAcquireUint32(&light) == 0 {
				enter()
			}
			StoreReleaseUint32(&heavy, 0)
			mu.Unlock()
		}
	}
	var first sync.WaitGroup
	for range 4 {
		first.Add(1)
		go func() { defer first.Done(); FenceHeavy() }()
	}
	heavySide(rounds / 10)
	first.Wait()
	wg.Wait()
	for _, ch := range Selected() {
		if ch.Op == fenceHeavyOp {
			fmt.Printf("CHOICE %s %s\n", ch.Variant, ch.Reason)
		}
	}
	if fenceHeavyReaches == 0 {
		fmt.Println("FENCELIGHT full")
	}
	fmt.Println("VIOLATIONS", violations.Load())
}
