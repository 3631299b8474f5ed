package hal_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/gohal/gohal/internal/testexec"
)

// TestCPU: every variant of cpu the CPU runs, through the API and the
// table, names the CPU the thread is on. On Linux the test pins its thread
// to one CPU at a time with sched_setaffinity (the kernel moves the thread
// before the call returns) and requires that number from every read; on
// other systems the variant is the portable 0.
func TestCPU(t *testing.T) {
	eachVariant(t, "cpu", func(t *testing.T, b calls) {
		if runtime.GOOS != "linux" {
			if c := b.cpu(); c != 0 {
				t.Fatalf("CPU() = %d on %s, want the portable 0", c, runtime.GOOS)
			}
			return
		}
		if v := selectedVariant("cpu"); runtime.GOARCH == "amd64" && v != "portable" && testexec.Emulated() {
			// qemu-user runs the instruction on its own model of the CPU:
			// 7.2's RDTSCP reads a TSC_AUX of 0 and LSL finds no GDT
			// entry 15, while the kernel keeps the CPU number in the
			// host's. TestCPUInRange still checks the answer.
			t.Skipf("%s under qemu-user (%s=%q) reads the emulator's CPU number, not the kernel's", v, testexec.Env, os.Getenv(testexec.Env))
		}
		onEachCPU(t, 4, func(c int) {
			for i := range 100 {
				if got := b.cpu(); got != c {
					t.Fatalf("read %d on a thread bound to CPU %d: CPU() = %d", i, c, got)
				}
			}
		})
	})
}

// TestCPUInRange: from many goroutines, every variant's answer is a CPU
// the process may run on.
func TestCPUInRange(t *testing.T) {
	eachVariant(t, "cpu", func(t *testing.T, b calls) {
		allowed := allowedCPUs()
		for range 1000 {
			c := b.cpu()
			if c < 0 || c >= 1<<12 || allowed != nil && !allowed(c) {
				t.Fatalf("CPU() = %d, not a CPU this process may run on", c)
			}
		}
	})
}

func TestCPUNoAllocs(t *testing.T) {
	eachVariant(t, "cpu", func(t *testing.T, b calls) {
		if a := testing.AllocsPerRun(1000, func() { _ = b.cpu() }); a != 0 {
			t.Fatalf("%v allocs per CPU()", a)
		}
	})
}
