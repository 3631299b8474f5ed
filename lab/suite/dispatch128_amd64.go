//go:build !purego

package suite

import (
	"testing"

	haldispatch "github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
)

// direct128 is the assembly variant of op the direct mode calls: the one
// hal chose, or, where hal chose the portable Go variant (a race build
// has only that one), the first assembly variant this CPU runs ("" for
// none). So GOHAL=load128=<variant> measures that variant.
func direct128(op string) string {
	if v := variant(op); v != "portable" {
		return v
	}
	switch {
	case haldispatch.Host().Has(haldispatch.FeatureAVXAtomic):
		return "vmovdqa"
	case haldispatch.Host().Has(haldispatch.FeatureCX16):
		return "cmpxchg16b"
	}
	return ""
}

// add128Arch registers the direct, flag and static modes of load128 and
// store128 on amd64. The direct mode calls hal/direct's function of the
// variant direct128 names. The flag mode is Uint128's method, as the api
// mode: hal's entry for these ops, which the method calls, is where the
// flag is read.
func add128Arch() {
	dispatch("load128", ModeDirect, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		switch direct128("load128") {
		case "vmovdqa":
			m := cyclebench.Start(b)
			for b.Loop() {
				lo, _ := direct.Load128Vmovdqa(a)
				v += lo
			}
			m.Stop()
		case "cmpxchg16b":
			m := cyclebench.Start(b)
			for b.Loop() {
				lo, _ := direct.Load128Cmpxchg16b(a)
				v += lo
			}
			m.Stop()
		default:
			b.Skip("this CPU runs no assembly variant of load128")
		}
		use(v)
	})
	dispatch("load128", ModeStatic, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		m := cyclebench.Start(b)
		for b.Loop() {
			lo, _ := direct.StaticLoad128(a)
			v += lo
		}
		m.Stop()
		use(v)
	})
	dispatch("store128", ModeDirect, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		switch direct128("store128") {
		case "vmovdqa":
			m := cyclebench.Start(b)
			for b.Loop() {
				direct.Store128Vmovdqa(a, v, v)
				v++
			}
			m.Stop()
		case "cmpxchg16b":
			m := cyclebench.Start(b)
			for b.Loop() {
				direct.Store128Cmpxchg16b(a, v, v)
				v++
			}
			m.Stop()
		default:
			b.Skip("this CPU runs no assembly variant of store128")
		}
		use(v)
	})
	dispatch("store128", ModeStatic, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		a := c.word()
		m := cyclebench.Start(b)
		for b.Loop() {
			direct.StaticStore128(a, v, v)
			v++
		}
		m.Stop()
		use(v)
	})
	dispatch("load128", ModeFlag, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			lo, _ := c.u.Load()
			v += lo
		}
		m.Stop()
		use(v)
	})
	dispatch("store128", ModeFlag, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			c.u.Store(v, v)
			v++
		}
		m.Stop()
		use(v)
	})
	contended("load128", ModeDirect, false, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		switch direct128("load128") {
		case "vmovdqa":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					lo, _ := direct.Load128Vmovdqa(a)
					v += lo
				}
				use(v)
			})
		case "cmpxchg16b":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var v uint64
				for range n {
					lo, _ := direct.Load128Cmpxchg16b(a)
					v += lo
				}
				use(v)
			})
		default:
			b.Skip("this CPU runs no assembly variant of load128")
		}
	})
	contended("load128mixed", ModeDirect, false, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		switch direct128("load128") + "/" + direct128("store128") {
		case "vmovdqa/vmovdqa":
			cyclebench.RunLoop(b, threads, func(w, n int) {
				var v uint64
				if w == 0 {
					for i := range n {
						direct.Store128Vmovdqa(a, uint64(i), uint64(i))
					}
					return
				}
				for range n {
					lo, _ := direct.Load128Vmovdqa(a)
					v += lo
				}
				use(v)
			})
		case "cmpxchg16b/cmpxchg16b":
			cyclebench.RunLoop(b, threads, func(w, n int) {
				var v uint64
				if w == 0 {
					for i := range n {
						direct.Store128Cmpxchg16b(a, uint64(i), uint64(i))
					}
					return
				}
				for range n {
					lo, _ := direct.Load128Cmpxchg16b(a)
					v += lo
				}
				use(v)
			})
		default:
			b.Skip("this CPU runs no assembly variant of load128 and store128 of one kind")
		}
	})
	contended("load128", ModeFlag, true, func(b *testing.B, threads int) {
		c := new(cell128)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				lo, _ := c.u.Load()
				v += lo
			}
			use(v)
		})
	})
	contended("load128", ModeStatic, true, func(b *testing.B, threads int) {
		c := new(cell128)
		a := c.word()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				lo, _ := direct.StaticLoad128(a)
				v += lo
			}
			use(v)
		})
	})
}
