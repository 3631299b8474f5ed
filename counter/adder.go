package counter

import (
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Adder is a counter that costs one compare-and-swap while nobody
// contends and spreads over cache lines when many CPUs add at once: the
// design of Java's LongAdder. Add tries a compare-and-swap on a base word
// first; the first time one fails (another CPU added in between), the
// Adder allocates cells, each on a cache line of its own, moves the base's
// value into them and retires the base, and from then on every Add goes to
// a cell. A goroutine finds its cell by hashing the address of its own
// stack to a slot of a small table that names a cell; when its
// compare-and-swap on that cell fails, it completes the add with a
// fetch-and-add, points its slot at another cell and, while there are
// fewer cells than CPUs, doubles them. Load adds up the cells (or returns
// the base while there are none).
//
// Add on an Adder nobody has contended on is inlined into the caller: a
// load of the base, a compare with the retired mark and one
// compare-and-swap, what a sync/atomic add costs. Once cells exist, Add is
// a call to the cell path: no system call, no pinning, a compare-and-swap
// on a line that, in the steady state, only one CPU writes. The cells are
// never taken back: an Adder that was contended once pays that call from
// then on.
//
// Load is not atomic with respect to concurrent Adds (it may miss an Add
// in progress, or see an Add of +1 on one cell and not a -1 on another),
// but a Load that starts after a set of Adds finished (ordered by a
// channel, a mutex, a WaitGroup, ...) sees all of them. Load reads every
// cell: up to twice the number of CPUs lines.
//
// An Adder is one cache line (64 bytes on amd64, 128 on arm64): its fields
// and padding after them, so the fields that follow it in a struct stay
// off its line. Nothing pads before it: allocated on its own (new(Adder))
// it has a line to itself; inside a struct, put it first or after a
// field of padding if the fields before it are written often.
//
// Adder has no AddLimited, for the reason [Striped] has none. The zero
// value is 0; an Adder must not be copied after first use.
type Adder struct {
	_ noCopy
	_ align64
	// base is the count while there are no cells, and retired (for
	// good) once the cells hold it. It is a plain int64 at offset 0 used
	// with sync/atomic functions, not an atomic.Int64 and not after a
	// padding line, because either costs Add inlining cost units that
	// would take it past the inliner's budget (80).
	base  int64
	cells atomic.Pointer[adderCells]
	// state is baseLive, baseMoving while one goroutine moves the base
	// into the first cells, then baseRetired.
	state atomic.Uint32
	_     [lineSize - 12 - unsafe.Sizeof(uintptr(0))]byte
}

// retired marks a base whose value has moved into the cells. A live base
// may hold the same value: Add then takes the cell path, which finds no
// cells and moves that value like any other, so the mark costs nothing
// but one compare on the fast path.
const retired = math.MinInt64

// The states of an Adder's base.
const (
	baseLive uint32 = iota
	baseMoving
	baseRetired
)

// adderCells is one generation of an Adder's cells. A larger generation
// links the one it replaced, whose cells keep what was added to them (and
// what Adds that loaded the old generation still add), so Load sums the
// whole chain; there are at most log2 of the CPU count generations.
type adderCells struct {
	cells []stripe
	mask  uint32
	// grown is set once a goroutine started replacing this generation,
	// so that one collision allocates once.
	grown atomic.Bool
	// slot maps a goroutine hash to a cell index, as in Striped.
	slot [slots]atomic.Uint32
	prev *adderCells
}

// Add adds delta to the counter.
func (a *Adder) Add(delta int64) {
	if old := atomic.LoadInt64(&a.base); old == retired || !atomic.CompareAndSwapInt64(&a.base, old, old+delta) {
		a.addCell(delta)
	}
}

// addCell is Add once the base is contended: it adds delta to the
// calling goroutine's cell, creating the cells on the first contention.
//
//go:noinline
func (a *Adder) addCell(delta int64) {
	s := a.cells.Load()
	if s == nil {
		if s = a.noCells(delta); s == nil {
			return // added to the base
		}
	}
	h := goroutineHash()
	slot := &s.slot[h%slots]
	i := slot.Load() & s.mask
	p := &s.cells[i].v
	old := atomic.LoadUint64(p)
	if atomic.CompareAndSwapUint64(p, old, old+uint64(delta)) {
		return
	}
	// Another goroutine added to this cell in between: finish the add,
	// then move this slot to another cell, a step of 1 to n/2 cells that
	// depends on the goroutine (Striped's rule), and grow the cells if
	// there are fewer than CPUs.
	atomic.AddUint64(p, uint64(delta))
	slot.Store((i + 1 + (h>>8)&(s.mask>>1)) & s.mask)
	if int(s.mask)+1 < maxCells() && !s.grown.Load() && s.grown.CompareAndSwap(false, true) {
		a.grow(s)
	}
}

// noCells is the cell path of an Adder that has no cells yet. The first
// goroutine to get here creates them, moves the base into them and
// retires it, and returns them. Any other adds delta to the base while it
// is still live (and returns nil) or returns the cells once they exist.
func (a *Adder) noCells(delta int64) *adderCells {
	if a.state.Load() == baseLive && a.state.CompareAndSwap(baseLive, baseMoving) {
		s := a.grow(nil)
		// From the swap on, Add sees the retired mark and comes to the
		// cells, which hold the value once the add below is done; Load
		// waits for baseRetired.
		v := atomic.SwapInt64(&a.base, retired)
		atomic.AddUint64(&s.cells[0].v, uint64(v))
		a.state.Store(baseRetired)
		return s
	}
	for {
		if s := a.cells.Load(); s != nil {
			return s
		}
		// Another goroutine is creating the cells. Until it retires
		// the base (which follows publishing them), the base is live.
		if old := atomic.LoadInt64(&a.base); old != retired && atomic.CompareAndSwapInt64(&a.base, old, old+delta) {
			return nil
		}
		runtime.Gosched()
	}
}

// minCells is the size of an Adder's first generation of cells.
const minCells = 2

// maxCells is the size an Adder's cells grow to: the number of CPUs
// rounded up to a power of two (at least minCells), as LongAdder's.
// More cells than CPUs that can run at once would only make Load slower.
func maxCells() int {
	n := minCells
	for n < runtime.NumCPU() && n < 1<<16 {
		n <<= 1
	}
	return n
}

// grow replaces generation old (nil: none yet) by one with twice its
// cells (minCells for the first) and returns the current generation, the
// one it installed or one another goroutine installed first.
func (a *Adder) grow(old *adderCells) *adderCells {
	n := minCells
	if old != nil {
		n = 2 * len(old.cells)
	}
	s := &adderCells{cells: make([]stripe, n), mask: uint32(n - 1), prev: old}
	for i := range s.slot {
		s.slot[i].Store(uint32(i))
	}
	if a.cells.CompareAndSwap(old, s) {
		return s
	}
	return a.cells.Load()
}

// Load returns the count: the base while it is live, else the sum of the
// cells.
func (a *Adder) Load() int64 {
	for {
		switch a.state.Load() {
		case baseLive:
			// The base is live until a goroutine moves it, which it
			// announces first: a base read between two loads of
			// baseLive is the count.
			v := atomic.LoadInt64(&a.base)
			if a.state.Load() == baseLive {
				return v
			}
		case baseRetired:
			var sum uint64
			for s := a.cells.Load(); s != nil; s = s.prev {
				for i := range s.cells {
					sum += atomic.LoadUint64(&s.cells[i].v)
				}
			}
			return int64(sum)
		default:
			// baseMoving: a few instructions of another goroutine's
			// Add, unless it was preempted; let it run.
			runtime.Gosched()
		}
	}
}
