//go:build !purego

package suite

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/probe"
)

// arm64: every op measured here but the cycle counter has several
// variants, so the flag mode is hal's exported function itself (for cas128,
// Uint128.CompareAndSwap over hal's entry); the cycle counter has one, and
// its flag mode is hal/direct's flag probe. The direct mode calls the
// variant hal chose for this CPU.

// addArchModes registers the direct, flag and static modes.
func addArchModes() {
	dispatch("fetchadd64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		switch variant("fetchadd64") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchAddUint64Lse(&c.v, 1)
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchAddUint64Llsc(&c.v, 1)
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("fetchadd64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchAddUint64(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		switch variant("cas64") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				if direct.CompareAndSwapUint64Lse(&c.v, v, v+1) {
					v++
				}
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				if direct.CompareAndSwapUint64Llsc(&c.v, v, v+1) {
					v++
				}
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("cas64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if hal.CompareAndSwapUint64(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		switch variant("swap64") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.SwapUint64Lse(&c.v, v+1)
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.SwapUint64Llsc(&c.v, v+1)
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("swap64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.SwapUint64(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		switch variant("loadacquire64") {
		case "ldapr":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.LoadAcquireUint64Ldapr(&c.v)
			}
			m.Stop()
		default: // ldar
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.LoadAcquireUint64Ldar(&c.v)
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("loadacquire64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.LoadAcquireUint64(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("pause", ModeDirect, func(b *testing.B) {
		switch variant("pause") {
		case "isb":
			m := cyclebench.Start(b)
			for b.Loop() {
				direct.PauseIsb()
			}
			m.Stop()
		default: // yield
			m := cyclebench.Start(b)
			for b.Loop() {
				direct.PauseYield()
			}
			m.Stop()
		}
	})
	dispatch("pause", ModeFlag, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			hal.Pause()
		}
		m.Stop()
	})
	dispatch("cas128", ModeDirect, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		switch variant("cas128") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				if _, _, ok := direct.CompareAndSwap128Lse(a, v, v, v+1, v+1); ok {
					v++
				}
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				if _, _, ok := direct.CompareAndSwap128Llsc(a, v, v, v+1, v+1); ok {
					v++
				}
			}
			m.Stop()
		}
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
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.CyclesCntvct()
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeFlag, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.CyclesFlagged()
		}
		m.Stop()
		use(v)
	})

	contended("fetchadd64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		switch variant("fetchadd64") {
		case "lse":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v += direct.FetchAddUint64Lse(&c.v, 1)
				}
				use(v)
			})
		default: // llsc
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v += direct.FetchAddUint64Llsc(&c.v, 1)
				}
				use(v)
			})
		}
	})
	contended("fetchadd64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += hal.FetchAddUint64(&c.v, 1)
			}
			use(v)
		})
	})
	contended("cas64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		switch variant("cas64") {
		case "lse":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				v := atomic.LoadUint64(&c.v)
				for range n {
					if direct.CompareAndSwapUint64Lse(&c.v, v, v+1) {
						v++
					} else {
						v = atomic.LoadUint64(&c.v)
					}
				}
				use(v)
			})
		default: // llsc
			cyclebench.RunLoop(b, threads, func(_, n int) {
				v := atomic.LoadUint64(&c.v)
				for range n {
					if direct.CompareAndSwapUint64Llsc(&c.v, v, v+1) {
						v++
					} else {
						v = atomic.LoadUint64(&c.v)
					}
				}
				use(v)
			})
		}
	})
	contended("cas64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if hal.CompareAndSwapUint64(&c.v, v, v+1) {
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
		switch variant("swap64") {
		case "lse":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v = direct.SwapUint64Lse(&c.v, v+1)
				}
				use(v)
			})
		default: // llsc
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v = direct.SwapUint64Llsc(&c.v, v+1)
				}
				use(v)
			})
		}
	})
	contended("swap64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = hal.SwapUint64(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("loadacquire64", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell)
		switch variant("loadacquire64") {
		case "ldapr":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v += direct.LoadAcquireUint64Ldapr(&c.v)
				}
				use(v)
			})
		default: // ldar
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					v += direct.LoadAcquireUint64Ldar(&c.v)
				}
				use(v)
			})
		}
	})
	contended("loadacquire64", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += hal.LoadAcquireUint64(&c.v)
			}
			use(v)
		})
	})
	contended("cas128", ModeDirect, true, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		switch variant("cas128") {
		case "lse":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					if found, _, ok := direct.CompareAndSwap128Lse(a, v, v, v+1, v+1); ok {
						v++
					} else {
						v = found
					}
				}
				use(v)
			})
		default: // llsc
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					if found, _, ok := direct.CompareAndSwap128Llsc(a, v, v, v+1, v+1); ok {
						v++
					} else {
						v = found
					}
				}
				use(v)
			})
		}
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
