//go:build !purego

package suite

import (
	"sync/atomic"
	"testing"

	haldispatch "github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/probe"
)

// amd64: fetchadd64, cas64, swap64, loadacquire64 and pause have one
// variant, so their flag mode is hal/direct's flag probe (the variant
// behind a flag test that never branches). The cycle counter has two
// (rdtscp, lfence_rdtsc) and cas128 two (cmpxchg16b and hal's portable Go
// fallback): their flag mode is hal's own entry, assembly for Cycles, a Go
// switch for cas128 (reached through Uint128.CompareAndSwap).

// addArchModes registers the direct, flag and static modes.
func addArchModes() {
	dispatch("fetchadd64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.FetchAddUint64Lock(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchadd64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.FetchAddUint64Flagged(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if direct.CompareAndSwapUint64Lock(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if probe.CompareAndSwapUint64Flagged(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.SwapUint64Lock(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.SwapUint64Flagged(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.LoadAcquireUint64Mov(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.LoadAcquireUint64Flagged(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("pause", ModeDirect, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			direct.PausePause()
		}
		m.Stop()
	})
	dispatch("pause", ModeFlag, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			probe.PauseFlagged()
		}
		m.Stop()
	})
	dispatch("cas128", ModeDirect, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		// Direct means the assembly variant whatever hal selected (a race
		// build of hal has only its portable Go variant).
		if !haldispatch.Host().Has(haldispatch.FeatureCX16) {
			b.Skip("cas128/cmpxchg16b needs cx16, which this CPU lacks")
		}
		m := cyclebench.Start(b)
		for b.Loop() {
			if _, _, ok := direct.CompareAndSwap128Cmpxchg16b(a, v, v, v+1, v+1); ok {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas128", ModeFlag, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if c.u.CompareAndSwap(v, v, v+1, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeDirect, func(b *testing.B) {
		var v uint64
		switch variant("cycles") {
		case "rdtscp":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.CyclesRdtscp()
			}
			m.Stop()
		default: // lfence_rdtsc
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.CyclesLfenceRdtsc()
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("cycles", ModeFlag, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.Cycles()
		}
		m.Stop()
		use(v)
	})

	contended("fetchadd64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += direct.FetchAddUint64Lock(&c.v, 1)
			}
			use(v)
		})
	})
	contended("fetchadd64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += probe.FetchAddUint64Flagged(&c.v, 1)
			}
			use(v)
		})
	})
	contended("cas64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if direct.CompareAndSwapUint64Lock(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})
	contended("cas64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if probe.CompareAndSwapUint64Flagged(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})
	contended("swap64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = direct.SwapUint64Lock(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("swap64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = probe.SwapUint64Flagged(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("loadacquire64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += direct.LoadAcquireUint64Mov(&c.v)
			}
			use(v)
		})
	})
	contended("loadacquire64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += probe.LoadAcquireUint64Flagged(&c.v)
			}
			use(v)
		})
	})
	contended("cas128", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		if !haldispatch.Host().Has(haldispatch.FeatureCX16) {
			b.Skip("cas128/cmpxchg16b needs cx16, which this CPU lacks")
		}
		cyclebench.RunLoop(b, threads, func(_, n int) {
			// Only the assembly touches the word: a failed CAS returns
			// the value found, the next attempt's expected value.
			var v uint64
			for range n {
				if found, _, ok := direct.CompareAndSwap128Cmpxchg16b(a, v, v, v+1, v+1); ok {
					v++
				} else {
					v = found
				}
			}
			use(v)
		})
	})
	contended("cas128", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell128)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v, _ := c.u.Load()
			for range n {
				if c.u.CompareAndSwap(v, v, v+1, v+1) {
					v++
				} else {
					v, _ = c.u.Load()
				}
			}
			use(v)
		})
	})
	addStatic()
	addBitsArch()
}
