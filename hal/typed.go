package hal

import (
	"sync/atomic"
)

// Typed values: what most code calls. Each is a word with the zero value 0
// whose methods are package hal's ops on it; each method is a one-line
// call of the op's exported function, which the compiler inlines, so a
// method costs what the function costs (the inlined sync/atomic intrinsic
// where the op is bound inline). Load and Store are sequentially
// consistent, as sync/atomic's; LoadAcquire and StoreRelease are the
// weaker, possibly cheaper ones. Like sync/atomic's typed values they must
// not be copied after first use (go vet reports copies), and the 64-bit
// ones are 8-byte aligned even on 32-bit platforms, so they can sit after
// a uint32 in a struct.

// noCopy (uint128.go) makes go vet's copylocks check report copies.

// align64 is zero bytes with the alignment of atomic.Int64: 8 bytes on
// every platform, which the Go compiler guarantees for sync/atomic's
// 64-bit types.
type align64 = [0]atomic.Int64

// Int32 is an atomic int32 with hal's orderings and ops. The zero value is
// 0. Do not copy it after first use.
type Int32 struct {
	_ noCopy
	v uint32
}

// Load atomically loads x, sequentially consistent (as sync/atomic).
func (x *Int32) Load() int32 { return int32(atomic.LoadUint32(&x.v)) }

// LoadAcquire atomically loads x with acquire ordering (LoadAcquireUint32).
func (x *Int32) LoadAcquire() int32 { return int32(LoadAcquireUint32(&x.v)) }

// Store atomically stores v into x, sequentially consistent (as
// sync/atomic).
func (x *Int32) Store(v int32) { atomic.StoreUint32(&x.v, uint32(v)) }

// StoreRelease atomically stores v into x with release ordering
// (StoreReleaseUint32).
func (x *Int32) StoreRelease(v int32) { StoreReleaseUint32(&x.v, uint32(v)) }

// Add atomically adds delta to x and returns the new value, as
// sync/atomic's Add (FetchAddUint32 plus delta).
func (x *Int32) Add(delta int32) (new int32) {
	return int32(FetchAddUint32(&x.v, uint32(delta)) + uint32(delta))
}

// FetchAdd atomically adds delta to x and returns the old value
// (FetchAddUint32).
func (x *Int32) FetchAdd(delta int32) (old int32) { return int32(FetchAddUint32(&x.v, uint32(delta))) }

// Swap atomically stores new into x and returns the old value (SwapUint32).
func (x *Int32) Swap(new int32) (old int32) { return int32(SwapUint32(&x.v, uint32(new))) }

// CompareAndSwap executes the compare-and-swap operation for x
// (CompareAndSwapUint32).
func (x *Int32) CompareAndSwap(old, new int32) (swapped bool) {
	return CompareAndSwapUint32(&x.v, uint32(old), uint32(new))
}

// And atomically clears the bits of x that are clear in mask and returns
// the old value.
func (x *Int32) And(mask int32) (old int32) { return int32(FetchAndUint32(&x.v, uint32(mask))) }

// Or atomically sets the bits of mask in x and returns the old
// value.
func (x *Int32) Or(mask int32) (old int32) { return int32(FetchOrUint32(&x.v, uint32(mask))) }

// Uint32 is an atomic uint32 with hal's orderings and ops. The zero value is
// 0. Do not copy it after first use.
type Uint32 struct {
	_ noCopy
	v uint32
}

// Load atomically loads x, sequentially consistent (as sync/atomic).
func (x *Uint32) Load() uint32 { return atomic.LoadUint32(&x.v) }

// LoadAcquire atomically loads x with acquire ordering (LoadAcquireUint32).
func (x *Uint32) LoadAcquire() uint32 { return LoadAcquireUint32(&x.v) }

// Store atomically stores v into x, sequentially consistent (as
// sync/atomic).
func (x *Uint32) Store(v uint32) { atomic.StoreUint32(&x.v, v) }

// StoreRelease atomically stores v into x with release ordering
// (StoreReleaseUint32).
func (x *Uint32) StoreRelease(v uint32) { StoreReleaseUint32(&x.v, v) }

// Add atomically adds delta to x and returns the new value, as
// sync/atomic's Add (FetchAddUint32 plus delta).
func (x *Uint32) Add(delta uint32) (new uint32) { return FetchAddUint32(&x.v, delta) + delta }

// FetchAdd atomically adds delta to x and returns the old value
// (FetchAddUint32).
func (x *Uint32) FetchAdd(delta uint32) (old uint32) { return FetchAddUint32(&x.v, delta) }

// Swap atomically stores new into x and returns the old value (SwapUint32).
func (x *Uint32) Swap(new uint32) (old uint32) { return SwapUint32(&x.v, new) }

// CompareAndSwap executes the compare-and-swap operation for x
// (CompareAndSwapUint32).
func (x *Uint32) CompareAndSwap(old, new uint32) (swapped bool) {
	return CompareAndSwapUint32(&x.v, old, new)
}

// And atomically clears the bits of x that are clear in mask and returns
// the old value.
func (x *Uint32) And(mask uint32) (old uint32) { return FetchAndUint32(&x.v, mask) }

// Or atomically sets the bits of mask in x and returns the old
// value.
func (x *Uint32) Or(mask uint32) (old uint32) { return FetchOrUint32(&x.v, mask) }

// Int64 is an atomic int64 with hal's orderings and ops. The zero value is
// 0. Do not copy it after first use. It is 8-byte aligned on every platform.
type Int64 struct {
	_ noCopy
	_ align64
	v uint64
}

// Load atomically loads x, sequentially consistent (as sync/atomic).
func (x *Int64) Load() int64 { return int64(atomic.LoadUint64(&x.v)) }

// LoadAcquire atomically loads x with acquire ordering (LoadAcquireUint64).
func (x *Int64) LoadAcquire() int64 { return int64(LoadAcquireUint64(&x.v)) }

// Store atomically stores v into x, sequentially consistent (as
// sync/atomic).
func (x *Int64) Store(v int64) { atomic.StoreUint64(&x.v, uint64(v)) }

// StoreRelease atomically stores v into x with release ordering
// (StoreReleaseUint64).
func (x *Int64) StoreRelease(v int64) { StoreReleaseUint64(&x.v, uint64(v)) }

// Add atomically adds delta to x and returns the new value, as
// sync/atomic's Add (FetchAddUint64 plus delta).
func (x *Int64) Add(delta int64) (new int64) {
	return int64(FetchAddUint64(&x.v, uint64(delta)) + uint64(delta))
}

// FetchAdd atomically adds delta to x and returns the old value
// (FetchAddUint64).
func (x *Int64) FetchAdd(delta int64) (old int64) { return int64(FetchAddUint64(&x.v, uint64(delta))) }

// Swap atomically stores new into x and returns the old value (SwapUint64).
func (x *Int64) Swap(new int64) (old int64) { return int64(SwapUint64(&x.v, uint64(new))) }

// CompareAndSwap executes the compare-and-swap operation for x
// (CompareAndSwapUint64).
func (x *Int64) CompareAndSwap(old, new int64) (swapped bool) {
	return CompareAndSwapUint64(&x.v, uint64(old), uint64(new))
}

// And atomically clears the bits of x that are clear in mask and returns
// the old value.
func (x *Int64) And(mask int64) (old int64) { return int64(FetchAndUint64(&x.v, uint64(mask))) }

// Or atomically sets the bits of mask in x and returns the old
// value.
func (x *Int64) Or(mask int64) (old int64) { return int64(FetchOrUint64(&x.v, uint64(mask))) }

// Uint64 is an atomic uint64 with hal's orderings and ops. The zero value is
// 0. Do not copy it after first use. It is 8-byte aligned on every platform.
type Uint64 struct {
	_ noCopy
	_ align64
	v uint64
}

// Load atomically loads x, sequentially consistent (as sync/atomic).
func (x *Uint64) Load() uint64 { return atomic.LoadUint64(&x.v) }

// LoadAcquire atomically loads x with acquire ordering (LoadAcquireUint64).
func (x *Uint64) LoadAcquire() uint64 { return LoadAcquireUint64(&x.v) }

// Store atomically stores v into x, sequentially consistent (as
// sync/atomic).
func (x *Uint64) Store(v uint64) { atomic.StoreUint64(&x.v, v) }

// StoreRelease atomically stores v into x with release ordering
// (StoreReleaseUint64).
func (x *Uint64) StoreRelease(v uint64) { StoreReleaseUint64(&x.v, v) }

// Add atomically adds delta to x and returns the new value, as
// sync/atomic's Add (FetchAddUint64 plus delta).
func (x *Uint64) Add(delta uint64) (new uint64) { return FetchAddUint64(&x.v, delta) + delta }

// FetchAdd atomically adds delta to x and returns the old value
// (FetchAddUint64).
func (x *Uint64) FetchAdd(delta uint64) (old uint64) { return FetchAddUint64(&x.v, delta) }

// Swap atomically stores new into x and returns the old value (SwapUint64).
func (x *Uint64) Swap(new uint64) (old uint64) { return SwapUint64(&x.v, new) }

// CompareAndSwap executes the compare-and-swap operation for x
// (CompareAndSwapUint64).
func (x *Uint64) CompareAndSwap(old, new uint64) (swapped bool) {
	return CompareAndSwapUint64(&x.v, old, new)
}

// And atomically clears the bits of x that are clear in mask and returns
// the old value.
func (x *Uint64) And(mask uint64) (old uint64) { return FetchAndUint64(&x.v, mask) }

// Or atomically sets the bits of mask in x and returns the old
// value.
func (x *Uint64) Or(mask uint64) (old uint64) { return FetchOrUint64(&x.v, mask) }

// Uintptr is an atomic uintptr with hal's orderings and ops. The zero value is
// 0. Do not copy it after first use.
type Uintptr struct {
	_ noCopy
	v uintptr
}

// Load atomically loads x, sequentially consistent (as sync/atomic).
func (x *Uintptr) Load() uintptr { return atomic.LoadUintptr(&x.v) }

// LoadAcquire atomically loads x with acquire ordering (LoadAcquireUintptr).
func (x *Uintptr) LoadAcquire() uintptr { return LoadAcquireUintptr(&x.v) }

// Store atomically stores v into x, sequentially consistent (as
// sync/atomic).
func (x *Uintptr) Store(v uintptr) { atomic.StoreUintptr(&x.v, v) }

// StoreRelease atomically stores v into x with release ordering
// (StoreReleaseUintptr).
func (x *Uintptr) StoreRelease(v uintptr) { StoreReleaseUintptr(&x.v, v) }

// Add atomically adds delta to x and returns the new value, as
// sync/atomic's Add (FetchAddUintptr plus delta).
func (x *Uintptr) Add(delta uintptr) (new uintptr) { return FetchAddUintptr(&x.v, delta) + delta }

// FetchAdd atomically adds delta to x and returns the old value
// (FetchAddUintptr).
func (x *Uintptr) FetchAdd(delta uintptr) (old uintptr) { return FetchAddUintptr(&x.v, delta) }

// Swap atomically stores new into x and returns the old value (SwapUintptr).
func (x *Uintptr) Swap(new uintptr) (old uintptr) { return SwapUintptr(&x.v, new) }

// CompareAndSwap executes the compare-and-swap operation for x
// (CompareAndSwapUintptr).
func (x *Uintptr) CompareAndSwap(old, new uintptr) (swapped bool) {
	return CompareAndSwapUintptr(&x.v, old, new)
}

// And atomically clears the bits of x that are clear in mask and returns
// the old value (sync/atomic's AndUintptr: hal has no uintptr fetch-and).
func (x *Uintptr) And(mask uintptr) (old uintptr) { return atomic.AndUintptr(&x.v, mask) }

// Or atomically sets the bits of mask in x and returns the old
// value (sync/atomic's OrUintptr: hal has no uintptr fetch-or).
func (x *Uintptr) Or(mask uintptr) (old uintptr) { return atomic.OrUintptr(&x.v, mask) }
