package suite

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cyclebench"
)

// The binding modes: the ways a caller can reach one op. Every body below
// writes its op inline in the measuring loop, so two modes of one op differ
// only in the binding.
const (
	// ModeAPI calls hal's exported function.
	ModeAPI = "api"
	// ModeInline uses the sync/atomic intrinsic, which the compiler
	// inlines: the floor, where one exists.
	ModeInline = "inline"
	// ModeTable calls the func value in hal.Table(): an indirect call,
	// plus the ABI wrapper in front of an assembly function.
	ModeTable = "table"
	// ModeClosure calls a func value that is a Go closure over the
	// intrinsic (or, for ops without one, over hal's exported function):
	// an indirect call without the ABI wrapper.
	ModeClosure = "closure"
	// ModeGeneric is portable Go that needs no special instruction:
	// fetch-add and swap as a CAS loop, the 128-bit CAS under a mutex,
	// pause as runtime.Gosched, the counter as the monotonic clock (what
	// hal's portable build does).
	ModeGeneric = "generic"
)

func init() {
	for _, sec := range []string{"Dispatch", "Contended"} {
		for _, l := range [][2]string{
			{ModeAPI, "hal's exported function (assembly, called directly)"},
			{ModeInline, "the sync/atomic intrinsic, inlined by the compiler"},
			{ModeTable, "hal.Table()'s func value: indirect call + ABI0 wrapper"},
			{ModeClosure, "a table entry that is a Go closure over the intrinsic (or over hal's function): indirect call, no wrapper"},
			{ModeGeneric, "portable Go: CAS loop for fetch-add/swap, mutex for cas128, Gosched for pause, monotonic clock for cycles"},
		} {
			AddLegend(Legend{Section: sec, Key: "mode=" + l[0], Text: l[1]})
		}
	}
	AddPair(Pair{Title: "api vs inline: fetchadd64, one goroutine",
		Base: "Dispatch/op=fetchadd64/mode=inline", Other: "Dispatch/op=fetchadd64/mode=api"})
	AddPair(Pair{Title: "table vs api: fetchadd64, one goroutine",
		Base: "Dispatch/op=fetchadd64/mode=api", Other: "Dispatch/op=fetchadd64/mode=table"})
	addDispatch()
	addContended()
}

// closures is a dispatch table like hal.Table() whose entries are Go
// closures. It is a package variable, so the compiler cannot see through
// the func values: every call is indirect.
var closures = struct {
	FetchAddUint64       func(addr *uint64, delta uint64) uint64
	CompareAndSwapUint64 func(addr *uint64, old, new uint64) bool
	SwapUint64           func(addr *uint64, new uint64) uint64
	LoadAcquireUint64    func(addr *uint64) uint64
	Pause                func()
	CompareAndSwap128    func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) bool
	Cycles               func() uint64
}{
	FetchAddUint64:       func(addr *uint64, delta uint64) uint64 { return atomic.AddUint64(addr, delta) - delta },
	CompareAndSwapUint64: func(addr *uint64, old, new uint64) bool { return atomic.CompareAndSwapUint64(addr, old, new) },
	SwapUint64:           func(addr *uint64, new uint64) uint64 { return atomic.SwapUint64(addr, new) },
	LoadAcquireUint64:    func(addr *uint64) uint64 { return atomic.LoadUint64(addr) },
	Pause:                func() { hal.Pause() },
	CompareAndSwap128: func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) bool {
		return u.CompareAndSwap(oldLo, oldHi, newLo, newHi)
	},
	Cycles: func() uint64 { return hal.Cycles() },
}

// genericEpoch anchors the generic cycle counter, as in hal's portable
// build.
var genericEpoch = time.Now()

// dispatchBaseline is the mode each op's ratios are taken against: the
// intrinsic where there is one, else hal's function.
var dispatchBaseline = map[string]string{
	"fetchadd64":    ModeInline,
	"cas64":         ModeInline,
	"swap64":        ModeInline,
	"loadacquire64": ModeInline,
	"pause":         ModeAPI,
	"cas128":        ModeAPI,
	"cycles":        ModeAPI,
}

// DispatchName returns the name of the uncontended benchmark of op in
// mode, e.g. "Dispatch/op=fetchadd64/mode=api".
func DispatchName(op, mode string) string { return "Dispatch/op=" + op + "/mode=" + mode }

// ContendedName returns the name of the contended benchmark of op in mode
// at the given thread count (0 for the "threads=*" pattern).
func ContendedName(op, mode string, threads int) string {
	n := "Contended/op=" + op + "/mode=" + mode + "/" + ThreadsWildcard
	if threads > 0 {
		n = withThreads(n, threads)
	}
	return n
}

func dispatch(op, mode string, f func(b *testing.B)) {
	Add(Bench{Name: DispatchName(op, mode), Baseline: DispatchName(op, dispatchBaseline[op]), F: f})
}

func contended(op, mode string, full bool, f func(b *testing.B, threads int)) {
	Add(Bench{Name: ContendedName(op, mode, 0), Baseline: ContendedName(op, ModeInline, 0), Full: full, Threaded: f})
}

// addDispatch registers the single-goroutine benchmarks. Each follows one
// pattern: a word on its own cache line, the op inline in a b.Loop loop
// bracketed by cyclebench's meter, and the result consumed after the loop.
func addDispatch() {
	// fetchadd64
	dispatch("fetchadd64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = atomic.AddUint64(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchadd64", ModeAPI, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchAddUint64(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchadd64", ModeTable, func(b *testing.B) {
		c, v, t := new(cell), uint64(0), hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.FetchAddUint64.Func(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchadd64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = closures.FetchAddUint64(&c.v, 1)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchadd64", ModeGeneric, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			for {
				old := atomic.LoadUint64(&c.v)
				if atomic.CompareAndSwapUint64(&c.v, old, old+1) {
					v = old
					break
				}
			}
		}
		m.Stop()
		use(v)
	})

	// cas64: a CAS from the value last written, which succeeds.
	dispatch("cas64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if atomic.CompareAndSwapUint64(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeAPI, func(b *testing.B) {
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
	dispatch("cas64", ModeTable, func(b *testing.B) {
		c, v, t := new(cell), uint64(0), hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			if t.CompareAndSwapUint64.Func(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if closures.CompareAndSwapUint64(&c.v, v, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})

	// swap64
	dispatch("swap64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = atomic.SwapUint64(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeAPI, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.SwapUint64(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeTable, func(b *testing.B) {
		c, v, t := new(cell), uint64(0), hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.SwapUint64.Func(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = closures.SwapUint64(&c.v, v+1)
		}
		m.Stop()
		use(v)
	})
	dispatch("swap64", ModeGeneric, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			for {
				old := atomic.LoadUint64(&c.v)
				if atomic.CompareAndSwapUint64(&c.v, old, v+1) {
					v = old
					break
				}
			}
		}
		m.Stop()
		use(v)
	})

	// loadacquire64
	dispatch("loadacquire64", ModeInline, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = atomic.LoadUint64(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeAPI, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.LoadAcquireUint64(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeTable, func(b *testing.B) {
		c, v, t := new(cell), uint64(0), hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.LoadAcquireUint64.Func(&c.v)
		}
		m.Stop()
		use(v)
	})
	dispatch("loadacquire64", ModeClosure, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = closures.LoadAcquireUint64(&c.v)
		}
		m.Stop()
		use(v)
	})

	// pause
	dispatch("pause", ModeAPI, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			hal.Pause()
		}
		m.Stop()
	})
	dispatch("pause", ModeTable, func(b *testing.B) {
		t := hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			t.Pause.Func()
		}
		m.Stop()
	})
	dispatch("pause", ModeClosure, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			closures.Pause()
		}
		m.Stop()
	})
	dispatch("pause", ModeGeneric, func(b *testing.B) {
		m := cyclebench.Start(b)
		for b.Loop() {
			runtime.Gosched()
		}
		m.Stop()
	})

	// cas128: a 128-bit CAS of (v, v) to (v+1, v+1) from the value last
	// written, which succeeds.
	dispatch("cas128", ModeAPI, func(b *testing.B) {
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
	dispatch("cas128", ModeTable, func(b *testing.B) {
		c, v, t := new(cell128), uint64(0), hal.Table()
		a := c.u.Addr()
		m := cyclebench.Start(b)
		for b.Loop() {
			if _, _, ok := t.CompareAndSwap128.Func(a, v, v, v+1, v+1); ok {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas128", ModeClosure, func(b *testing.B) {
		c, v := new(cell128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			if closures.CompareAndSwap128(&c.u, v, v, v+1, v+1) {
				v++
			}
		}
		m.Stop()
		use(v)
	})
	dispatch("cas128", ModeGeneric, func(b *testing.B) {
		var (
			mu sync.Mutex
			w  = new([2]uint64)
			v  uint64
		)
		m := cyclebench.Start(b)
		for b.Loop() {
			mu.Lock()
			if w[0] == v && w[1] == v {
				w[0], w[1] = v+1, v+1
				v++
			}
			mu.Unlock()
		}
		m.Stop()
		use(v)
	})

	// cycles
	dispatch("cycles", ModeAPI, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.Cycles()
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeTable, func(b *testing.B) {
		v, t := uint64(0), hal.Table()
		m := cyclebench.Start(b)
		for b.Loop() {
			v = t.Cycles.Func()
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeClosure, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = closures.Cycles()
		}
		m.Stop()
		use(v)
	})
	dispatch("cycles", ModeGeneric, func(b *testing.B) {
		var v uint64
		m := cyclebench.Start(b)
		for b.Loop() {
			v = uint64(time.Since(genericEpoch))
		}
		m.Stop()
		use(v)
	})
}

// addContended registers the contended benchmarks: every goroutine works
// on one shared word, the op inline in the loop cyclebench.RunLoop hands
// each goroutine (the same harness at every thread count, threads=1
// included).
func addContended() {
	contended("fetchadd64", ModeInline, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += atomic.AddUint64(&c.v, 1)
			}
			use(v)
		})
	})
	contended("fetchadd64", ModeAPI, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += hal.FetchAddUint64(&c.v, 1)
			}
			use(v)
		})
	})
	contended("fetchadd64", ModeTable, false, func(b *testing.B, threads int) {
		c, t := new(cell), hal.Table()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += t.FetchAddUint64.Func(&c.v, 1)
			}
			use(v)
		})
	})
	contended("fetchadd64", ModeClosure, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v += closures.FetchAddUint64(&c.v, 1)
			}
			use(v)
		})
	})
	contended("fetchadd64", ModeGeneric, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				for {
					old := atomic.LoadUint64(&c.v)
					if atomic.CompareAndSwapUint64(&c.v, old, old+1) {
						v += old
						break
					}
				}
			}
			use(v)
		})
	})

	// cas64 under contention: one CAS attempt per op, from the value
	// last seen; a failed attempt reloads the word (a plain load, the same
	// in every mode).
	contended("cas64", ModeInline, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if atomic.CompareAndSwapUint64(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})
	contended("cas64", ModeAPI, false, func(b *testing.B, threads int) {
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
	contended("cas64", ModeTable, true, func(b *testing.B, threads int) {
		c, t := new(cell), hal.Table()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if t.CompareAndSwapUint64.Func(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})
	contended("cas64", ModeClosure, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			v := atomic.LoadUint64(&c.v)
			for range n {
				if closures.CompareAndSwapUint64(&c.v, v, v+1) {
					v++
				} else {
					v = atomic.LoadUint64(&c.v)
				}
			}
			use(v)
		})
	})

	// swap64
	contended("swap64", ModeInline, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = atomic.SwapUint64(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("swap64", ModeAPI, false, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = hal.SwapUint64(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("swap64", ModeTable, true, func(b *testing.B, threads int) {
		c, t := new(cell), hal.Table()
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = t.SwapUint64.Func(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("swap64", ModeClosure, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				v = closures.SwapUint64(&c.v, v+1)
			}
			use(v)
		})
	})
	contended("swap64", ModeGeneric, true, func(b *testing.B, threads int) {
		c := new(cell)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				for {
					old := atomic.LoadUint64(&c.v)
					if atomic.CompareAndSwapUint64(&c.v, old, v+1) {
						v = old
						break
					}
				}
			}
			use(v)
		})
	})
}
