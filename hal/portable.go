package hal

import (
	"github.com/gohal/gohal/internal/cacheline"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// The portable variants: Go over sync/atomic. They are compiled into every
// build, so benchmarks can compare them with the assembly, and they are the
// only variants on architectures without a backend, with the purego tag and
// under the race detector.

func pause_portable() { runtime.Gosched() }

func cas32_portable(addr *uint32, old, new uint32) bool {
	return atomic.CompareAndSwapUint32(addr, old, new)
}

func cas64_portable(addr *uint64, old, new uint64) bool {
	return atomic.CompareAndSwapUint64(addr, old, new)
}

func casuintptr_portable(addr *uintptr, old, new uintptr) bool {
	return atomic.CompareAndSwapUintptr(addr, old, new)
}

func fetchadd32_portable(addr *uint32, delta uint32) uint32 {
	return atomic.AddUint32(addr, delta) - delta
}

func fetchadd64_portable(addr *uint64, delta uint64) uint64 {
	return atomic.AddUint64(addr, delta) - delta
}

func swap32_portable(addr *uint32, new uint32) uint32 { return atomic.SwapUint32(addr, new) }

func swap64_portable(addr *uint64, new uint64) uint64 { return atomic.SwapUint64(addr, new) }

// sync/atomic's Or and And (Go 1.23+) return the old value.

func fetchor32_portable(addr *uint32, mask uint32) uint32 { return atomic.OrUint32(addr, mask) }

func fetchor64_portable(addr *uint64, mask uint64) uint64 { return atomic.OrUint64(addr, mask) }

func fetchand32_portable(addr *uint32, mask uint32) uint32 { return atomic.AndUint32(addr, mask) }

func fetchand64_portable(addr *uint64, mask uint64) uint64 { return atomic.AndUint64(addr, mask) }

func fetchadduintptr_portable(addr *uintptr, delta uintptr) uintptr {
	return atomic.AddUintptr(addr, delta) - delta
}

func swapuintptr_portable(addr *uintptr, new uintptr) uintptr { return atomic.SwapUintptr(addr, new) }

// sync/atomic's loads and stores are sequentially consistent, which is
// stronger than acquire and release.

func loadacquire32_portable(addr *uint32) uint32 { return atomic.LoadUint32(addr) }

func loadacquire64_portable(addr *uint64) uint64 { return atomic.LoadUint64(addr) }

func storerelease32_portable(addr *uint32, val uint32) { atomic.StoreUint32(addr, val) }

func storerelease64_portable(addr *uint64, val uint64) { atomic.StoreUint64(addr, val) }

func loadacquireuintptr_portable(addr *uintptr) uintptr { return atomic.LoadUintptr(addr) }

func storereleaseuintptr_portable(addr *uintptr, val uintptr) { atomic.StoreUintptr(addr, val) }

// fenceWord is the target of the portable fence: a sequentially consistent
// read-modify-write orders everything before it against everything after
// it, which is what a full fence promises.
var fenceWord uint32

func fence_portable() { atomic.AddUint32(&fenceWord, 0) }

// cas128 stripes: a lock per 16-byte word address hash, each on its own
// cache line. Every access to a 128-bit word under the portable variant
// takes its stripe's lock; the lock is a compare-and-swap of sync/atomic,
// so the race detector sees the accesses as ordered. It never parks: the
// holder disables preemption (pin128, runtime.procPin where the linkname
// is allowed) for the two plain accesses it guards, so a waiter spins for
// nanoseconds at most, and an access made inside percpu.Pin (where parking
// is a fatal error) waits the same way. Where the linkname is not allowed
// the holder can be preempted, and a waiter yields instead (Pin pins
// nothing there either).
type stripe struct {
	v uint32
	_ [cacheline.Size - unsafe.Sizeof(uint32(0))%cacheline.Size]byte
}

func (s *stripe) Lock() {
	for {
		pin128()
		if atomic.CompareAndSwapUint32(&s.v, 0, 1) {
			return
		}
		unpin128() // a waiter stays preemptible (unless its caller pinned it)
		for atomic.LoadUint32(&s.v) != 0 {
			wait128()
		}
	}
}

func (s *stripe) Unlock() {
	atomic.StoreUint32(&s.v, 0)
	unpin128()
}

var stripes [64]stripe

func stripeFor(addr *[2]uint64) *stripe {
	a := uintptr(unsafe.Pointer(addr))
	return &stripes[(a>>4^a>>10)%uintptr(len(stripes))]
}

func cas128_portable(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool) {
	checkAligned128(addr)
	s := stripeFor(addr)
	s.Lock()
	lo, hi = addr[0], addr[1]
	if lo == oldLo && hi == oldHi {
		addr[0], addr[1] = newLo, newHi
		swapped = true
	}
	s.Unlock()
	return lo, hi, swapped
}

// load128_portable reads the word under its stripe's lock: a reader takes
// the lock as a writer does, so it never sees half of a store.
func load128_portable(addr *[2]uint64) (lo, hi uint64) {
	checkAligned128(addr)
	s := stripeFor(addr)
	s.Lock()
	lo, hi = addr[0], addr[1]
	s.Unlock()
	return lo, hi
}

// store128_portable writes the word under its stripe's lock.
func store128_portable(addr *[2]uint64, lo, hi uint64) {
	checkAligned128(addr)
	s := stripeFor(addr)
	s.Lock()
	addr[0], addr[1] = lo, hi
	s.Unlock()
}

// portableEpoch anchors the portable cycle counter: nanoseconds on the
// monotonic clock.
var portableEpoch = time.Now()

func cycles_portable() uint64 { return uint64(time.Since(portableEpoch)) }

// spinlock32_portable is the test-and-test-and-set loop of SpinLockUint32
// in Go: a load, Pause while the word is held, a CAS when it reads free,
// and a lost CAS charged as one more pause. Pause is the build's own: the
// hardware hint where hal has assembly, runtime.Gosched in the portable
// build.
func spinlock32_portable(addr *uint32, spins uint32) bool {
	for {
		if atomic.LoadUint32(addr) == 0 && atomic.CompareAndSwapUint32(addr, 0, 1) {
			return true
		}
		if spins == 0 {
			return false
		}
		spins--
		Pause()
	}
}

// fenceheavy_portable is FenceHeavy's portable variant: a full fence, with
// FenceLight a full fence too (setFenceLight).
func fenceheavy_portable() { Fence() }
