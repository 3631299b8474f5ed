package ppc64le

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// No variant requires a CPU feature: every instruction used is in Power
// ISA v2.07 (POWER8), the minimum Go requires of ppc64le (GOPPC64=power8).
// Only the CPU number asks the operating system.

// The read-modify-writes (CAS, fetch-add/or/and, swap) are load-and-reserve /
// store-conditional loops between two fences; the variants differ in the
// leading one. Both end in SYNC, so that no later load, acquire loads
// included, is performed before the store: hal's read-modify-writes are a
// full barrier after them on every architecture (its store-buffering
// litmus tests check it), which Go's own trailing LWSYNC or ISYNC is not
// (see the package comment).
var (
	rmw = []spec.Variant{
		{Name: "lwsync", Brief: "LWSYNC, larx/stcx. loop, SYNC", Why: "LWSYNC, then the LWARX/STWCX. (LDARX/STDCX.) loop, then SYNC: Go's sync/atomic leads with LWSYNC too; the trailing SYNC keeps every later load and store after the store"},
		{Name: "sync", Brief: "SYNC, larx/stcx. loop, SYNC", Why: "SYNC, the loop, then SYNC: Linux's fully ordered atomics; the leading SYNC also keeps an earlier store before the load-and-reserve, and costs a second heavyweight sync"},
	}
	cas = []spec.Variant{
		{Name: "lwsync", Brief: "LWSYNC, larx/stcx. loop, SYNC", Why: "LWSYNC, then the LWARX/STWCX. (LDARX/STDCX.) loop, then SYNC when it stored or ISYNC when the compare failed: Go's sync/atomic leads with LWSYNC too"},
		{Name: "sync", Brief: "SYNC, larx/stcx. loop, SYNC", Why: "SYNC, the loop, then SYNC when it stored or ISYNC when the compare failed: Linux's fully ordered cmpxchg"},
	}
	loadAcquire = []spec.Variant{
		{Name: "isync", Brief: "load, CMP/BNE, ISYNC", Why: "plain load, a compare and branch on the value, then ISYNC: the Go runtime's LoadAcq; no later instruction starts before the value is known"},
		{Name: "lwsync", Brief: "load, LWSYNC", Why: "plain load, then LWSYNC: orders the load before every later load and store"},
	}
	storeRelease = []spec.Variant{
		{Name: "lwsync", Brief: "LWSYNC, store", Why: "LWSYNC, then a plain store: the Go runtime's StoreRel; every earlier load and store is ordered before it"},
	}
)

// Spec is ppc64le's part of the op spec.
var Spec = spec.Arch{
	GOARCH:   "ppc64le",
	Variants: Variants(),
	Emulator: spec.Emulator{
		Binary:   "qemu-ppc64le",
		CPUs:     []string{"power8", "power9"},
		Binutils: "binutils-powerpc64le-linux-gnu",
	},
}

// Variants returns every op's variants, the same on big-endian ppc64
// (gen/ppc64), whose Power ISA and Go minimum (POWER8) are the same: a
// fresh map for each GOARCH's Spec.
func Variants() map[string][]spec.Variant {
	return map[string][]spec.Variant{
		"pause": {
			{Name: "ppr", Brief: "OR R1,R1,R1; OR R6,R6,R6", Why: "or 1,1,1 then or 6,6,6: drop the hardware thread's priority to low and back to Linux's default medium-low, the hints the Go runtime's procyield brackets its loop with (POWER has no pause instruction)"},
			{Name: "yield", Brief: "OR R27,R27,R27", Why: "or 27,27,27, the yield hint binutils names yield: the spin hint of FreeBSD's cpu_spinwait, folly and RocksDB on POWER"},
		},
		"cas32":      cas,
		"cas64":      cas,
		"casuintptr": cas,
		"fetchadd32": rmw, "fetchadd64": rmw, "fetchadduintptr": rmw,
		"fetchor32": rmw, "fetchor64": rmw,
		"fetchand32": rmw, "fetchand64": rmw,
		"swap32": rmw, "swap64": rmw, "swapuintptr": rmw,
		"loadacquire32": loadAcquire, "loadacquire64": loadAcquire, "loadacquireuintptr": loadAcquire,
		"storerelease32": storeRelease, "storerelease64": storeRelease, "storereleaseuintptr": storeRelease,
		"fence": {
			{Name: "sync", Brief: "SYNC", Why: "SYNC (hwsync): orders every earlier load and store before every later one; LWSYNC does not order a store before a later load"},
		},
		// POWER8's quadword instructions would do all three (quad.go
		// has the bodies), but under Debian's qemu 7.2 a STQCX. after
		// LQARX never succeeds, so no test here could run them.
		"cas128":   {spec.Portable("hal's striped-lock Go fallback: the LQARX/STQCX. variant waits for an emulator that runs it (gen/ppc64le/quad.go)")},
		"load128":  {spec.Portable("hal's striped-lock Go fallback, as cas128 (the three share their words)")},
		"store128": {spec.Portable("hal's striped-lock Go fallback, as cas128 (the three share their words)")},
		"cycles": {
			{Name: "isync_mftb", Brief: "ISYNC; MFTB", Why: "ISYNC, then MFTB: the time base is read only after every earlier instruction has completed"},
			{Name: "mftb", Brief: "MFTB", Why: "MFTB (mfspr 268) alone, as the Go runtime's cputicks: the read may be performed ahead of earlier instructions"},
		},
		"spinlock32": {
			{Name: "llsc", Brief: "load test, OR R1,R1,R1; OR R6,R6,R6 while held, LWARX/STWCX. 0→1", Why: "plain load test, the ppr priority hints while held, LWSYNC then an LWARX/STWCX. 0→1 loop then SYNC when free (cas32's lwsync variant)"},
		},
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SC getcpu(2) (number 302): Linux on ppc64 (either byte order) has no user-mode CPU-number register or instruction"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	}
}
