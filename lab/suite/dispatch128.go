package suite

import (
	"sync"
	"testing"

	"github.com/gohal/gohal/lab/cyclebench"
)

// The 128-bit loads and stores: op=load128 and op=store128 in the
// Dispatch section, op=load128 (every goroutine reading one word nobody
// writes) and op=load128mixed (goroutine 0 storing, the others loading) in
// the Contended one. The api mode is Uint128's method, whose word() and
// call of hal's entry a user pays; the flag mode is the same call (hal's
// entry is where the flag is read); the direct mode calls the chosen
// variant's assembly on a word whose address was computed once.

// locked128 is the generic mode's word: two uint64s under a mutex.
type locked128 struct {
	mu sync.Mutex
	w  [2]uint64
}

func (l *locked128) load() (lo, hi uint64) {
	l.mu.Lock()
	lo, hi = l.w[0], l.w[1]
	l.mu.Unlock()
	return lo, hi
}

func (l *locked128) store(lo, hi uint64) {
	l.mu.Lock()
	l.w[0], l.w[1] = lo, hi
	l.mu.Unlock()
}

// add128 registers the 128-bit ops' generic mode, and load128mixed's api
// mode.
func add128() {
	// cas128: a 128-bit CAS of (v, v) to (v+1, v+1) from the value last
	// written, which succeeds.
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
	// cas128 under contention: one CAS attempt per op from the value
	// last seen, the word under a mutex.
	contended("cas128", ModeGeneric, false, func(b *testing.B, threads int) {
		var (
			mu sync.Mutex
			w  = new([2]uint64)
		)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			mu.Lock()
			v := w[0]
			mu.Unlock()
			for range n {
				mu.Lock()
				if w[0] == v && w[1] == v {
					w[0], w[1] = v+1, v+1
					v++
				} else {
					v = w[0]
				}
				mu.Unlock()
			}
			use(v)
		})
	})
	dispatch("load128", ModeGeneric, func(b *testing.B) {
		l, v := new(locked128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			lo, _ := l.load()
			v += lo
		}
		m.Stop()
		use(v)
	})

	dispatch("store128", ModeGeneric, func(b *testing.B) {
		l, v := new(locked128), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			l.store(v, v)
			v++
		}
		m.Stop()
		use(v)
	})

	contended("load128", ModeGeneric, false, func(b *testing.B, threads int) {
		l := new(locked128)
		cyclebench.RunLoop(b, threads, func(_, n int) {
			var v uint64
			for range n {
				lo, _ := l.load()
				v += lo
			}
			use(v)
		})
	})

	// Goroutine 0 stores, the others load: a published 128-bit value
	// read far more often than it changes. With one goroutine it is the
	// writer alone.
	contended("load128mixed", ModeAPI, false, func(b *testing.B, threads int) {
		c := new(cell128)
		cyclebench.RunLoop(b, threads, func(w, n int) {
			var v uint64
			if w == 0 {
				for i := range n {
					c.u.Store(uint64(i), uint64(i))
				}
				return
			}
			for range n {
				lo, _ := c.u.Load()
				v += lo
			}
			use(v)
		})
	})
	contended("load128mixed", ModeGeneric, false, func(b *testing.B, threads int) {
		l := new(locked128)
		cyclebench.RunLoop(b, threads, func(w, n int) {
			var v uint64
			if w == 0 {
				for i := range n {
					l.store(uint64(i), uint64(i))
				}
				return
			}
			for range n {
				lo, _ := l.load()
				v += lo
			}
			use(v)
		})
	})
}
