package hal_test

import (
	"errors"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
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

// The pair is an op like the others: in Ops and Variants, chosen by
// dispatch from what its probe found, with that in the reason.
func TestFenceHeavySelected(t *testing.T) {
	c := fenceHeavy(t)
	f := dispatch.Host()
	t.Logf("fenceheavy: %s (%s); probes %v", c.Variant, c.Reason, f.Probes)
	if !slices.Contains(haltool.Ops(), "fenceheavy") {
		t.Errorf("Ops() lacks fenceheavy: %v", haltool.Ops())
	}
	vs, ok := haltool.Variants("fenceheavy")
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
	}
	want := []string{"membarrier", "portable"}
	b := haltool.Binding("fenceheavy")
	if b == haltool.Portable {
		want = []string{"portable"}
	}
	if !ok || !slices.Equal(names, want) {
		t.Errorf("Variants(fenceheavy) = %v, %v; want %v", names, ok, want)
	}
	wantLight := c.Variant == "portable" || hal.RaceBuild || hal.PuregoBuild
	if got := hal.FenceLightFull(); got != wantLight {
		t.Errorf("FenceLight fences: %v, want %v under %s", got, wantLight, c.Variant)
	}
	if os.Getenv("GOHAL") != "" || b == haltool.Portable || b == haltool.Static {
		return // an override, or a build with its one choice
	}
	switch {
	case f.Has(dispatch.FeatureMembarrier):
		if c.Variant != "membarrier" || !strings.Contains(c.Reason, f.Probes[dispatch.FeatureMembarrier]) {
			t.Errorf("the kernel grants membarrier, and hal chose %s (%s)", c.Variant, c.Reason)
		}
	case runtime.GOOS == "linux":
		// Refused: the reason names the errno the probe saw.
		if c.Variant != "portable" || f.Probes[dispatch.FeatureMembarrier] == "" ||
			!strings.Contains(c.Reason, f.Probes[dispatch.FeatureMembarrier]) {
			t.Errorf("membarrier refused (%q), and hal chose %s (%s)", f.Probes[dispatch.FeatureMembarrier], c.Variant, c.Reason)
		}
	}
}

// A kernel, seccomp profile or sandbox that refuses membarrier gets the
// portable variant, with the refusal's errno in the reason, and forcing
// membarrier fails naming it. The features are the host's with the probe's
// refusal (dispatch's TestProbeMembarrierRefused feeds the probe itself
// refusing system calls; TestFenceHeavySeccomp has a real kernel refuse).
func TestFenceHeavyRefused(t *testing.T) {
	if b := haltool.Binding("fenceheavy"); b == haltool.Portable || b == haltool.Static {
		t.Skipf("binding %s: one compiled-in choice", b)
	}
	for _, refusal := range []string{"membarrier query refused: ENOSYS (38)", "membarrier registration refused: EPERM (1)"} {
		f := *dispatch.Host()
		f.Flags = maps.Clone(f.Flags)
		f.Probes = maps.Clone(f.Probes)
		f.Flags[dispatch.FeatureMembarrier] = false
		f.Probes[dispatch.FeatureMembarrier] = refusal
		cs, err := hal.SelectFor(&f, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Op == "fenceheavy" && (c.Variant != "portable" || !strings.Contains(c.Reason, refusal)) {
				t.Errorf("refused with %q: chose %s (%s)", refusal, c.Variant, c.Reason)
			}
		}
		_, err = hal.SelectFor(&f, dispatch.Override{{Op: "fenceheavy", Variant: "membarrier"}})
		var oe *dispatch.OverrideError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), refusal) {
			t.Errorf("forcing membarrier, refused with %q: %v", refusal, err)
		}
	}
}

// eachFenceVariant runs f under each variant of the pair that this
// process can run (membarrier only where the kernel grants it).
func eachFenceVariant(t *testing.T, f func(t *testing.T)) {
	vs, _ := haltool.Variants("fenceheavy")
	ran := 0
	for _, v := range vs {
		t.Run("fenceheavy="+v.Name, func(t *testing.T) {
			if ok, missing := haltool.Runnable("fenceheavy", v.Name); !ok {
				t.Skipf("%s not available here: no %s %s", v.Name, missing, dispatch.Host().Probes[missing])
			}
			if hal.StaticBuild && v.Name != selectedVariant("fenceheavy") {
				t.Skipf("a static build runs only its compiled-in %s", selectedVariant("fenceheavy"))
			}
			restore, err := haltool.Force("fenceheavy", v.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			if c := fenceHeavy(t); c.Variant != v.Name {
				t.Fatalf("after Force, Selected says %s", c.Variant)
			}
			if got, want := hal.FenceLightFull(), v.Name == "portable" || hal.RaceBuild || hal.PuregoBuild; got != want {
				t.Fatalf("after Force, FenceLight fences: %v, want %v", got, want)
			}
			ran++
			f(t)
		})
	}
	if ran == 0 {
		t.Error("no variant of fenceheavy ran")
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
	type tc struct {
		gohal, want string
		fails       bool
	}
	// A static build accepts an override naming its compiled-in
	// variant, and gives its own reason.
	forced := "CHOICE portable override GOHAL=fenceheavy=portable"
	if hal.StaticBuild {
		forced = "CHOICE portable static build"
	}
	cases := []tc{
		{"fenceheavy=portable", forced, false},
		{"fenceheavy=bogus", `op "fenceheavy" has no variant "bogus"`, true},
		{"fence=" + selectedVariant("fence") + ",fenceheavy=portable", forced, false},
	}
	if ok, _ := haltool.Runnable("fenceheavy", "membarrier"); ok && haltool.Binding("fenceheavy") == haltool.Static {
		cases = append(cases, tc{"fenceheavy=membarrier", `with variant "portable" compiled in`, true})
	} else if ok {
		cases = append(cases, tc{"fenceheavy=membarrier", "CHOICE membarrier override GOHAL=fenceheavy=membarrier", false})
	} else if found := dispatch.Host().Probes[dispatch.FeatureMembarrier]; found != "" && haltool.Binding("fenceheavy") != haltool.Portable {
		cases = append(cases, tc{"fenceheavy=membarrier", found, true}) // the refusal, named
	}
	for _, tc := range cases {
		cmd := testexec.Self("-test.run=^TestFenceHeavyGOHAL$", "-test.v")
		cmd.Env = append(os.Environ(), "GOHAL="+tc.gohal, "GOHAL_FENCE_CHILD=1")
		out, err := cmd.CombinedOutput()
		testexec.SkipUnrunnable(t, err)
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("GOHAL=%s: output lacks %q (err %v):\n%s", tc.gohal, tc.want, err, out)
		}
		if tc.fails != (err != nil) {
			t.Errorf("GOHAL=%s: the child's error is %v, want one: %v", tc.gohal, err, tc.fails)
		}
	}
}

// BenchmarkFencePair measures Fence beside the pair's two sides, and an
// empty loop, per variant.
func BenchmarkFencePair(b *testing.B) {
	vs, _ := haltool.Variants("fenceheavy")
	for _, fv := range vs {
		v := fv.Name
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
