// Package refimpl holds what package refcount shares with the counts
// measured against it.
//
// Those counts exist only to be measured against refcount.Count. It holds
// the saturation checks, the events and the saturation hook (set through
// refcount.OnSaturate), and the counts themselves, kept out of refcount's
// public API:
//
//	            sync/atomic, inlined   hal call
//	checked     refcount.Count         CountHal
//	unchecked   Plain                  PlainHal
//
// The kit's benchmarks (internal/suite, run by refcount's BenchmarkRefcount
// and by halbench) compare the four, as the Linux kernel did when it
// weighed checked refcount_t against plain atomic_t; refcount's tests run
// every one of them through the same checks.
package refimpl

import (
	"log"
	"math"
	"sync"
	"sync/atomic"
)

// SaturatedValue is refcount.SaturatedValue: Linux's REFCOUNT_SATURATED,
// INT_MIN/2.
const SaturatedValue int32 = math.MinInt32 / 2

// The saturation events; refcount documents them.
const (
	EventIncOnZero = "increment on 0; use-after-free"
	EventOverflow  = "addition overflow; saturated, leaking memory"
	EventDecToZero = "decrement hit 0; leaking memory"
	EventUnderflow = "underflow; use-after-free"
)

var (
	hook    atomic.Pointer[func(event string)]
	logOnce sync.Once
)

// defaultHook logs the first saturation event of the process and ignores
// the rest, like the kernel's WARN_ONCE.
func defaultHook(event string) {
	logOnce.Do(func() { log.Printf("refcount: saturated: %s", event) })
}

// SetHook sets the saturation hook and returns the previous one; nil
// restores the default. It is refcount.OnSaturate.
func SetHook(f func(event string)) (previous func(event string)) {
	var p *func(string)
	if f != nil {
		p = &f
	}
	if old := hook.Swap(p); old != nil {
		return *old
	}
	return defaultHook
}

// Report calls the saturation hook.
func Report(event string) {
	if f := hook.Load(); f != nil {
		(*f)(event)
		return
	}
	defaultHook(event)
}

// The checks are written on the value a fetch-and-add returned (the
// counter's value before the operation), as in the kernel, and kept small
// enough for the compiler to inline the fast path; the slow paths are
// calls.

// IncBad reports whether an increment that found old must saturate:
// old <= 0 (zero, or already saturated) or old == math.MaxInt32. One
// unsigned comparison.
func IncBad(old int32) bool { return uint32(old-1) >= math.MaxInt32-1 }

// IncEvent names the event for an increment that found old, or "" when
// the counter was already saturated.
func IncEvent(old int32) string {
	switch {
	case old == 0:
		return EventIncOnZero
	case old > 0:
		return EventOverflow
	}
	return ""
}

// DecEvent names the event for a Dec that found old <= 1, or "" when the
// counter was already saturated.
func DecEvent(old int32) string {
	switch {
	case old == 1:
		return EventDecToZero
	case old == 0:
		return EventUnderflow
	}
	return ""
}
