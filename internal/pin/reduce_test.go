//go:build gohal_nolinkname || purego

package pin

import "testing"

// TestReduce fakes the CPU numbers a real machine can give the fallback
// build: above NumCPU (an affinity mask), at and past 4096 (hal.CPU's
// amd64 variants wrap there, the syscall variant does not), and the
// largest int. Every one lands in [0, n); those in range stay as they
// are.
func TestReduce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 64, 4096} {
		for _, cpu := range []int{0, 1, n - 1, n, n + 1, 4095, 4096, 5000, 1 << 20, int(^uint(0) >> 1)} {
			got := reduce(cpu, n)
			if got < 0 || got >= n {
				t.Fatalf("reduce(%d, %d) = %d, out of [0, %d)", cpu, n, got, n)
			}
			if cpu < n && got != cpu {
				t.Fatalf("reduce(%d, %d) = %d, want it unchanged", cpu, n, got)
			}
		}
	}
}
