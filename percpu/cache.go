package percpu

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/pin"
)

// The cache's machinery works on unsafe.Pointer, not on *T: a method of a
// generic type is compiled once per GC shape and reaches its helpers
// through a dictionary, which kept them from inlining (two extra calls per
// Get and per Put). Cache[T] converts at its inlined methods.

// bucket is a stack of up to len(objs) cached objects.
type bucket struct {
	n    int
	objs []unsafe.Pointer
}

func (b *bucket) pop() unsafe.Pointer {
	b.n--
	x := b.objs[b.n]
	b.objs[b.n] = nil
	return x
}

func (b *bucket) push(x unsafe.Pointer) {
	b.objs[b.n] = x
	b.n++
}

// local is one P's part of a Cache, on cache lines of its own (each local
// is its own allocation of a whole number of lines, and Go allocates
// objects of a line's size, or two lines', at multiples of that size).
type local struct {
	localWords
	_ [cacheline.Size - unsafe.Sizeof(localWords{})%cacheline.Size]byte
}

// localWords are a local's fields: a private object, tried first (as
// sync.Pool does), and UMA's uma_cache, an alloc bucket Get takes from and
// a free bucket Put fills.
type localWords struct {
	lock        slotLock
	private     unsafe.Pointer
	alloc, free *bucket
}

// tryGet takes an object from l: its private object, else one from its
// buckets. It returns nil when l holds nothing. (Small enough to inline:
// the private object costs no call.)
func (l *local) tryGet() unsafe.Pointer {
	if x := l.private; x != nil {
		l.private = nil
		return x
	}
	return l.getBucket()
}

// getBucket takes an object from l's alloc bucket, swapping the buckets if
// the alloc bucket is empty and the free bucket is not; nil when both are
// empty. (Not inlined, so that tryGet inlines.)
//
//go:noinline
func (l *local) getBucket() unsafe.Pointer {
	if a := l.alloc; a != nil && a.n > 0 {
		return a.pop()
	}
	if f := l.free; f != nil && f.n > 0 {
		l.alloc, l.free = f, l.alloc
		return f.pop()
	}
	return nil
}

// tryPut puts x into l: as its private object if it has none, else into
// its buckets; it reports whether there was room. (Small enough to
// inline.)
func (l *local) tryPut(x unsafe.Pointer) bool {
	if l.private == nil {
		l.private = x
		return true
	}
	return l.putBucket(x)
}

// putBucket puts x into l's free bucket, swapping the buckets if the free
// bucket is full and the alloc bucket is not; it reports whether there
// was room. (Not inlined, so that tryPut inlines.)
//
//go:noinline
func (l *local) putBucket(x unsafe.Pointer) bool {
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

// Cache is a per-P cache of objects of type T, after the per-CPU buckets
// of FreeBSD's UMA allocator. Get and Put work on the current P's part of
// the cache while pinned: no lock, no locked instruction, in the default
// build. Each P has a private object, tried first (as sync.Pool keeps
// one), and an alloc bucket and a free bucket of BucketSize objects; Get
// takes from the alloc bucket, Put fills the free bucket, and when one
// side runs out the two are swapped. Only when both are empty (Get) or
// both full (Put) does the P go to the depot, a global list of full and
// empty buckets under a mutex: it unpins, takes the mutex, and exchanges a
// bucket. When the depot has no full bucket, Get calls New.
//
// Get and Put never block while the caller holds a Pin: called pinned
// (inside Pin … Unpin), they exchange with the depot only if its mutex is
// free at once (TryLock); when it is not, Get calls New — while still
// pinned, so New must then keep Pin's rules — and Put leaves the object
// (or a full bucket) to the garbage collector.
//
// Like sync.Pool, a Cache returns objects as they were Put: reset them
// before reuse if that matters. Unlike sync.Pool, it keeps them across
// garbage collections, up to one private object and BucketSize objects
// per bucket, two buckets per P, and at most DepotBuckets full buckets in
// the depot; Put drops objects beyond that for the collector. Objects
// held by a P that GOMAXPROCS removed stay there until it grows again.
//
// A Cache must be made with NewCache. Its methods are safe for concurrent
// use.
type Cache[T any] struct {
	c cache
}

// cache is a Cache without its type.
type cache struct {
	newFn func() unsafe.Pointer
	size  int // objects per bucket
	limit int // full buckets the depot keeps

	locals pin.Table[local]

	mu    sync.Mutex
	full  []*bucket // buckets with at least one object
	empty []*bucket // buckets with none
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
	return &Cache[T]{cache{
		newFn: func() unsafe.Pointer { return unsafe.Pointer(newFn()) },
		size:  bucketSize,
		limit: 2 * runtime.GOMAXPROCS(0),
	}}
}

// BucketSize returns the number of objects a bucket holds.
func (c *Cache[T]) BucketSize() int { return c.c.size }

// DepotBuckets returns the number of full buckets the depot keeps at
// most.
func (c *Cache[T]) DepotBuckets() int { return c.c.limit }

// Get returns an object from the current P's part of the cache, else from
// a full bucket of the depot, else a new one from New.
func (c *Cache[T]) Get() *T { return (*T)(c.c.get()) }

// Put returns x to the current P's part of the cache, else exchanges a
// full bucket for an empty one at the depot. Put panics if x is nil.
func (c *Cache[T]) Put(x *T) {
	if x == nil {
		panic("percpu: Cache.Put(nil)")
	}
	c.c.put(unsafe.Pointer(x))
}

// pinLocal pins and returns the current P's part of the cache, locked;
// the caller must unlock and exit. A P without a part grows the table
// while pinned (Grow allocates and never blocks).
func (c *cache) pinLocal() *local {
	id := enter()
	s := c.locals.Load()
	if uint(id) >= uint(len(s)) {
		s = c.locals.Grow(id + 1)
	}
	l := s[id]
	l.lock.lock()
	return l
}

// get is Get's body. Its fast path makes two calls, the runtime's
// procPin and procUnpin (pinLocal's work is written out here, since a
// function with a call in it does not inline), and touches one line of
// the P's part of the cache.
func (c *cache) get() unsafe.Pointer {
	id := enter()
	s := c.locals.Load()
	if uint(id) >= uint(len(s)) {
		s = c.locals.Grow(id + 1) // allocates while pinned; never blocks
	}
	l := s[id]
	l.lock.lock()
	x := l.tryGet()
	l.lock.unlock()
	exit()
	if x != nil {
		return x
	}
	return c.getSlow()
}

// put is Put's body, get's mirror.
func (c *cache) put(x unsafe.Pointer) {
	id := enter()
	s := c.locals.Load()
	if uint(id) >= uint(len(s)) {
		s = c.locals.Grow(id + 1)
	}
	l := s[id]
	l.lock.lock()
	ok := l.tryPut(x)
	l.lock.unlock()
	exit()
	if !ok {
		c.putSlow(x)
	}
}

// lockDepot takes the depot's mutex, or, when the caller holds a Pin (and
// must not park), tries to; it reports whether it holds the mutex.
func (c *cache) lockDepot(pinned bool) bool {
	if pinned {
		return c.mu.TryLock()
	}
	c.mu.Lock()
	return true
}

// getSlow is UMA's cache_alloc path: with the P unpinned, take a full
// bucket from the depot under its lock; pin again (perhaps on another P),
// and if that P still has nothing, install the bucket as its alloc bucket
// and return its old one to the depot.
//
//go:noinline
func (c *cache) getSlow() unsafe.Pointer {
	pinned := pin.Held()
	if !c.lockDepot(pinned) {
		return c.newFn()
	}
	var b *bucket
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
		c.release(back, pinned)
	}
	return x
}

// putSlow is UMA's cache_free path: with the P unpinned, take an empty
// bucket from the depot (or make one); pin again, and if that P is still
// full, install the empty bucket as its free bucket and hand the full one
// to the depot.
//
//go:noinline
func (c *cache) putSlow(x unsafe.Pointer) {
	pinned := pin.Held()
	if !c.lockDepot(pinned) {
		return // pinned, and the depot is busy: x is left to the collector
	}
	var e *bucket
	if n := len(c.empty); n > 0 {
		e, c.empty[n-1], c.empty = c.empty[n-1], nil, c.empty[:n-1]
	}
	c.mu.Unlock()
	if e == nil {
		e = &bucket{objs: make([]unsafe.Pointer, c.size)}
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
		c.release(back, pinned)
	}
}

// release returns a bucket to the depot: a bucket with objects to the
// full list unless it has DepotBuckets already (then its objects are left
// to the garbage collector), an empty one to the empty list. A pinned
// caller that finds the depot's mutex taken leaves the bucket and its
// objects to the collector.
func (c *cache) release(b *bucket, pinned bool) {
	if !c.lockDepot(pinned) {
		return
	}
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
