package hal

import (
	"sync/atomic"
	"unsafe"
)

// The sync/atomic surface. Every function of sync/atomic that does not
// take an unsafe.Pointer exists here with the same name, signature and
// meaning, so replacing "atomic." with "hal." in a call compiles and does
// the same thing (TestSyncAtomicSurface walks sync/atomic to keep it so).
//
// Where hal has an op, the function is a one-line call of it, which the
// compiler inlines: Add is FetchAdd plus delta (sync/atomic's Add returns
// the new value), And and Or are FetchAnd and FetchOr (they return the old
// value, as sync/atomic's do), the signed forms call the unsigned op on
// the same bits. Load and Store are sync/atomic's own, sequentially
// consistent: on every architecture the Go compiler already emits the one
// instruction (or pair) for them, so there is no variant to choose.
//
// The pointer forms (LoadPointer, StorePointer, SwapPointer,
// CompareAndSwapPointer) and the types Bool, Pointer[T] and Value stay
// sync/atomic's: a pointer store must go through the garbage collector's
// write barrier, which no assembly of hal's can emit.

// LoadInt32 atomically loads *addr (sync/atomic.LoadInt32).
func LoadInt32(addr *int32) (val int32) { return atomic.LoadInt32(addr) }

// LoadInt64 atomically loads *addr (sync/atomic.LoadInt64).
func LoadInt64(addr *int64) (val int64) { return atomic.LoadInt64(addr) }

// LoadUint32 atomically loads *addr (sync/atomic.LoadUint32).
func LoadUint32(addr *uint32) (val uint32) { return atomic.LoadUint32(addr) }

// LoadUint64 atomically loads *addr (sync/atomic.LoadUint64).
func LoadUint64(addr *uint64) (val uint64) { return atomic.LoadUint64(addr) }

// LoadUintptr atomically loads *addr (sync/atomic.LoadUintptr).
func LoadUintptr(addr *uintptr) (val uintptr) { return atomic.LoadUintptr(addr) }

// StoreInt32 atomically stores val into *addr (sync/atomic.StoreInt32).
func StoreInt32(addr *int32, val int32) { atomic.StoreInt32(addr, val) }

// StoreInt64 atomically stores val into *addr (sync/atomic.StoreInt64).
func StoreInt64(addr *int64, val int64) { atomic.StoreInt64(addr, val) }

// StoreUint32 atomically stores val into *addr (sync/atomic.StoreUint32).
func StoreUint32(addr *uint32, val uint32) { atomic.StoreUint32(addr, val) }

// StoreUint64 atomically stores val into *addr (sync/atomic.StoreUint64).
func StoreUint64(addr *uint64, val uint64) { atomic.StoreUint64(addr, val) }

// StoreUintptr atomically stores val into *addr (sync/atomic.StoreUintptr).
func StoreUintptr(addr *uintptr, val uintptr) { atomic.StoreUintptr(addr, val) }

// AddInt32 atomically adds delta to *addr and returns the new value.
func AddInt32(addr *int32, delta int32) (new int32) {
	return int32(FetchAddUint32((*uint32)(unsafe.Pointer(addr)), uint32(delta)) + uint32(delta))
}

// AddInt64 atomically adds delta to *addr and returns the new value.
func AddInt64(addr *int64, delta int64) (new int64) {
	return int64(FetchAddUint64((*uint64)(unsafe.Pointer(addr)), uint64(delta)) + uint64(delta))
}

// AddUint32 atomically adds delta to *addr and returns the new value. To
// subtract c, add ^uint32(c-1), as with sync/atomic.
func AddUint32(addr *uint32, delta uint32) (new uint32) {
	return FetchAddUint32(addr, delta) + delta
}

// AddUint64 atomically adds delta to *addr and returns the new value. To
// subtract c, add ^uint64(c-1), as with sync/atomic.
func AddUint64(addr *uint64, delta uint64) (new uint64) {
	return FetchAddUint64(addr, delta) + delta
}

// AddUintptr atomically adds delta to *addr and returns the new value.
func AddUintptr(addr *uintptr, delta uintptr) (new uintptr) {
	return FetchAddUintptr(addr, delta) + delta
}

// SwapInt32 atomically stores new into *addr and returns the old value.
func SwapInt32(addr *int32, new int32) (old int32) {
	return int32(SwapUint32((*uint32)(unsafe.Pointer(addr)), uint32(new)))
}

// SwapInt64 atomically stores new into *addr and returns the old value.
func SwapInt64(addr *int64, new int64) (old int64) {
	return int64(SwapUint64((*uint64)(unsafe.Pointer(addr)), uint64(new)))
}

// CompareAndSwapInt32 executes the compare-and-swap operation for an
// int32 value.
func CompareAndSwapInt32(addr *int32, old, new int32) (swapped bool) {
	return CompareAndSwapUint32((*uint32)(unsafe.Pointer(addr)), uint32(old), uint32(new))
}

// CompareAndSwapInt64 executes the compare-and-swap operation for an
// int64 value.
func CompareAndSwapInt64(addr *int64, old, new int64) (swapped bool) {
	return CompareAndSwapUint64((*uint64)(unsafe.Pointer(addr)), uint64(old), uint64(new))
}

// AndInt32 atomically clears the bits of *addr that are clear in mask and
// returns the old value.
func AndInt32(addr *int32, mask int32) (old int32) {
	return int32(FetchAndUint32((*uint32)(unsafe.Pointer(addr)), uint32(mask)))
}

// AndInt64 atomically clears the bits of *addr that are clear in mask and
// returns the old value.
func AndInt64(addr *int64, mask int64) (old int64) {
	return int64(FetchAndUint64((*uint64)(unsafe.Pointer(addr)), uint64(mask)))
}

// AndUint32 atomically clears the bits of *addr that are clear in mask and
// returns the old value: sync/atomic's name for FetchAndUint32.
func AndUint32(addr *uint32, mask uint32) (old uint32) { return FetchAndUint32(addr, mask) }

// AndUint64 atomically clears the bits of *addr that are clear in mask and
// returns the old value: sync/atomic's name for FetchAndUint64.
func AndUint64(addr *uint64, mask uint64) (old uint64) { return FetchAndUint64(addr, mask) }

// AndUintptr atomically clears the bits of *addr that are clear in mask
// and returns the old value (FetchAndUint32 or FetchAndUint64, by the
// size of uintptr).
func AndUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	if unsafe.Sizeof(mask) == 8 {
		return uintptr(FetchAndUint64((*uint64)(unsafe.Pointer(addr)), uint64(mask)))
	}
	return uintptr(FetchAndUint32((*uint32)(unsafe.Pointer(addr)), uint32(mask)))
}

// OrInt32 atomically sets the bits of mask in *addr and returns the old
// value.
func OrInt32(addr *int32, mask int32) (old int32) {
	return int32(FetchOrUint32((*uint32)(unsafe.Pointer(addr)), uint32(mask)))
}

// OrInt64 atomically sets the bits of mask in *addr and returns the old
// value.
func OrInt64(addr *int64, mask int64) (old int64) {
	return int64(FetchOrUint64((*uint64)(unsafe.Pointer(addr)), uint64(mask)))
}

// OrUint32 atomically sets the bits of mask in *addr and returns the old
// value: sync/atomic's name for FetchOrUint32.
func OrUint32(addr *uint32, mask uint32) (old uint32) { return FetchOrUint32(addr, mask) }

// OrUint64 atomically sets the bits of mask in *addr and returns the old
// value: sync/atomic's name for FetchOrUint64.
func OrUint64(addr *uint64, mask uint64) (old uint64) { return FetchOrUint64(addr, mask) }

// OrUintptr atomically sets the bits of mask in *addr and returns the old
// value (FetchOrUint32 or FetchOrUint64, by the size of uintptr).
func OrUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	if unsafe.Sizeof(mask) == 8 {
		return uintptr(FetchOrUint64((*uint64)(unsafe.Pointer(addr)), uint64(mask)))
	}
	return uintptr(FetchOrUint32((*uint32)(unsafe.Pointer(addr)), uint32(mask)))
}
