package percpu

import (
	"runtime"
	"sync"
)

// bucket is a stack of up to cap(objs) cached objects.
type bucket[T any] struct {
	n    int
	objs []*T
}

func (b *bucket[T]) pop() *T {
	b.n--
	x := b.objs[b.n]
	b.objs[b.n] = nil
	return x
}

func (b *bucket[T]) push(x *T) {
	b.objs[b.n] = x
	b.n++
}

// local is one P's part of a Cache: UMA's uma_cache, an alloc bucket Get
// takes from and a free bucket Put fills, on cache lines of their own.
type local[T any] struct {
	lock        slotLock
	alloc, free *bucket[T]
	_           [lineSize]byte
}

// Cache is a per-P cache of objects of type T, after the per-CPU buckets
// of FreeBSD's UMA allocator. Get and Put work on the current P's buckets
// while pinned: no lock, no locked instruction, in the default build. Each
// P has an alloc bucket and a free bucket of BucketSize objects; Get takes
// from the alloc bucket, Put fills the free bucket, and when one side runs
// out the two are swapped. Only when both are empty (Get) or both full
// (Put) does the P go to the depot, a global list of full and empty
// buckets under a mutex: it unpins, takes the mutex, and exchanges a
// bucket. When the depot has no full bucket, Get calls New.
//
// Like sync.Pool, a Cache returns objects as they were Put: reset them
// before reuse if that matters. Unlike sync.Pool, it keeps them across
// garbage collections, up to BucketSize objects per bucket, two buckets
// per P and at most DepotBuckets full buckets in the depot; Put drops
// objects beyond that for the collector. Objects in the buckets of a P
// that GOMAXPROCS removed stay there until it grows again.
//
// A Cache must be made with NewCache. Its methods are safe for concurrent
// use.
type Cache[T any] struct {
	// New makes an object when the depot has none. Set by NewCache.
	newFn func() *T
	size  int // objects per bucket
	limit int // full buckets the depot keeps

	locals table[local[T]]

	mu    sync.Mutex
	full  []*bucket[T] // buckets with at least one object
	empty []*bucket[T] // buckets with none
}

// NewCache returns a Cache whose buckets hold bucketSize objects each and
// whose Get calls newFn when no cached object is left. The depot keeps up
// to 2*GOMAXPROCS full buckets (GOMAXPROCS at the time of the call).
// NewCache panics if bucketSize < 1 or newFn is nil.
func NewCache[T any](bucketSize int, newFn func() *T) *Cache[T] {
	if bucketSize < 1 {
		panic("percpu: NewCache: bucketSize < 1")
	}
	if newFn == nil {
		panic("percpu: NewCache: nil newFn")
	}
	return &Cache[T]{newFn: newFn, size: bucketSize, limit: 2 * runtime.GOMAXPROCS(0)}
}

// BucketSize returns the number of objects a bucket holds.
func (c *Cache[T]) BucketSize() int { return c.size }

// DepotBuckets returns the number of full buckets the depot keeps at
// most.
func (c *Cache[T]) DepotBuckets() int { return c.limit }

// pinLocal pins and returns the current P's part of the cache; the caller
// must unlock and exit.
func (c *Cache[T]) pinLocal() *local[T] {
	for {
		id := enter()
		if s := c.locals.load(); id < len(s) {
			l := s[id]
			l.lock.lock()
			return l
		}
		exit()
		c.locals.grow(id + 1)
	}
}

// tryGet takes an object from l's buckets, swapping them if the alloc
// bucket is empty and the free bucket is not.
func (l *local[T]) tryGet() *T {
	if a := l.alloc; a != nil && a.n > 0 {
		return a.pop()
	}
	if f := l.free; f != nil && f.n > 0 {
		l.alloc, l.free = f, l.alloc
		return f.pop()
	}
	return nil
}

// tryPut puts x into l's buckets, swapping them if the free bucket is
// full and the alloc bucket is not; it reports whether there was room.
func (l *local[T]) tryPut(x *T) bool {
	if f := l.free; f != nil && f.n < len(f.objs) {
		f.push(x)
		return true
	}
	if a := l.alloc; a != nil && a.n < len(a.objs) {
		l.alloc, l.free = l.free, a
		a.push(x)
		return true
	}
	return false
}

// Get returns an object from the current P's buckets, else from a full
// bucket of the depot, else a new one from newFn.
func (c *Cache[T]) Get() *T {
	l := c.pinLocal()
	x := l.tryGet()
	l.lock.unlock()
	exit()
	if x != nil {
		return x
	}
	return c.getSlow()
}

// getSlow is UMA's cache_alloc path: with the P unpinned, take a full
// bucket from the depot under its lock; pin again (perhaps on another P),
// and if that P still has nothing, install the bucket as its alloc bucket
// and return its old one to the depot.
func (c *Cache[T]) getSlow() *T {
	c.mu.Lock()
	var b *bucket[T]
	if n := len(c.full); n > 0 {
		b, c.full[n-1], c.full = c.full[n-1], nil, c.full[:n-1]
	}
	c.mu.Unlock()
	if b == nil {
		return c.newFn()
	}
	l := c.pinLocal()
	x := l.tryGet()
	back := b
	if x == nil {
		back, l.alloc = l.alloc, b
		x = b.pop()
	}
	l.lock.unlock()
	exit()
	if back != nil {
		c.release(back)
	}
	return x
}

// Put returns x to the current P's buckets, else exchanges a full bucket
// for an empty one at the depot. Put panics if x is nil.
func (c *Cache[T]) Put(x *T) {
	if x == nil {
		panic("percpu: Cache.Put(nil)")
	}
	l := c.pinLocal()
	ok := l.tryPut(x)
	l.lock.unlock()
	exit()
	if !ok {
		c.putSlow(x)
	}
}

// putSlow is UMA's cache_free path: with the P unpinned, take an empty
// bucket from the depot (or make one); pin again, and if that P's buckets
// are still full, install the empty bucket as its free bucket and hand
// the full one to the depot.
func (c *Cache[T]) putSlow(x *T) {
	c.mu.Lock()
	var e *bucket[T]
	if n := len(c.empty); n > 0 {
		e, c.empty[n-1], c.empty = c.empty[n-1], nil, c.empty[:n-1]
	}
	c.mu.Unlock()
	if e == nil {
		e = &bucket[T]{objs: make([]*T, c.size)}
	}
	l := c.pinLocal()
	back := e
	if !l.tryPut(x) {
		switch {
		case l.free == nil:
			l.free, back = e, nil
		case l.alloc == nil:
			l.alloc, back = e, nil
		default:
			back, l.free = l.free, e
		}
		e.push(x)
	}
	l.lock.unlock()
	exit()
	if back != nil {
		c.release(back)
	}
}

// release returns a bucket to the depot: a bucket with objects to the
// full list unless it has DepotBuckets already (then its objects are left
// to the garbage collector), an empty one to the empty list.
func (c *Cache[T]) release(b *bucket[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.n > 0 {
		if len(c.full) < c.limit {
			c.full = append(c.full, b)
			return
		}
		clear(b.objs[:b.n])
		b.n = 0
	}
	if len(c.empty) < c.limit {
		c.empty = append(c.empty, b)
	}
}
