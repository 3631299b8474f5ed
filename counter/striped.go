package counter

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// stripe is one cache line of a Striped counter.
type stripe struct {
	_ align64
	word
	_ [cacheline.Size - unsafe.Sizeof(word{})%cacheline.Size]byte
}

// slots is the number of entries in a Striped counter's goroutine-to-stripe
// table. A goroutine hashes to a slot; the slot names its stripe.
const slots = 64

// stripeSet is a Striped counter's storage, allocated on first Add.
type stripeSet struct {
	stripes []stripe
	mask    uint32
	// slot maps a goroutine hash to a stripe index. An entry changes
	// when a goroutine meets contention on its stripe and moves on.
	slot [slots]atomic.Uint32
}

// Striped is a counter spread over stripes on separate cache lines, like
// a per-CPU counter: each goroutine adds to one stripe and Load sums them
// all. A goroutine picks its stripe without a system call or a shared
// write: it hashes the address of its own stack to a slot of a small
// table, and the slot names a stripe. When its compare-and-swap on that
// stripe fails (another goroutine is adding to the same line) it completes
// the add with a fetch-and-add and points its slot at another stripe, so
// goroutines that collide drift apart. There are 4 stripes per processor
// (GOMAXPROCS when first used), rounded up to a power of two, at most 256.
//
// Add is cheap under contention; Load is not atomic with respect to
// concurrent Adds (it may miss an Add in progress), but a Load that starts
// after a set of Adds finished sees all of them. The zero value is 0.
//
// Striped has no AddLimited: its count is a sum over many words, and no
// single atomic step can check that sum against a limit while adding to
// one stripe. A limit needs [CASLoop] or [FetchAdd].
type Striped struct {
	set atomic.Pointer[stripeSet]
}

// Add adds delta to the counter.
func (c *Striped) Add(delta int64) {
	s := c.set.Load()
	if s == nil {
		s = c.init()
	}
	h := goroutineHash()
	slot := &s.slot[h%slots]
	i := slot.Load() & s.mask
	p := &s.stripes[i].v
	old := hal.LoadAcquireUint64(p)
	if hal.CompareAndSwapUint64(p, old, old+uint64(delta)) {
		return
	}
	// Contended: finish the add, then move this slot to another stripe,
	// a step of 1 to n/2 stripes that depends on the goroutine, so two
	// goroutines that met do not move in step.
	hal.FetchAddUint64(p, uint64(delta))
	slot.Store((i + 1 + (h>>8)&(s.mask>>1)) & s.mask)
}

// Load returns the sum of all stripes.
func (c *Striped) Load() int64 {
	s := c.set.Load()
	if s == nil {
		return 0
	}
	return int64(sumStripes(s.stripes))
}

// sumStripes returns the sum of the words of ss, Striped's stripes or an
// Adder generation's cells.
func sumStripes(ss []stripe) uint64 {
	var sum uint64
	for i := range ss {
		sum += hal.LoadAcquireUint64(&ss[i].v)
	}
	return sum
}

// init allocates the stripes; if another goroutine got there first, its
// set is used.
func (c *Striped) init() *stripeSet {
	n := 1
	for n < 4*runtime.GOMAXPROCS(0) && n < 256 {
		n <<= 1
	}
	s := &stripeSet{stripes: make([]stripe, n), mask: uint32(n - 1)}
	for i := range s.slot {
		s.slot[i].Store(uint32(i))
	}
	if c.set.CompareAndSwap(nil, s) {
		return s
	}
	return c.set.Load()
}

// goroutineHash hashes the address of a local variable: goroutines run on
// separate stacks, so different goroutines (almost always) get different
// values, and one goroutine gets the same value from call to call until
// its stack moves. Only the integer is kept, so the variable stays on the
// stack.
func goroutineHash() uint32 {
	var x byte
	a := uint64(uintptr(unsafe.Pointer(&x)))
	// Stacks are at least 2 KiB apart; Fibonacci-hash the bits above.
	return uint32((a >> 11) * 0x9E3779B97F4A7C15 >> 40)
}
