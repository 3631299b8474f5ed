package hal_test

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// fenceHeavy returns the pair's entry in hal.Selected.
func fenceHeavy(t *testing.T) hal.Choice {
	t.Helper()
	for _, c := range hal.Selected() {
		if c.Op == "fenceheavy" {
			return c
		}
	}
	t.Fatal("no fenceheavy in hal.Selected()")
	return hal.Choice{}
}

func TestFenceHeavySelected(t *testing.T) {
	c := fenceHeavy(t)
	t.Logf("fenceheavy: %s (%s)", c.Variant, c.Reason)
	if c.Reason == "" {
		t.Error("no reason")
	}
	switch c.Variant {
	case "membarrier":
		if runtime.GOOS != "linux" || haltool.Binding("fence") == haltool.Portable {
			t.Errorf("membarrier chosen on %s in a build whose fence binding is %q", runtime.GOOS, haltool.Binding("fence"))
		}
	case "portable":
		// A refusal names its errno; a portable build says so.
		if os.Getenv("GOHAL") == "" && !strings.Contains(c.Reason, "refused") &&
			!strings.Contains(c.Reason, "portable build") && !strings.Contains(c.Reason, "no membarrier") &&
			!strings.Contains(c.Reason, "no private expedited") {
			t.Errorf("portable without saying why: %q", c.Reason)
		}
	default:
		t.Errorf("variant %q", c.Variant)
	}
	if vs, ok := haltool.Variants("fenceheavy"); !ok || len(vs) != 2 || vs[0].Name != "membarrier" || vs[1].Name != "portable" {
		t.Errorf("Variants(fenceheavy) = %v, %v", vs, ok)
	}
}

// eachFenceVariant runs f under each variant of the pair that this
// process can run (membarrier only where the kernel grants it).
func eachFenceVariant(t *testing.T, f func(t *testing.T)) {
	for _, v := range []string{"membarrier", "portable"} {
		t.Run("fenceheavy="+v, func(t *testing.T) {
			restore, err := haltool.Force("fenceheavy", v)
			var oe *dispatch.OverrideError
			if errors.As(err, &oe) && v == "membarrier" {
				t.Skipf("membarrier not available here: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			if c := fenceHeavy(t); c.Variant != v {
				t.Fatalf("after Force, Selected says %s", c.Variant)
			}
			f(t)
		})
	}
}

// Store buffering with FenceLight on one side and FenceHeavy on the other:
// (0,0) would mean both loads passed their stores, which the pair forbids.
func TestLitmusAsymmetricFence(t *testing.T) {
	iters := litmusIters() / 4
	eachFenceVariant(t, func(t *testing.T) {
		counts := litmus(t, iters,
			func(w *litmusWords) uint64 {
				hal.StoreReleaseUint64(&w.x, 1)
				hal.FenceLight()
				return hal.LoadAcquireUint64(&w.y)
			},
			func(w *litmusWords) uint64 {
				hal.StoreReleaseUint64(&w.y, 1)
				hal.FenceHeavy()
				return hal.LoadAcquireUint64(&w.x)
			})
		report(t, "SB light/heavy", counts)
		if n := counts[[2]uint64{0, 0}]; n > 0 {
			t.Errorf("forbidden outcome (0,0) seen %d times in %d", n, iters)
		}
	})
}

// GOHAL chooses the pair's variant, and a variant it lacks stops the
// program at init, as for any op.
func TestFenceHeavyGOHAL(t *testing.T) {
	if os.Getenv("GOHAL_FENCE_CHILD") != "" {
		c := fenceHeavy(t)
		os.Stdout.WriteString("CHOICE " + c.Variant + " " + c.Reason + "\n")
		return
	}
	for _, tc := range []struct{ gohal, want string }{
		{"fenceheavy=portable", "CHOICE portable override GOHAL=fenceheavy=portable"},
		{"fenceheavy=bogus", `op "fenceheavy" has no variant "bogus"`},
		{"fence=" + selectedVariant("fence") + ",fenceheavy=portable", "CHOICE portable override"},
	} {
		args := []string{os.Args[0], "-test.run=^TestFenceHeavyGOHAL$", "-test.v"}
		if prefix := strings.Fields(os.Getenv("GOHAL_TEST_EXEC")); len(prefix) > 0 {
			args = append(prefix, args...) // the emulator, as runChild
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "GOHAL="+tc.gohal, "GOHAL_FENCE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil && strings.Contains(err.Error(), "exec format error") {
			t.Skipf("cannot re-exec the test binary (%v): under qemu-user set GOHAL_TEST_EXEC to the emulator command", err)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("GOHAL=%s: output lacks %q (err %v):\n%s", tc.gohal, tc.want, err, out)
		}
		if strings.Contains(tc.gohal, "bogus") && err == nil {
			t.Errorf("GOHAL=%s: the child did not fail", tc.gohal)
		}
	}
}

// BenchmarkFencePair measures Fence beside the pair's two sides, and an
// empty loop, per variant.
func BenchmarkFencePair(b *testing.B) {
	for _, v := range []string{"membarrier", "portable"} {
		restore, err := haltool.Force("fenceheavy", v)
		if err != nil {
			b.Logf("%s: %v", v, err)
			continue
		}
		b.Run(v+"/empty", func(b *testing.B) {
			for b.Loop() {
			}
		})
		b.Run(v+"/Fence", func(b *testing.B) {
			for b.Loop() {
				hal.Fence()
			}
		})
		b.Run(v+"/FenceLight", func(b *testing.B) {
			for b.Loop() {
				hal.FenceLight()
			}
		})
		b.Run(v+"/FenceHeavy", func(b *testing.B) {
			for b.Loop() {
				hal.FenceHeavy()
			}
		})
		restore()
	}
}
