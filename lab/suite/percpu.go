package suite

import (
	"sync"
	"testing"

	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/percpu"
	"github.com/gohal/gohal/spin"
)

// The percpu package's benchmarks: its Counter beside the kit's counters
// (Add, and what Load costs against counter.Striped), and the FreeBSD
// experiment redone in Go: a loop whose unit of work takes an object from
// a cache, touches it and gives it back, with the cache protected by
// percpu pinning, a sync.Mutex, the kit's best spin lock (spin.Backoff)
// or left to sync.Pool.

func init() {
	// The counter first, so that halbench reports it with the kit's
	// counters (it groups a section's benchmarks by registration order).
	addLegends("Counter", [][2]string{
		{"kind=percpu", "percpu.Counter: per-P shards, load + release store under Pin"},
		{"op=load", "one Load of a counter that every P has added to (single goroutine)"},
	})
	addKinds("Counter", "fetchadd", []kindBody{{kind: "percpu", body: counterPercpu}})
	Add(Bench{Name: "Counter/op=load/kind=striped", F: loadStriped})
	Add(Bench{Name: "Counter/op=load/kind=percpu", Baseline: "Counter/op=load/kind=striped", F: loadPercpu})

	AddSection(Section{Name: "Cache", Title: "The FreeBSD experiment: take an object from a cache, touch it, give it back",
		Doc: "One unit of work: Get an object (8 words), add to each word, Put it back. ns/op is wall time per unit over all goroutines. Ratio: against the sync.Mutex-protected cache at the same thread count."})
	addLegends("Cache", [][2]string{
		{"kind=percpu", "percpu.Cache: a private object and buckets per P under Pin, a depot under a mutex"},
		{"kind=mutex", "one free list under a sync.Mutex (baseline)"},
		{"kind=spin", "one free list under spin.Backoff"},
		{"kind=pool", "sync.Pool"},
	})
	addKinds("Cache", "mutex", []kindBody{
		{kind: "percpu", body: cachePercpu}, {kind: "mutex", body: cacheMutex},
		{kind: "spin", body: cacheSpin}, {kind: "pool", body: cachePool},
	})
}

// touchAll adds to every P's part of c, so Load reads filled lines.
func touchAll(add func()) {
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(add)
	}
	wg.Wait()
}

// cacheItem is the cached object: 8 words, one line on amd64.
type cacheItem struct{ w [8]uint64 }

// work is the unit of work done on an object while it is held.
func (it *cacheItem) work(x uint64) {
	for i := range it.w {
		it.w[i] += x + uint64(i)
	}
}

// cacheBucket is the percpu cache's bucket size: UMA's per-CPU buckets
// start small and grow to a few dozen items; 32 is in that range.
const cacheBucket = 32

func cachePercpu(b *testing.B, threads int) {
	c := percpu.NewCache(cacheBucket, func() *cacheItem { return new(cacheItem) })
	c.Put(c.Get())
	cyclebench.RunLoop(b, threads, func(w, n int) {
		for i := range n {
			it := c.Get()
			it.work(uint64(i))
			c.Put(it)
		}
	})
}

// freeList is a cache without per-CPU parts: one stack of objects, which
// its benchmark protects with a lock.
type freeList struct {
	objs []*cacheItem
}

func (f *freeList) get() *cacheItem {
	if n := len(f.objs); n > 0 {
		it := f.objs[n-1]
		f.objs = f.objs[:n-1]
		return it
	}
	return new(cacheItem)
}

func (f *freeList) put(it *cacheItem) { f.objs = append(f.objs, it) }

// lockedList is a free list and its sync.Mutex, on lines of their own.
type lockedList struct {
	_  cacheline.Line
	mu sync.Mutex
	l  freeList
	_  cacheline.Line
}

// spinList is a free list under spin.Backoff (which pads its own word).
type spinList struct {
	mu spin.Backoff
	l  freeList
	_  cacheline.Line
}

func cachePool(b *testing.B, threads int) {
	p := &sync.Pool{New: func() any { return new(cacheItem) }}
	cyclebench.RunLoop(b, threads, func(w, n int) {
		for i := range n {
			it := p.Get().(*cacheItem)
			it.work(uint64(i))
			p.Put(it)
		}
	})
}
