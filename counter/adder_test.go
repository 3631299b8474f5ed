package counter

import (
	"runtime"
	"sync"
	"testing"

	"github.com/gohal/gohal/internal/countertest"
)

// contendTotal is what contendAdder adds.
const contendTotal = 8 * 20000

// contendAdder has 8 goroutines add 1 at once until the Adder has cells
// (or 20000 adds each are done), so tests see the cell path.
func contendAdder(a *Adder) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20000 {
				a.Add(1)
			}
		}()
	}
	wg.Wait()
}

// TestAdderHammer is the add-and-subtract hammer on a fresh Adder (which
// starts on its base and moves to cells when the goroutines collide) and
// on one that already has cells.
func TestAdderHammer(t *testing.T) {
	threads := max(4, 2*runtime.GOMAXPROCS(0))
	iters := countertest.Iterations(50000, 5000)
	var fresh Adder
	countertest.AddSubtract(t, fresh.Add, fresh.Load, threads, iters)
	var spread Adder
	contendAdder(&spread)
	countertest.AddSubtract(t, func(d int64) { spread.Add(d) }, func() int64 { return spread.Load() - contendTotal }, threads, iters)
}

// TestAdderGOMAXPROCS changes GOMAXPROCS between hammers of one Adder:
// the sum stays exact whatever the number of Ps.
func TestAdderGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var a Adder
	var want int64
	for _, p := range []int{1, 4, 2, 8, 1} {
		runtime.GOMAXPROCS(p)
		contendAdder(&a)
		want += contendTotal
		if got := a.Load(); got != want {
			t.Fatalf("GOMAXPROCS %d: Load = %d, want %d", p, got, want)
		}
	}
}

// TestAdderRetiredValue checks that a live base holding the retired mark
// is a value like any other: the Add that finds it moves it to the cells.
func TestAdderRetiredValue(t *testing.T) {
	var a Adder
	a.Add(retired)
	if a.Load() != retired {
		t.Fatalf("Load = %d, want %d", a.Load(), int64(retired))
	}
	a.Add(5)
	if a.Load() != retired+5 || a.cells.Load() == nil {
		t.Fatalf("Load = %d, cells %v", a.Load(), a.cells.Load() != nil)
	}
}

// TestAdderGrows checks the cells double up to maxCells under contention
// and that every generation is summed.
func TestAdderGrows(t *testing.T) {
	var a Adder
	for range 20 {
		contendAdder(&a)
		if s := a.cells.Load(); s != nil && len(s.cells) >= maxCells() {
			break
		}
	}
	n := 0
	for s := a.cells.Load(); s != nil; s = s.prev {
		if len(s.cells) > maxCells() || len(s.cells)&(len(s.cells)-1) != 0 {
			t.Fatalf("generation of %d cells, max %d", len(s.cells), maxCells())
		}
		n++
	}
	t.Logf("%d generations, %d CPUs", n, runtime.NumCPU())
	if a.Load()%contendTotal != 0 {
		t.Fatalf("Load = %d, not a multiple of %d", a.Load(), contendTotal)
	}
}
