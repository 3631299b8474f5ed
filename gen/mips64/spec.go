package mips64

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is mips64's part of the op spec: every op's variants in order of
// preference (one implicit level: every variant needs only MIPS III, which
// Go's mips64 port requires), and how CI runs mips64 under emulation.
var Spec = spec.Arch{
	GOARCH:   "mips64",
	Variants: Variants(),
	Emulator: spec.Emulator{
		Binary: "qemu-mips64",
		// One model per byte order in CI, the pair covering both: mips64
		// on 5Kf (MIPS64 Release 1, PAUSE a no-op), mips64le on
		// MIPS64R2-generic (Release 2), the same instructions
		// (gen/mips64le's test); both models pass by hand on each.
		CPUs:     []string{"5Kf"},
		Binutils: "binutils-mips64-linux-gnuabi64",
		// hal, dispatch and the kit per model: a GOARCH added in issue 41
		// keeps CI under its time budget (.ci/zarches).
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/", "./percpu/"},
	},
}

// Variants32 returns every op's variants on mips and mipsle (gen/mips,
// gen/mipsle): mips64's for the 32-bit and uintptr ops, hal's Go variant
// for the 64-bit ones, as MIPS32 has no 64-bit atomic.
func Variants32() map[string][]spec.Variant {
	m := Variants()
	why := "hal's Go variant over sync/atomic, which the Go runtime implements with a lock on mips and mipsle: MIPS32 has no 64-bit atomic (LLD/SCD are MIPS64; Release 6's LLWP/SCWP come with LL/SC encodings Go's binaries do not use)"
	for _, op := range []string{"cas64", "fetchadd64", "swap64", "fetchor64", "fetchand64", "loadacquire64", "storerelease64"} {
		m[op] = []spec.Variant{spec.Portable(why)}
	}
	m["cpu"] = []spec.Variant{
		{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SYSCALL getcpu(2) (o32 number 4312) without Go's system-call path"},
		spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
	}
	return m
}

// Variants returns every op's variants, the same on mips64le (gen/mips64le):
// a fresh map for each GOARCH's Spec.
func Variants() map[string][]spec.Variant {
	rmw := []spec.Variant{{Name: "llsc", Brief: "SYNC, LL/SC (LLD/SCD) loop, SYNC", Why: "SYNC, the LL/SC (LLD/SCD) loop, SYNC: the Go runtime's and Linux's fully ordered atomics on MIPS; MIPS has no single-instruction read-modify-write"}}
	loadAcquire := []spec.Variant{{Name: "sync", Brief: "load; SYNC", Why: "plain load, then SYNC: no later load or store moves before the load"}}
	storeRelease := []spec.Variant{{Name: "sync", Brief: "SYNC; store", Why: "SYNC, then a plain store: no earlier load or store moves after the store"}}
	quad := "hal's striped-lock Go fallback: MIPS64 has no 128-bit atomic before Release 6's LLDP/SCDP, and Go's mips64 binaries (pre-Release 6 LL/SC encodings) do not run on Release 6 cores"
	return map[string][]spec.Variant{
		"pause": {
			{Name: "pause", Brief: "PAUSE (Release 2; a no-op before)", Why: "PAUSE (WORD-encoded sll $0,$0,5): a Release 2 core idles while its LLbit is set; earlier cores run it as a no-op shift, so it needs no detection"},
			{Name: "nop", Brief: "nothing", Why: "return at once, as the Go runtime's procyield on mips64"},
		},
		"cas32": rmw, "cas64": rmw, "casuintptr": rmw,
		"fetchadd32": rmw, "fetchadd64": rmw, "fetchadduintptr": rmw,
		"fetchor32": rmw, "fetchor64": rmw,
		"fetchand32": rmw, "fetchand64": rmw,
		"swap32": rmw, "swap64": rmw, "swapuintptr": rmw,
		"loadacquire32": loadAcquire, "loadacquire64": loadAcquire, "loadacquireuintptr": loadAcquire,
		"storerelease32": storeRelease, "storerelease64": storeRelease, "storereleaseuintptr": storeRelease,
		"fence":      {{Name: "sync", Brief: "SYNC", Why: "SYNC (stype 0): orders every earlier load and store before every later one"}},
		"cas128":     {spec.Portable(quad)},
		"load128":    {spec.Portable(quad)},
		"store128":   {spec.Portable(quad)},
		"spinlock32": {{Name: "llsc", Brief: "load test, PAUSE while held, SYNC, LL/SC 0→1, SYNC", Why: "plain load test, PAUSE while held, then cas32's SYNC, LL/SC loop, SYNC when free"}},
		// RDHWR $2 (the cycle counter, CC) is Release 2, enabled for
		// user mode by Linux on Release 2 cores and emulated through a
		// trap before; but qemu-user returns a count that never moves,
		// so no test here could run a variant that uses it.
		"cycles": {spec.Portable("the monotonic clock, as the Go runtime's cputicks on mips64: RDHWR $2 (CC) waits for an emulator whose count moves (qemu-user's does not)")},
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SYSCALL getcpu(2) (n64 number 5271) without Go's system-call path"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	}
}
