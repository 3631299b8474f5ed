// Package pin is gohal's one source of truth about pinning a goroutine to
// its P.
//
// It holds the per-P pin depth behind percpu.Pin and percpu.Unpin, the check
// [Held] that gohal's slow paths make before anything that could block, and
// [Table], the per-P storage that the pin depth and percpu's structures grow
// without a lock.
//
// In the default build, [ProcPin] and [ProcUnpin] are the runtime's
// procPin and procUnpin (reached by go:linkname; sync.Pool uses the same
// pair): a pinned goroutine cannot be preempted, and no other goroutine
// runs on its P until it unpins. While pinned, anything that parks the
// goroutine or stops the world is a fatal error of the runtime, not a
// panic — so no gohal code may block while Held reports true.
//
// With the build tag gohal_nolinkname or purego nothing is pinned:
// [Pinned] is false, ProcPin returns a CPU number (see [ProcPin]) and
// excludes nothing, and Held is always false.
package pin

import "sync/atomic"

// Table is per-P storage: one *T per P (or, in the fallback build, per
// CPU number), each its own allocation. It only grows, and it grows
// without a lock, so it may be grown while pinned (allocation is allowed
// there): a larger table is built from the current one and published
// with a compare-and-swap, and holds the same pointers for the ids the
// smaller one had, so a goroutine that still uses the old slice writes the
// same slot as one that uses the new slice and no update is lost. The
// zero value is an empty table.
type Table[T any] struct {
	p atomic.Pointer[[]*T]
}

// Load returns the current slots (nil before the first Grow).
func (t *Table[T]) Load() []*T {
	if p := t.p.Load(); p != nil {
		return *p
	}
	return nil
}

// Grow makes the table at least n slots long, and at least IDs() long,
// and returns it. It never blocks: it allocates, and retries its
// compare-and-swap only when another Grow has just succeeded.
func (t *Table[T]) Grow(n int) []*T {
	n = max(n, IDs())
	for {
		p := t.p.Load()
		var old []*T
		if p != nil {
			old = *p
		}
		if len(old) >= n {
			return old
		}
		s := make([]*T, n)
		copy(s, old)
		for i := len(old); i < n; i++ {
			s[i] = new(T)
		}
		if t.p.CompareAndSwap(p, &s) {
			return s
		}
	}
}
