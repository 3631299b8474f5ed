// Package refcount provides reference counters with the semantics of
// Linux's refcount_t: a counter that refuses to wrap.
//
// An increment of a counter at zero (the object is already being freed:
// a use-after-free), an increment past the largest int32, and a decrement
// below zero all leave the counter saturated at [SaturatedValue] =
// math.MinInt32/2 instead of producing a value a later decrement could
// take to zero again. A saturated counter stays saturated: further
// increments and decrements land back on SaturatedValue, DecAndTest never
// reports zero, and the object it counts is leaked rather than freed while
// still in use. The first event that saturates a counter is reported once
// through the hook set with [OnSaturate].
//
// What the checks cost is measured: the kit's benchmarks (BenchmarkRefcount,
// and halbench's Refcount section) compare Count with an unchecked
// atomic_t-like count, and with both through calls into gohal's hal
// package, as the
// kernel did when it weighed checked refcount_t against plain atomic_t.
//
// # Memory ordering
//
// Every operation is a sequentially consistent atomic read-modify-write
// (or load, or store), which is at least what the kernel documents for
// refcount_t: decrements order the caller's earlier memory accesses
// before them (release), and a decrement that reaches zero orders the
// caller's later accesses after it (acquire), so the goroutine that frees
// the object sees every other goroutine's last use of it.
package refcount

import (
	"log"
	"math"
	"sync"
	"sync/atomic"
)

// SaturatedValue is the value a saturated counter holds: Linux's
// REFCOUNT_SATURATED, INT_MIN/2, as far from both zero and the overflow
// point as an int32 allows, so that racing increments and decrements on a
// saturated counter cannot move it back into the valid range.
const SaturatedValue int32 = math.MinInt32 / 2

// The events that saturate a counter, as passed to the [OnSaturate] hook.
const (
	// EventIncOnZero: Inc on a counter at zero. The object was already
	// released; the caller is using freed memory.
	EventIncOnZero = "increment on 0; use-after-free"
	// EventOverflow: Inc or IncNotZero on a counter at math.MaxInt32.
	EventOverflow = "addition overflow; saturated, leaking memory"
	// EventDecToZero: Dec took a counter to zero. Dec is for references
	// that are never the last one; the object will never be released.
	EventDecToZero = "decrement hit 0; leaking memory"
	// EventUnderflow: Dec or DecAndTest on a counter at zero.
	EventUnderflow = "underflow; use-after-free"
)

// OnSaturate sets the function called when a counter saturates, and
// returns the previous one. f is called once per counter, by the goroutine
// whose operation saturated it, with one of the Event constants; further
// operations on a saturated counter do not call it again. f == nil
// restores the default, which logs the first event in the process through
// the log package and ignores the rest.
//
// (Misuse racing with correct use, such as an Inc on zero at the same
// moment as a DecAndTest from one, can take a counter through zero twice
// before it settles and report twice.)
func OnSaturate(f func(event string)) (previous func(event string)) {
	var p *func(string)
	if f != nil {
		p = &f
	}
	if old := hook.Swap(p); old != nil {
		return *old
	}
	return defaultHook
}

var (
	hook    atomic.Pointer[func(event string)]
	logOnce sync.Once
)

// defaultHook logs the first saturation event of the process and ignores
// the rest, like the kernel's WARN_ONCE.
func defaultHook(event string) {
	logOnce.Do(func() { log.Printf("refcount: saturated: %s", event) })
}

// report calls the saturation hook.
func report(event string) {
	if f := hook.Load(); f != nil {
		(*f)(event)
		return
	}
	defaultHook(event)
}

// Count is a checked reference count on sync/atomic, whose fast paths
// inline into the caller. The zero value is a count of 0; a new object's
// count is normally Set to 1. A Count must not be copied after first use:
// go vet reports copies.
type Count struct {
	_    noCopy
	refs int32
}

// noCopy makes go vet's copylocks check report a copied Count: a copy
// counts references of its own, so one of the two objects would be freed
// early or never.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Set sets the count to n without checks (refcount_set). A negative n
// counts as saturated.
func (c *Count) Set(n int32) { atomic.StoreInt32(&c.refs, n) }

// Load returns the count (refcount_read).
func (c *Count) Load() int32 { return atomic.LoadInt32(&c.refs) }

// Saturated reports whether the count is saturated.
func (c *Count) Saturated() bool { return atomic.LoadInt32(&c.refs) < 0 }

// Inc adds a reference (refcount_inc). On a count of 0 or math.MaxInt32 it
// saturates the count and reports the event.
func (c *Count) Inc() {
	// The new value is <= 1 exactly when the old one was <= 0 or
	// math.MaxInt32 (which wraps to math.MinInt32): one comparison.
	if v := atomic.AddInt32(&c.refs, 1); v <= 1 {
		c.incSlow(v - 1)
	}
}

// IncNotZero adds a reference unless the count is 0, and reports whether
// it did (refcount_inc_not_zero): the way to take a reference to an object
// found through a lookup that does not itself hold one. On math.MaxInt32
// it saturates and reports overflow; on a saturated count it succeeds.
func (c *Count) IncNotZero() bool {
	old := atomic.LoadInt32(&c.refs)
	for {
		if old == 0 {
			return false
		}
		if atomic.CompareAndSwapInt32(&c.refs, old, old+1) {
			break
		}
		old = atomic.LoadInt32(&c.refs)
	}
	if incBad(old) {
		c.incSlow(old)
	}
	return true
}

// Dec drops a reference that is known not to be the last (refcount_dec).
// Taking the count to 0, or decrementing 0, saturates it and reports the
// event: the object can then never be released.
func (c *Count) Dec() {
	if v := atomic.AddInt32(&c.refs, -1); v <= 0 {
		c.decSlow(v + 1)
	}
}

// DecAndTest drops a reference and reports whether it was the last
// (refcount_dec_and_test): true exactly once, for the decrement that takes
// the count from 1 to 0, after which the caller releases the object.
// Decrementing 0 saturates the count and reports underflow; a saturated
// count never reports true.
func (c *Count) DecAndTest() bool {
	v := atomic.AddInt32(&c.refs, -1)
	if v >= 0 {
		return v == 0
	}
	c.decSlow(v + 1)
	return false
}

// incSlow handles an increment that found old: see incBad.
//
//go:noinline
func (c *Count) incSlow(old int32) { c.saturate(incEvent(old)) }

// decSlow handles a decrement that found old <= 0, or old == 1 in Dec
// (DecAndTest never calls it with 1).
//
//go:noinline
func (c *Count) decSlow(old int32) { c.saturate(decEvent(old)) }

// saturate pins the count at SaturatedValue and reports event, unless the
// count was already saturated (event == "").
func (c *Count) saturate(event string) {
	atomic.StoreInt32(&c.refs, SaturatedValue)
	if event != "" {
		report(event)
	}
}

// The checks are written on the value a fetch-and-add returned (the
// counter's value before the operation), as in the kernel, and kept small
// enough for the compiler to inline the fast path; the slow paths are
// calls.

// incBad reports whether an increment that found old must saturate:
// old <= 0 (zero, or already saturated) or old == math.MaxInt32. One
// unsigned comparison.
func incBad(old int32) bool { return uint32(old-1) >= math.MaxInt32-1 }

// incEvent names the event for an increment that found old, or "" when
// the counter was already saturated.
func incEvent(old int32) string {
	switch {
	case old == 0:
		return EventIncOnZero
	case old > 0:
		return EventOverflow
	}
	return ""
}

// decEvent names the event for a decrement that found old <= 1, or ""
// when the counter was already saturated.
func decEvent(old int32) string {
	switch {
	case old == 1:
		return EventDecToZero
	case old == 0:
		return EventUnderflow
	}
	return ""
}
