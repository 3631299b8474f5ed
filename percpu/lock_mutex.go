//go:build race || gohal_nolinkname || purego

package percpu

import "sync"

// slotLock guards a Cache's per-P slot. In the fallback build it is the
// only exclusion there is (goroutines on different Ps can pick the same
// CPU number). In a race build with pinning it is never contended — the
// pinned goroutine is the only one on its P — and it is there to show the
// race detector the ordering that pinning gives.
type slotLock struct{ mu sync.Mutex }

func (l *slotLock) lock()   { l.mu.Lock() }
func (l *slotLock) unlock() { l.mu.Unlock() }
