package suite

import (
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
)

// The cpu op in the Dispatch section. Its variants differ by much more
// than a binding (RDPID ≈ 2 ns, a system call ≈ 200 ns), so besides the
// modes every op has (api, table and closure in zmodes.go, generic), cpu
// is measured once per variant: mode=<variant> is hal.CPU() with that variant forced, as
// GOHAL=cpu=<variant> would choose it. This file's init runs before
// dispatch.go's, which registers what is staged here in table order.

// CPUVariantModes are the extra modes of op cpu: one per variant that has
// assembly on some GOARCH. Only those this build has and this CPU and OS
// run are registered (a gohal_static build has none: it cannot switch).
var CPUVariantModes = []string{"rdpid", "rdtscp", "lsl", "syscall"}

func init() {
	for _, l := range [][2]string{
		{"mode=rdpid", "cpu only: hal.CPU() with variant rdpid forced (RDPID, TSC_AUX)"},
		{"mode=rdtscp", "cpu only: hal.CPU() with variant rdtscp forced (RDTSCP, TSC_AUX in ECX)"},
		{"mode=lsl", "cpu only: hal.CPU() with variant lsl forced (LSL of Linux's per-CPU segment)"},
		{"mode=syscall", "cpu only: hal.CPU() with variant syscall forced (getcpu system call in assembly), as GOHAL=cpu=syscall"},
	} {
		AddLegend(Legend{Section: "Dispatch", Key: l[0], Text: l[1]})
	}

	dispatch("cpu", ModeGeneric, func(b *testing.B) {
		v := 0
		m := cyclebench.Start(b)
		for b.Loop() {
			v += genericCPU()
		}
		m.Stop()
		use(uint64(v))
	})
	for _, variant := range CPUVariantModes {
		if !cpuVariantMeasured(variant) {
			continue
		}
		dispatch("cpu", variant, func(b *testing.B) {
			restore, err := haltool.Force("cpu", variant)
			if err != nil {
				b.Fatalf("cpu/%s: %v", variant, err)
			}
			defer restore()
			v := 0
			m := cyclebench.Start(b)
			for b.Loop() {
				v += hal.CPU()
			}
			m.Stop()
			use(uint64(v))
		})
	}
}

// cpuVariantMeasured reports whether hal can switch cpu to variant here.
func cpuVariantMeasured(variant string) bool {
	if haltool.Binding("cpu") == haltool.Static {
		return false
	}
	vs, _ := haltool.Variants("cpu")
	for _, v := range vs {
		if v.Name == variant {
			ok, _ := haltool.Runnable("cpu", variant)
			return ok
		}
	}
	return false
}
