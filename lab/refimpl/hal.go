package refimpl

import (
	"math"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/refcount"
)

// saturatedBits is refcount.SaturatedValue as the uint32 the hal counters
// store.
const saturatedBits = uint32(1<<32 + int64(refcount.SaturatedValue))

// incBad reports whether an increment that found old must saturate:
// old <= 0 (zero, or already saturated) or old == math.MaxInt32, the
// check refcount.Count makes. One unsigned comparison.
func incBad(old int32) bool { return uint32(old-1) >= math.MaxInt32-1 }

// CountHal is refcount.Count with every atomic operation a call into [hal]
// (an assembly function on amd64 and arm64), for measuring what the call
// costs next to sync/atomic's inlined instructions. Semantics and
// saturation are identical. The zero value is a count of 0.
type CountHal struct {
	refs uint32
}

// Set sets the count to n without checks. A negative n counts as
// saturated.
func (c *CountHal) Set(n int32) { hal.StoreReleaseUint32(&c.refs, uint32(n)) }

// Load returns the count.
func (c *CountHal) Load() int32 { return int32(hal.LoadAcquireUint32(&c.refs)) }

// Saturated reports whether the count is saturated.
func (c *CountHal) Saturated() bool { return c.Load() < 0 }

// Inc adds a reference; see refcount.Count.Inc.
func (c *CountHal) Inc() {
	if old := int32(hal.FetchAddUint32(&c.refs, 1)); incBad(old) {
		c.incSlow(old)
	}
}

// IncNotZero adds a reference unless the count is 0; see
// refcount.Count.IncNotZero.
func (c *CountHal) IncNotZero() bool {
	old := hal.LoadAcquireUint32(&c.refs)
	for {
		if old == 0 {
			return false
		}
		if hal.CompareAndSwapUint32(&c.refs, old, old+1) {
			break
		}
		old = hal.LoadAcquireUint32(&c.refs)
	}
	if incBad(int32(old)) {
		c.incSlow(int32(old))
	}
	return true
}

// Dec drops a reference that is known not to be the last; see
// refcount.Count.Dec.
func (c *CountHal) Dec() {
	if old := int32(hal.FetchAddUint32(&c.refs, ^uint32(0))); old <= 1 {
		c.decSlow(old)
	}
}

// DecAndTest drops a reference and reports whether it was the last; see
// refcount.Count.DecAndTest.
func (c *CountHal) DecAndTest() bool {
	old := int32(hal.FetchAddUint32(&c.refs, ^uint32(0)))
	if old > 1 {
		return false
	}
	if old == 1 {
		return true
	}
	c.decSlow(old)
	return false
}

// incSlow pins the count at refcount.SaturatedValue after an increment
// that found old, and has refcount name and report the event: a scratch
// refcount.Count set to old and incremented takes Count's own slow path,
// so CountHal reports exactly what Count would (through the OnSaturate
// hook, nothing when the count was already saturated) with no copy of
// refcount's event logic to drift from it.
//
//go:noinline
func (c *CountHal) incSlow(old int32) {
	hal.StoreReleaseUint32(&c.refs, saturatedBits)
	var r refcount.Count
	r.Set(old)
	r.Inc()
}

// decSlow is incSlow for a decrement that found old <= 1 (Dec) or
// old <= 0 (DecAndTest): refcount.Count's Dec from old reports the same
// event as its DecAndTest for those.
//
//go:noinline
func (c *CountHal) decSlow(old int32) {
	hal.StoreReleaseUint32(&c.refs, saturatedBits)
	var r refcount.Count
	r.Set(old)
	r.Dec()
}
