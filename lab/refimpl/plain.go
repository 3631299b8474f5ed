package refimpl

import (
	"sync/atomic"

	"github.com/gohal/gohal/hal"
)

// Plain is an unchecked reference count on sync/atomic, like the kernel's
// atomic_t before refcount_t: it wraps on overflow and goes negative on
// underflow. It is the baseline the checked counts are measured
// against. The zero value is a count of 0.
type Plain struct {
	refs int32
}

// Set sets the count to n.
func (c *Plain) Set(n int32) { atomic.StoreInt32(&c.refs, n) }

// Load returns the count.
func (c *Plain) Load() int32 { return atomic.LoadInt32(&c.refs) }

// Inc adds one.
func (c *Plain) Inc() { atomic.AddInt32(&c.refs, 1) }

// IncNotZero adds one unless the count is 0, and reports whether it did.
func (c *Plain) IncNotZero() bool {
	for {
		old := atomic.LoadInt32(&c.refs)
		if old == 0 {
			return false
		}
		if atomic.CompareAndSwapInt32(&c.refs, old, old+1) {
			return true
		}
	}
}

// Dec subtracts one.
func (c *Plain) Dec() { atomic.AddInt32(&c.refs, -1) }

// DecAndTest subtracts one and reports whether the count reached 0.
func (c *Plain) DecAndTest() bool { return atomic.AddInt32(&c.refs, -1) == 0 }

// PlainHal is [Plain] through [hal] calls. The zero value is a count of 0.
type PlainHal struct {
	refs uint32
}

// Set sets the count to n.
func (c *PlainHal) Set(n int32) { hal.StoreReleaseUint32(&c.refs, uint32(n)) }

// Load returns the count.
func (c *PlainHal) Load() int32 { return int32(hal.LoadAcquireUint32(&c.refs)) }

// Inc adds one.
func (c *PlainHal) Inc() { hal.FetchAddUint32(&c.refs, 1) }

// IncNotZero adds one unless the count is 0, and reports whether it did.
func (c *PlainHal) IncNotZero() bool {
	for {
		old := hal.LoadAcquireUint32(&c.refs)
		if old == 0 {
			return false
		}
		if hal.CompareAndSwapUint32(&c.refs, old, old+1) {
			return true
		}
	}
}

// Dec subtracts one.
func (c *PlainHal) Dec() { hal.FetchAddUint32(&c.refs, ^uint32(0)) }

// DecAndTest subtracts one and reports whether the count reached 0.
func (c *PlainHal) DecAndTest() bool { return hal.FetchAddUint32(&c.refs, ^uint32(0)) == 1 }
