// Package counter provides shared 64-bit counters that show three ways of
// updating one word from many CPUs, after FreeBSD's per-user resource
// counters (uidinfo, updated with atomic_fetchadd_long and a limit check)
// and the per-CPU caches of its UMA allocator:
//
//   - [CASLoop] is lock-free: it loads the value and retries a
//     compare-and-swap until no other CPU changed it in between. Under
//     contention some attempts fail; AddRetries says how many.
//   - [FetchAdd] is wait-free: one fetch-and-add instruction that always
//     succeeds, so every Add finishes in a bounded number of steps.
//   - [Striped] spreads the count over per-CPU-ish stripes on separate
//     cache lines, so CPUs adding at the same time rarely touch the same
//     line; Load sums the stripes.
//
// All three go through gohal's [hal] operations. Each keeps its word on a
// cache line of its own. The zero value of each is a counter at 0.
package counter

import (
	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// lineSize is the cache-line padding unit (64 bytes on amd64, 128 on
// arm64).
const lineSize = cacheline.Size

// CASLoop is a lock-free counter: Add loads the value and retries a
// compare-and-swap until it wins. The zero value is 0.
type CASLoop struct {
	_ [lineSize]byte
	v uint64
	_ [lineSize - 8]byte
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

// AddLimited adds delta unless the result would exceed max, and reports
// whether it added. The check and the add are one atomic step, so the
// counter never exceeds max through AddLimited.
func (c *CASLoop) AddLimited(delta, max int64) bool {
	for {
		old := hal.LoadAcquireUint64(&c.v)
		if int64(old)+delta > max {
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
// value is 0.
type FetchAdd struct {
	_ [lineSize]byte
	v uint64
	_ [lineSize - 8]byte
}

// Add adds delta to the counter.
func (c *FetchAdd) Add(delta int64) { hal.FetchAddUint64(&c.v, uint64(delta)) }

// AddLimited adds delta unless the result would exceed max, and reports
// whether it added. Like FreeBSD's chgproccnt it adds first and takes the
// delta back if the result was over the limit, so it stays wait-free, but
// a concurrent Load can see the counter above max for that moment, and a
// concurrent AddLimited that sees the overshoot can fail although it would
// have fit once the delta was taken back.
func (c *FetchAdd) AddLimited(delta, max int64) bool {
	old := int64(hal.FetchAddUint64(&c.v, uint64(delta)))
	if old+delta > max {
		hal.FetchAddUint64(&c.v, uint64(-delta))
		return false
	}
	return true
}

// Load returns the counter's value.
func (c *FetchAdd) Load() int64 { return int64(hal.LoadAcquireUint64(&c.v)) }
