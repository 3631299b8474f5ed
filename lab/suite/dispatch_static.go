//go:build !purego && (amd64 || arm64)

package suite

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
)

// haveAsm reports whether this build has hal/direct's assembly, and with
// it the direct, flag and static modes.
const haveAsm = true

// addStatic registers the static mode: hal/direct's Static<Op>, which is
// hal's exported function in a gohal_static build (there one more inlined
// Go call deep), measured here in the default build.
func addStatic() {
	dispatch("fetchadd64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticFetchAddUint64(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if direct.StaticCompareAndSwapUint64(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticSwapUint64(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticLoadAcquireUint64(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("pause", ModeStatic, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			direct.StaticPause()
		}
		m.Stop()
	})
	dispatch("cas128", ModeStatic, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		m := cyclebench.Start(b)
		for b.Loop() {
			if _, _, ok := direct.StaticCompareAndSwap128(a, v, v, v+1, v+1); ok {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeStatic, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticCycles()
		}
		m.Stop()
		use(v)
	})

	contended("fetchadd64", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += direct.StaticFetchAddUint64(&c.v, 1)
			}
			use(v)
		})
	})
	contended("cas64", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if direct.StaticCompareAndSwapUint64(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})
	contended("swap64", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = direct.StaticSwapUint64(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("loadacquire64", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += direct.StaticLoadAcquireUint64(&c.v)
			}
			use(v)
		})
	})
	contended("cas128", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v, _ := c.u.Load()
			for range n {
				if _, _, ok := direct.StaticCompareAndSwap128(a, v, v, v+1, v+1); ok {
					v++
				} else {
					v, _ = c.u.Load()
				}
			}
			use(v)
		})
	})
}
