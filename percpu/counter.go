package percpu

import (
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
	"github.com/gohal/gohal/internal/pin"
)

// shard is one P's part of a Counter, on a cache line of its own (each
// shard is its own allocation of exactly one line, and Go allocates
// objects of a line's size at multiples of that size).
type shard struct {
	shardWord
	_ [cacheline.Size - unsafe.Sizeof(shardWord{})%cacheline.Size]byte
}

// shardWord is a shard's count, which its tail pads to a line.
type shardWord struct{ v uint64 }

// Counter is a 64-bit counter sharded per P: Add touches only the current
// P's cache line and, in the default build, uses no locked instruction;
// Load reads one line per P. The zero value is a counter at 0.
//
// Load is not a linearizable snapshot: it reads the shards one after
// another while Adds continue, so with concurrent Adds it returns a sum
// that may never have been the counter's value at any one instant (an
// Add of +1 on one P and -1 on another may be seen half). A Load that
// starts after a set of Adds finished (ordered by a channel, a mutex, a
// WaitGroup, ...) sees all of them.
//
// Add and Load never block, so both may be called while pinned (under
// Pin).
type Counter struct {
	shards pin.Table[shard]
}

// Add adds delta to the counter.
func (c *Counter) Add(delta int64) {
	id := enter()
	s := c.shards.Load()
	if uint(id) >= uint(len(s)) {
		// The first Add on this P (or of the Counter): grow the table
		// while still pinned; Grow allocates and never blocks.
		s = c.shards.Grow(id + 1)
	}
	v := &s[id].v
	if Pinned {
		// One writer per shard: a load and a release store.
		hal.StoreReleaseUint64(v, hal.LoadAcquireUint64(v)+uint64(delta))
	} else {
		hal.FetchAddUint64(v, uint64(delta))
	}
	exit()
}

// Load returns the sum of the shards, each read with an acquire load. See
// the type's documentation for what it means under concurrent Adds.
func (c *Counter) Load() int64 {
	var sum uint64
	for _, s := range c.shards.Load() {
		sum += hal.LoadAcquireUint64(&s.v)
	}
	return int64(sum)
}
