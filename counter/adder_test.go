package counter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/countertest"
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

// TestAdderOrderedAddsStayOnBase checks LongAdder's promise: Adds that
// are ordered one after another (here by a channel, each goroutine's
// adds after the one before finished) never fail a probe, so the Adder
// never grows cells, whatever the number of goroutines.
func TestAdderOrderedAddsStayOnBase(t *testing.T) {
	var a Adder
	turn := make(chan struct{}, 1)
	turn <- struct{}{}
	var wg sync.WaitGroup
	const goroutines, each = 16, 3 * probeEvery
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-turn
			for range each {
				a.Add(1)
			}
			turn <- struct{}{}
		}()
	}
	wg.Wait()
	if a.cells.Load() != nil {
		t.Errorf("ordered Adds grew cells")
	}
	if got := a.Load(); got != goroutines*each {
		t.Fatalf("Load = %d, want %d", got, goroutines*each)
	}
}

// TestAdderSpreads checks that goroutines adding at once make the Adder
// grow cells and mark itself spread, so that Adds stop writing the base's
// line. A probe fails only when another CPU adds inside its window of a
// few instructions (and the line the probe just loaded rarely leaves
// before its CAS), so two goroutines, released together once both run,
// add until the cells exist, for at most a second. Whether they collide
// depends on both getting a CPU at once, which a busy machine does not
// give: without cells after the second the test is skipped, not failed
// (TestAdderRepairsTicks checks the spreading itself deterministically).
func TestAdderSpreads(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs adding at once")
	}
	var a Adder
	var arrived atomic.Int32
	var added [2]int64
	var wg sync.WaitGroup
	start := time.Now()
	for g := range added {
		wg.Add(1)
		go func() {
			defer wg.Done()
			arrived.Add(1)
			for arrived.Load() < 2 {
				runtime.Gosched()
			}
			for added[g]%1024 != 0 || (a.cells.Load() == nil && time.Since(start) < time.Second) {
				a.Add(1)
				added[g]++
			}
		}()
	}
	wg.Wait()
	if a.cells.Load() == nil {
		t.Skipf("no probe failed in %d Adds of two goroutines in a second: they did not add at once", added[0]+added[1])
	}
	// The tick count says spread, or it says less because one goroutine
	// stored a count it had loaded before the cells appeared (addSlow's
	// comment): then the Adds that follow go to the base and count up to
	// spread, which they reach within probeEvery Adds.
	stale, repair := a.loadTicks(), int64(0)
	for ; a.loadTicks() != spread && repair < probeEvery; repair++ {
		a.Add(1)
	}
	if a.loadTicks() != spread {
		t.Errorf("tick count %d with cells (%d after the goroutines stopped) after %d more Adds, want spread (%d)",
			a.loadTicks(), stale, repair, spread)
	}
	if got, want := a.Load(), added[0]+added[1]+repair; got != want {
		t.Fatalf("Load = %d, want %d", got, want)
	}
	t.Logf("cells after %d Adds; tick count %d when the goroutines stopped, spread after %d more", added[0]+added[1], stale, repair)
}

// TestAdderRepairsTicks stores a tick count over spread after the cells
// exist, as a goroutine that loaded the count before the spreading Add's
// store may: the Adds that follow go to the base, which Load counts, until
// the probe sets spread back, and from then on to the cells.
func TestAdderRepairsTicks(t *testing.T) {
	var a Adder
	a.Add(7)
	a.grow(nil) // as a failed probe does
	a.Add(1)    // on the base: the count is not spread yet
	if base := atomic.LoadInt64(&a.base); base != 8 {
		t.Fatalf("base = %d before the probe, want 8", base)
	}
	for range probeEvery {
		a.Add(1)
	}
	if a.loadTicks() != spread {
		t.Fatalf("tick count %d after a probe found cells, want spread", a.loadTicks())
	}
	base := atomic.LoadInt64(&a.base)
	a.storeTicks(3) // the lost store
	for range 2 * probeEvery {
		a.Add(1)
	}
	if a.loadTicks() != spread {
		t.Fatalf("tick count %d, not repaired to spread", a.loadTicks())
	}
	// Counts 4 to probeEvery-1 go to the base; probeEvery probes.
	if got, want := atomic.LoadInt64(&a.base)-base, int64(probeEvery-4); got != want {
		t.Errorf("%d Adds went to the base after the lost store, want %d", got, want)
	}
	if want := int64(8 + 3*probeEvery); a.Load() != want {
		t.Fatalf("Load = %d, want %d", a.Load(), want)
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
