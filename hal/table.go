package hal

// Entry is one op's row in the [DispatchTable]: the chosen variant, why it
// was chosen, and a func value that calls it.
type Entry[F any] struct {
	Variant string
	Reason  string
	Func    F
}

// DispatchTable holds, per op, the variant chosen at init and a func value bound to
// it. Calling through Table is an indirect call; when the variant is
// assembly it also passes through the ABI wrapper the Go toolchain puts in
// front of every assembly function used as a func value. It exists to
// measure that cost and for callers that store operations in data; the
// exported functions of this package are the cheaper binding.
type DispatchTable struct {
	Pause                 Entry[func()]
	CompareAndSwapUint32  Entry[func(addr *uint32, old, new uint32) (swapped bool)]
	CompareAndSwapUint64  Entry[func(addr *uint64, old, new uint64) (swapped bool)]
	CompareAndSwapUintptr Entry[func(addr *uintptr, old, new uintptr) (swapped bool)]
	FetchAddUint32        Entry[func(addr *uint32, delta uint32) (old uint32)]
	FetchAddUint64        Entry[func(addr *uint64, delta uint64) (old uint64)]
	SwapUint32            Entry[func(addr *uint32, new uint32) (old uint32)]
	SwapUint64            Entry[func(addr *uint64, new uint64) (old uint64)]
	LoadAcquireUint32     Entry[func(addr *uint32) uint32]
	LoadAcquireUint64     Entry[func(addr *uint64) uint64]
	StoreReleaseUint32    Entry[func(addr *uint32, val uint32)]
	StoreReleaseUint64    Entry[func(addr *uint64, val uint64)]
	Fence                 Entry[func()]
	// CompareAndSwap128 is the raw 128-bit CAS on a 16-byte-aligned word:
	// it returns the value found and whether it swapped. Use it with
	// [Uint128.Addr].
	CompareAndSwap128 Entry[func(addr *[2]uint64, oldLo, oldHi, newLo, newHi uint64) (lo, hi uint64, swapped bool)]
	// Load128 and Store128 are the raw 128-bit load and store on a
	// 16-byte-aligned word. Use them with [Uint128.Addr].
	Load128  Entry[func(addr *[2]uint64) (lo, hi uint64)]
	Store128 Entry[func(addr *[2]uint64, lo, hi uint64)]
	Cycles   Entry[func() uint64]
	// SpinLockUint32 is the whole test-and-test-and-set acquire loop in
	// one call (see [SpinLockUint32]).
	SpinLockUint32 Entry[func(addr *uint32, spins uint32) (acquired bool)]
}

// Table returns the dispatch table. The pointer is to the package's
// own table: read it, do not write it. It changes only under [Force].
func Table() *DispatchTable { return &table }

func (t *DispatchTable) set(op, variant, reason string, fn any) {
	switch op {
	case "pause":
		t.Pause = Entry[func()]{variant, reason, fn.(func())}
	case "cas32":
		t.CompareAndSwapUint32 = Entry[func(*uint32, uint32, uint32) bool]{variant, reason, fn.(func(*uint32, uint32, uint32) bool)}
	case "cas64":
		t.CompareAndSwapUint64 = Entry[func(*uint64, uint64, uint64) bool]{variant, reason, fn.(func(*uint64, uint64, uint64) bool)}
	case "casuintptr":
		t.CompareAndSwapUintptr = Entry[func(*uintptr, uintptr, uintptr) bool]{variant, reason, fn.(func(*uintptr, uintptr, uintptr) bool)}
	case "fetchadd32":
		t.FetchAddUint32 = Entry[func(*uint32, uint32) uint32]{variant, reason, fn.(func(*uint32, uint32) uint32)}
	case "fetchadd64":
		t.FetchAddUint64 = Entry[func(*uint64, uint64) uint64]{variant, reason, fn.(func(*uint64, uint64) uint64)}
	case "swap32":
		t.SwapUint32 = Entry[func(*uint32, uint32) uint32]{variant, reason, fn.(func(*uint32, uint32) uint32)}
	case "swap64":
		t.SwapUint64 = Entry[func(*uint64, uint64) uint64]{variant, reason, fn.(func(*uint64, uint64) uint64)}
	case "loadacquire32":
		t.LoadAcquireUint32 = Entry[func(*uint32) uint32]{variant, reason, fn.(func(*uint32) uint32)}
	case "loadacquire64":
		t.LoadAcquireUint64 = Entry[func(*uint64) uint64]{variant, reason, fn.(func(*uint64) uint64)}
	case "storerelease32":
		t.StoreReleaseUint32 = Entry[func(*uint32, uint32)]{variant, reason, fn.(func(*uint32, uint32))}
	case "storerelease64":
		t.StoreReleaseUint64 = Entry[func(*uint64, uint64)]{variant, reason, fn.(func(*uint64, uint64))}
	case "fence":
		t.Fence = Entry[func()]{variant, reason, fn.(func())}
	case "cas128":
		t.CompareAndSwap128 = Entry[func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool)]{variant, reason, fn.(func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool))}
	case "load128":
		t.Load128 = Entry[func(*[2]uint64) (uint64, uint64)]{variant, reason, fn.(func(*[2]uint64) (uint64, uint64))}
	case "store128":
		t.Store128 = Entry[func(*[2]uint64, uint64, uint64)]{variant, reason, fn.(func(*[2]uint64, uint64, uint64))}
	case "cycles":
		t.Cycles = Entry[func() uint64]{variant, reason, fn.(func() uint64)}
	case "spinlock32":
		t.SpinLockUint32 = Entry[func(*uint32, uint32) bool]{variant, reason, fn.(func(*uint32, uint32) bool)}
	default:
		panic("hal: table has no row for op " + op)
	}
}
