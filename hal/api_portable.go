//go:build purego || race || !(amd64 || arm64 || riscv64)

package hal

import (
	"runtime"
	"sync/atomic"
)

// In the portable build every op has one variant, "portable". The exported
// functions call sync/atomic directly so the compiler can inline them.

// The portable build chooses nothing at compile time, even with the
// gohal_static tag: it has nothing to choose.
const (
	staticBuild = false
	staticLevel = ""
)

func staticVariant(op string) string { return "" }

// bindings: every op is the portable variant.
var bindings = map[string]string{
	"pause": "portable", "cas32": "portable", "cas64": "portable", "casuintptr": "portable",
	"fetchadd32": "portable", "fetchadd64": "portable", "swap32": "portable", "swap64": "portable",
	"loadacquire32": "portable", "loadacquire64": "portable",
	"storerelease32": "portable", "storerelease64": "portable",
	"fence": "portable", "cas128": "portable", "load128": "portable", "store128": "portable", "cycles": "portable",
	"spinlock32": "portable",
}

var archOps = []opImpl{
	{name: "pause", variants: []variantImpl{{name: "portable", fn: pause_portable}}},
	{name: "cas32", variants: []variantImpl{{name: "portable", fn: cas32_portable}}},
	{name: "cas64", variants: []variantImpl{{name: "portable", fn: cas64_portable}}},
	{name: "casuintptr", variants: []variantImpl{{name: "portable", fn: casuintptr_portable}}},
	{name: "fetchadd32", variants: []variantImpl{{name: "portable", fn: fetchadd32_portable}}},
	{name: "fetchadd64", variants: []variantImpl{{name: "portable", fn: fetchadd64_portable}}},
	{name: "swap32", variants: []variantImpl{{name: "portable", fn: swap32_portable}}},
	{name: "swap64", variants: []variantImpl{{name: "portable", fn: swap64_portable}}},
	{name: "loadacquire32", variants: []variantImpl{{name: "portable", fn: loadacquire32_portable}}},
	{name: "loadacquire64", variants: []variantImpl{{name: "portable", fn: loadacquire64_portable}}},
	{name: "storerelease32", variants: []variantImpl{{name: "portable", fn: storerelease32_portable}}},
	{name: "storerelease64", variants: []variantImpl{{name: "portable", fn: storerelease64_portable}}},
	{name: "fence", variants: []variantImpl{{name: "portable", fn: fence_portable}}},
	{name: "cas128", variants: []variantImpl{{name: "portable", fn: cas128_portable}}},
	{name: "load128", variants: []variantImpl{{name: "portable", fn: load128_portable}}},
	{name: "store128", variants: []variantImpl{{name: "portable", fn: store128_portable}}},
	{name: "cycles", variants: []variantImpl{{name: "portable", fn: cycles_portable}}},
	{name: "spinlock32", variants: []variantImpl{{name: "portable", fn: spinlock32_portable}}},
}

// Pause tells the CPU that the caller is spinning on a shared word. In the
// portable build it yields the processor with runtime.Gosched.
func Pause() { runtime.Gosched() }

// CompareAndSwapUint32 executes the compare-and-swap operation for a uint32
// value, sequentially consistent like sync/atomic.
func CompareAndSwapUint32(addr *uint32, old, new uint32) (swapped bool) {
	return atomic.CompareAndSwapUint32(addr, old, new)
}

// CompareAndSwapUint64 executes the compare-and-swap operation for a uint64
// value, sequentially consistent like sync/atomic.
func CompareAndSwapUint64(addr *uint64, old, new uint64) (swapped bool) {
	return atomic.CompareAndSwapUint64(addr, old, new)
}

// CompareAndSwapUintptr executes the compare-and-swap operation for a
// uintptr value, sequentially consistent like sync/atomic.
func CompareAndSwapUintptr(addr *uintptr, old, new uintptr) (swapped bool) {
	return atomic.CompareAndSwapUintptr(addr, old, new)
}

// FetchAddUint32 atomically adds delta to *addr and returns the old value,
// sequentially consistent.
func FetchAddUint32(addr *uint32, delta uint32) (old uint32) {
	return atomic.AddUint32(addr, delta) - delta
}

// FetchAddUint64 atomically adds delta to *addr and returns the old value,
// sequentially consistent.
func FetchAddUint64(addr *uint64, delta uint64) (old uint64) {
	return atomic.AddUint64(addr, delta) - delta
}

// SwapUint32 atomically stores new into *addr and returns the old value,
// sequentially consistent.
func SwapUint32(addr *uint32, new uint32) (old uint32) { return atomic.SwapUint32(addr, new) }

// SwapUint64 atomically stores new into *addr and returns the old value,
// sequentially consistent.
func SwapUint64(addr *uint64, new uint64) (old uint64) { return atomic.SwapUint64(addr, new) }

// LoadAcquireUint32 atomically loads *addr with acquire ordering: no later
// load or store moves before it.
func LoadAcquireUint32(addr *uint32) uint32 { return atomic.LoadUint32(addr) }

// LoadAcquireUint64 atomically loads *addr with acquire ordering: no later
// load or store moves before it.
func LoadAcquireUint64(addr *uint64) uint64 { return atomic.LoadUint64(addr) }

// StoreReleaseUint32 atomically stores val into *addr with release
// ordering: no earlier load or store moves after it.
func StoreReleaseUint32(addr *uint32, val uint32) { atomic.StoreUint32(addr, val) }

// StoreReleaseUint64 atomically stores val into *addr with release
// ordering: no earlier load or store moves after it.
func StoreReleaseUint64(addr *uint64, val uint64) { atomic.StoreUint64(addr, val) }

// Fence is a full memory barrier: no load or store moves across it in
// either direction.
func Fence() { atomic.AddUint32(&fenceWord, 0) }

// Cycles returns the CPU's cycle or tick counter. In the portable build it
// counts nanoseconds on the monotonic clock.
func Cycles() uint64 { return cycles_portable() }

func cas128(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {
	return cas128_portable(addr, oldLo, oldHi, newLo, newHi)
}

func load128(addr *[2]uint64) (lo, hi uint64) { return load128_portable(addr) }

func store128(addr *[2]uint64, lo, hi uint64) { store128_portable(addr, lo, hi) }

// The Uint128 entries: the ops on the aligned word of the Uint128 at addr.

func cas128U(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {
	return cas128_portable(resolve128(addr), oldLo, oldHi, newLo, newHi)
}

func load128U(addr *[2]uint64) (lo, hi uint64) { return load128_portable(resolve128(addr)) }

func store128U(addr *[2]uint64, lo, hi uint64) { store128_portable(resolve128(addr), lo, hi) }

// SpinLockUint32 tries to take the spin lock word *addr (0 free, 1 held),
// spinning at most spins pauses: it reads *addr; while the word is held it
// pauses and reads it again; when it reads 0 it tries a compare-and-swap
// from 0 to 1, and a CAS that loses counts as one more pause. It returns
// true once the CAS has taken the lock (sequentially consistent) and false
// when the budget runs out first, without having changed *addr. With spins
// 0 it is a TryLock. Release the lock with StoreReleaseUint32(addr, 0). In
// the portable build it is a Go loop over sync/atomic whose pause is
// runtime.Gosched.
func SpinLockUint32(addr *uint32, spins uint32) (acquired bool) {
	return spinlock32_portable(addr, spins)
}
