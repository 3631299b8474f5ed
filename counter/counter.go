// Package counter provides shared 64-bit counters: four ways of updating
// one word from many CPUs.
//
// They follow FreeBSD's per-user resource counters (uidinfo, updated with
// atomic_fetchadd_long and a limit check) and the per-CPU caches of its UMA
// allocator:
//
//   - [CASLoop] is lock-free: it loads the value and retries a
//     compare-and-swap until no other CPU changed it in between. Under
//     contention some attempts fail; AddRetries says how many.
//   - [FetchAdd] is wait-free: one fetch-and-add instruction that always
//     succeeds, so every Add finishes in a bounded number of steps.
//   - [Striped] spreads the count over per-CPU-ish stripes on separate
//     cache lines, so CPUs adding at the same time rarely touch the same
//     line; Load sums the stripes.
//   - [Adder] is Java's LongAdder: one fetch-and-add on a base word while
//     nobody contends, cells on separate lines once goroutines collide.
//
// Which to use: [Adder], unless one of the following fits better.
// Adder's uncontended Add is one locked add, as an atomic counter's is,
// and its contended Add touches a line that mostly one CPU writes. Its
// Load sums the base and every cell, up to twice as many lines as CPUs,
// so a counter read about as often as it is added is better as a
// [FetchAdd] (one word). [Striped] has no base phase: from the first Add
// it hashes to one of a fixed number of stripes (4 per P, fixed when first
// used), so it suits a counter known to be contended from the start, and
// its Load always reads all of them. percpu.Counter (package percpu) adds
// to the current P's shard with no locked instruction at all but pays two
// runtime calls (pinning to the P and unpinning) per Add: it wins where a
// locked instruction costs more than those calls, which depends on the
// machine (halbench's counter answer shows it), and only it is exact per P. A counter
// that must not pass a limit needs [CASLoop] or [FetchAdd] (AddLimited).
//
// CASLoop, FetchAdd and Striped go through gohal's [hal] operations; Adder
// uses sync/atomic, which the compiler inlines, for its base, and hal's
// acquire load and release store for its probe tick. Each keeps
// its words on cache lines of their own. The zero value of each is a
// counter at 0.
package counter

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// align64 is a zero-size field that gives a struct 8-byte alignment, on
// 32-bit platforms too, as sync/atomic's 64-bit types have: with it a
// counter's 64-bit word is aligned for atomic operations wherever the
// counter is placed (after a uint32 field, in an array, ...). The compiler
// aligns a type holding atomic.Int64 to 8 bytes; an array of none of them
// takes no space.
type align64 [0]atomic.Int64

// word is the 64-bit word of a CASLoop, a FetchAdd or a stripe, which pad
// it to a cache line (package cacheline's rule).
type word struct{ v uint64 }

// noCopy makes go vet's copylocks check report a copied counter: a copy
// is a second counter, and adds to it are lost.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// CASLoop is a lock-free counter: Add loads the value and retries a
// compare-and-swap until it wins. The zero value is 0; a CASLoop must not
// be copied after first use.
type CASLoop struct {
	_ noCopy
	_ align64
	_ cacheline.Line
	word
	_ [cacheline.Size - unsafe.Sizeof(word{})%cacheline.Size]byte
}

// Add adds delta to the counter.
func (c *CASLoop) Add(delta int64) { c.AddRetries(delta) }

// AddRetries adds delta to the counter and returns how many
// compare-and-swap attempts failed because another goroutine changed the
// value first: 0 when uncontended.
func (c *CASLoop) AddRetries(delta int64) (retries int) {
	for {
		old := hal.LoadAcquireUint64(&c.v)
		if hal.CompareAndSwapUint64(&c.v, old, old+uint64(delta)) {
			return retries
		}
		retries++
	}
}

// AddLimited adds delta if the sum fits, and reports whether it added; see
// [FetchAdd.AddLimited] for what fits. The check and the add are one
// compare-and-swap, so a refused delta never touches the counter and the
// counter never passes max through AddLimited.
func (c *CASLoop) AddLimited(delta, max int64) bool {
	for {
		old := hal.LoadAcquireUint64(&c.v)
		if !fits(int64(old), delta, max) {
			return false
		}
		if hal.CompareAndSwapUint64(&c.v, old, old+uint64(delta)) {
			return true
		}
	}
}

// Load returns the counter's value.
func (c *CASLoop) Load() int64 { return int64(hal.LoadAcquireUint64(&c.v)) }

// FetchAdd is a wait-free counter: Add is one fetch-and-add. The zero
// value is 0; a FetchAdd must not be copied after first use.
type FetchAdd struct {
	_ noCopy
	_ align64
	_ cacheline.Line
	word
	_ [cacheline.Size - unsafe.Sizeof(word{})%cacheline.Size]byte
}

// Add adds delta to the counter.
func (c *FetchAdd) Add(delta int64) { hal.FetchAddUint64(&c.v, uint64(delta)) }

// AddLimited adds delta if the sum fits, and reports whether it added.
// A delta fits when:
//
//   - delta > 0: the counter's value v is at most max and v+delta is at
//     most max (so the sum neither passes max nor overflows int64);
//   - delta <= 0: v+delta does not go below math.MinInt64. max does not
//     limit a decrement: taking references back always succeeds, even on
//     a counter that is above max (through Add, or an earlier larger max).
//
// max may be any int64. A refused delta leaves the counter unchanged, and
// AddLimited never takes the counter past max (or wraps it).
//
// Like FreeBSD's chgproccnt, FetchAdd's AddLimited is wait-free in the
// common case: it loads the value, and if the delta fits it adds with one
// fetch-and-add, then takes the delta back if concurrent adds made it no
// longer fit. So a concurrent Load can see the counter above max for that
// moment, and a concurrent AddLimited that sees the overshoot can fail
// although it would have fit once the delta was taken back. That path is
// taken only where no moment's value can wrap: |delta| at most 2^32, max
// at most 2^62 and the loaded value within ±2^62, so that a wrap would
// need other goroutines to move the counter by about 2^62 between this
// call's load and its add. Otherwise AddLimited is a compare-and-swap
// loop, exact as [CASLoop.AddLimited].
func (c *FetchAdd) AddLimited(delta, max int64) bool {
	old := int64(hal.LoadAcquireUint64(&c.v))
	if !fits(old, delta, max) {
		return false
	}
	if delta < -fastDelta || delta > fastDelta || max > fastRange || old < -fastRange || old > fastRange {
		return c.addLimitedCAS(delta, max)
	}
	cur := int64(hal.FetchAddUint64(&c.v, uint64(delta)))
	if fits(cur, delta, max) {
		return true
	}
	hal.FetchAddUint64(&c.v, uint64(-delta))
	return false
}

// The bounds of FetchAdd.AddLimited's fetch-and-add path: see its doc.
const (
	fastDelta = 1 << 32
	fastRange = 1 << 62
)

// addLimitedCAS is AddLimited as a compare-and-swap loop: the slow path.
func (c *FetchAdd) addLimitedCAS(delta, max int64) bool {
	for {
		old := hal.LoadAcquireUint64(&c.v)
		if !fits(int64(old), delta, max) {
			return false
		}
		if hal.CompareAndSwapUint64(&c.v, old, old+uint64(delta)) {
			return true
		}
	}
}

// fits reports whether AddLimited may add delta to a counter holding v:
// see [FetchAdd.AddLimited]. It never overflows: for delta > 0 it compares
// the room max-v, exact as an unsigned number once v <= max.
func fits(v, delta, max int64) bool {
	if delta <= 0 {
		return v >= math.MinInt64-delta
	}
	return v <= max && uint64(max)-uint64(v) >= uint64(delta)
}

// Load returns the counter's value.
func (c *FetchAdd) Load() int64 { return int64(hal.LoadAcquireUint64(&c.v)) }
