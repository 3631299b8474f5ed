package counter

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Adder is a counter that costs what a sync/atomic add costs while nobody
// contends and spreads over cache lines when many CPUs add at once: the
// design of Java's LongAdder. Add is a fetch-and-add on a base word; one
// Add in every probeEvery is instead a load and a compare-and-swap on it,
// LongAdder's test for contention. The first time such a probe fails
// (another CPU added in between), the Adder allocates cells, each on a
// cache line of its own, and from then on every Add goes to a cell. A
// goroutine finds its cell by hashing the address of its own stack to a
// slot of a small table that names a cell; when its compare-and-swap on
// that cell fails, it completes the add with a fetch-and-add, points its
// slot at another cell and, while there are fewer cells than CPUs, doubles
// them. Load adds up the base and the cells.
//
// Why a fetch-and-add and not LongAdder's compare-and-swap on every Add:
// a compare-and-swap needs the word's value first, and a load of the word
// a locked instruction has just written waits for that instruction, so a
// load plus a compare-and-swap costs a dependent load more than the locked
// add alone, on every Add, whatever the machine. A probe in
// every probeEvery Adds finds the same contention, a little later, and
// until it does every Add costs one fetch-and-add, as an atomic counter
// does. Adds ordered one after another (by a mutex, a channel, a single
// goroutine) never fail a probe, so a counter that is not contended never
// grows cells.
//
// Add's fast path is an atomic load and store of the probe tick (on the
// base's own line, no locked instruction) and a fetch-and-add. Add is a
// call, not inlined: the tick's two hal operations take its body past
// the inliner's budget (80 cost units). Once cells exist, Add calls the
// cell path: no system call, no pinning, a compare-and-swap on a line
// that, in the steady state, only one CPU writes. The cells are never
// taken back: an Adder that was contended once pays that call from then
// on.
//
// Load is not atomic with respect to concurrent Adds (it may miss an Add
// in progress, or see an Add of +1 on one cell and not a -1 on another),
// but a Load that starts after a set of Adds finished (ordered by a
// channel, a mutex, a WaitGroup, ...) sees all of them. Load reads the
// base and every cell: up to twice the number of CPUs lines.
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
	adderWords
	_ [cacheline.Size - unsafe.Sizeof(adderWords{})%cacheline.Size]byte
}

// adderWords are an Adder's words, on one line.
type adderWords struct {
	// base holds what Adds added before the cells existed (and what
	// Adds that loaded a nil cells pointer just before they appeared
	// still add), updated with sync/atomic's fetch-and-add, which the
	// compiler inlines.
	base  int64
	cells atomic.Pointer[adderCells]
	// ticks counts Adds on the base modulo probeEvery, to pick the
	// probes, and says spread once there are cells. It is a hint, read
	// and written with hal's acquire load and release store (see Add), on
	// the base's line: a second line would make the Adder larger for
	// nothing.
	ticks uint32
}

// probeEvery is how many Adds on the base make one probe: one in
// probeEvery is a compare-and-swap, the Add whose increment takes the tick
// count to a multiple of probeEvery.
const probeEvery = 1 << 8

// Add adds delta to the counter.
//
// The tick count is a hint: it picks which Adds probe for contention and
// says whether the Adder has cells, and the count is right whatever it
// holds, as every path adds to a word Load sums. Two goroutines may lose
// each other's stores, which only moves a probe. So it needs atomic
// accesses (a plain one would be a data race) but no ordering, and its
// load and store are the cheapest atomic ones hal has: the acquire load
// and the release store: MOVs on amd64 (the store in an assembly call
// where hal does not bind it inline), LDAR and STLR on arm64. There is one body in every build, so
// the race detector (under which hal's ops are sync/atomic ones) checks
// the Add that users run. The store cannot go: without a write per Add
// nothing counts Adds (a probe picked from the base's value misses
// counters that go up and down by one, whose values repeat).
func (a *Adder) Add(delta int64) {
	if t := hal.LoadAcquireUint32(&a.ticks) + 1; t%probeEvery != 0 {
		hal.StoreReleaseUint32(&a.ticks, t)
		atomic.AddInt64(&a.base, delta)
	} else {
		a.addSlow(delta)
	}
}

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

// spread is the tick count of an Adder that has cells: the count that
// sends Add to addSlow (spread+1 is 0, a multiple of probeEvery) and that
// addSlow leaves as it is. The fast path may also store it (every 2^32
// Adds); addSlow tells the two apart by the cells pointer.
const spread = ^uint32(0)

// addSlow is Add's probe and Add once there are cells: with no cells
// yet, it adds delta to the base by a compare-and-swap and creates the
// cells if that fails; with cells, it adds delta to the calling
// goroutine's cell.
//
//go:noinline
func (a *Adder) addSlow(delta int64) {
	s := a.cells.Load()
	if s == nil {
		a.storeTicks(a.loadTicks() + 1) // past the multiple of probeEvery
		old := atomic.LoadInt64(&a.base)
		if atomic.CompareAndSwapInt64(&a.base, old, old+delta) {
			return
		}
		// Another CPU added between the load and the
		// compare-and-swap: contention. Add to a cell instead.
		s = a.grow(nil)
	}
	// The tick count says spread from now on. An Add that loaded the
	// count before this store may store its own increment over it
	// afterwards; then Adds go to the base again (which Load counts)
	// until the next probe comes here and sets it back. Only that
	// repair writes: a spread Adder's line is read, not written.
	if a.loadTicks() != spread {
		a.storeTicks(spread)
	}
	a.addCell(s, delta)
}

// addCell adds delta to the calling goroutine's cell of generation s.
func (a *Adder) addCell(s *adderCells, delta int64) {
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

// Load returns the count: the base plus the sum of the cells.
func (a *Adder) Load() int64 {
	sum := uint64(atomic.LoadInt64(&a.base))
	for s := a.cells.Load(); s != nil; s = s.prev {
		sum += sumStripes(s.cells)
	}
	return int64(sum)
}

// loadTicks and storeTicks read and write the tick count, as Add does.
func (a *Adder) loadTicks() uint32 { return hal.LoadAcquireUint32(&a.ticks) }

func (a *Adder) storeTicks(t uint32) { hal.StoreReleaseUint32(&a.ticks, t) }
