package peers

import (
	"regexp"
	"sync"
	"testing"
)

// TestNames checks that every sub-benchmark name has the documented form
// and that no name is used twice.
func TestNames(t *testing.T) {
	re := regexp.MustCompile(`^what=(counter|lock|uint128|cache|rwlock)/impl=[a-z0-9-]+/threads=[1-9][0-9]*(/op=(load|store|cas|w[0-9]+|writer[0-9]+ms|revoke))?$`)
	seen := map[string]bool{}
	count := 0
	for _, tk := range tasks {
		if hasOp := tk.what == "uint128" || tk.what == "rwlock"; hasOp != (tk.op != "") {
			t.Errorf("task %s: op %q: only uint128 and rwlock tasks have an op, and all of them", tk.what, tk.op)
		}
		for _, i := range tk.impls {
			for _, n := range threads {
				name := tk.name(i, n)
				if !re.MatchString(name) {
					t.Errorf("bad benchmark name %q", name)
				}
				if seen[name] {
					t.Errorf("benchmark name %q used twice", name)
				}
				seen[name] = true
				count++
			}
		}
	}
	if count == 0 {
		t.Fatal("no benchmarks")
	}
}

// hammer runs f(worker) on g goroutines, each iters times.
func hammer(g, iters int, f func(w int)) {
	var wg sync.WaitGroup
	for w := range g {
		wg.Go(func() {
			for range iters {
				f(w)
			}
		})
	}
	wg.Wait()
}

// TestGoschedSpinExcludes hammers the hand-rolled Gosched spin lock: a
// two-word update under the lock must never be seen half done, and no
// increment may be lost.
func TestGoschedSpinExcludes(t *testing.T) {
	const g, iters = 8, 20000
	var l goschedSpin
	var a, b int
	torn := 0
	hammer(g, iters, func(int) {
		l.Lock()
		if a != b {
			torn++
		}
		a++
		b++
		l.Unlock()
	})
	if torn != 0 || a != g*iters || b != g*iters {
		t.Fatalf("torn %d, a %d, b %d, want 0, %d, %d", torn, a, b, g*iters, g*iters)
	}
}

// TestMutexPair hammers the mutex-guarded 128-bit pair with the uint128
// benchmark's three operations: concurrent increments by CAS never lose
// one, and no load sees the halves out of step.
func TestMutexPair(t *testing.T) {
	const g, iters = 8, 20000
	p := new(mutexPair)
	var mu sync.Mutex
	torn := 0
	hammer(g, iters, func(w int) {
		for {
			lo, hi := p.Load()
			if lo != hi {
				mu.Lock()
				torn++
				mu.Unlock()
			}
			if p.CompareAndSwap(lo, hi, lo+1, hi+1) {
				return
			}
		}
	})
	if lo, hi := p.Load(); torn != 0 || lo != g*iters || hi != g*iters {
		t.Fatalf("torn %d, word (%d, %d), want 0, (%d, %d)", torn, lo, hi, g*iters, g*iters)
	}
	if p.CompareAndSwap(0, 0, 1, 1) {
		t.Fatal("CompareAndSwap with a stale old value succeeded")
	}
	p.Store(7, 9)
	if lo, hi := p.Load(); lo != 7 || hi != 9 {
		t.Fatalf("Load after Store(7, 9) = (%d, %d)", lo, hi)
	}
}
