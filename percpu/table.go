package percpu

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gohal/gohal/internal/cacheline"
)

// lineSize is the cache-line padding unit (64 bytes on amd64, 128 on
// arm64).
const lineSize = cacheline.Size

// table is per-P storage: one *T per P (or, in the fallback build, per
// CPU number), each its own allocation. It only grows: a larger table
// holds the same pointers for the ids the smaller one had, so a goroutine
// that still uses the old slice writes the same slot as one that uses the
// new slice, and no update is lost when the table grows.
type table[T any] struct {
	p  atomic.Pointer[[]*T]
	mu sync.Mutex
}

// load returns the current slots (nil before the first grow).
func (t *table[T]) load() []*T {
	if p := t.p.Load(); p != nil {
		return *p
	}
	return nil
}

// grow makes the table at least n slots long, and at least GOMAXPROCS,
// and returns it. It takes a mutex: never call it pinned.
func (t *table[T]) grow(n int) []*T {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.load()
	n = max(n, runtime.GOMAXPROCS(0))
	if len(old) >= n {
		return old
	}
	s := make([]*T, n)
	copy(s, old)
	for i := len(old); i < n; i++ {
		s[i] = new(T)
	}
	t.p.Store(&s)
	return s
}
