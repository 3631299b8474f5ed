package arm

import (
	"strings"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is 32-bit arm's part of the op spec: every op's variants in order
// of preference, GOARM=7 as the level that guarantees ARMv7, and how CI
// runs arm under emulation.
//
// Each read-modify-write has two assembly variants that differ only in
// the barrier around the exclusive loop: dmb (DMB ISH, ARMv7) and mcr
// (the ARMv6 CP15 barrier, MCR p15, 0, Rt, c7, c10, 5). Both need ARMv6K:
// LDREX/STREX are ARMv6, LDREXD/STREXD (the 64-bit ops) ARMv6K, and v6k
// is the flag Linux gives to both. ARMv5 (GOARM=5 on an ARM9) has only
// SWP: every op but pause is hal's portable one there, as Go's own
// runtime goes through the kernel's helpers at 0xffff0fc0 on it.
var Spec = spec.Arch{
	GOARCH: "arm",
	Variants: map[string][]spec.Variant{
		"pause": {
			{Name: "yield", Requires: []string{dispatch.FeatureV6K}, Brief: "YIELD", Why: "YIELD (WORD-encoded: the Go assembler has no mnemonic): the ARMv6K spin-wait hint"},
			{Name: "nop", Brief: "a bare return", Why: "no spin hint before ARMv6K (the hint space is not NOP-compatible on ARMv5): a call that does nothing"},
		},
		"cas32":               rmw("LDREX/STREX"),
		"cas64":               variants64("LDREXD/STREXD"),
		"casuintptr":          rmw("LDREX/STREX"),
		"fetchadd32":          rmw("LDREX/ADD/STREX"),
		"fetchadd64":          variants64("LDREXD/ADDS/ADC/STREXD"),
		"fetchadduintptr":     rmw("LDREX/ADD/STREX"),
		"swap32":              rmw("LDREX/STREX"),
		"swap64":              variants64("LDREXD/STREXD"),
		"swapuintptr":         rmw("LDREX/STREX"),
		"fetchor32":           rmw("LDREX/ORR/STREX"),
		"fetchor64":           variants64("LDREXD/ORR/STREXD"),
		"fetchand32":          rmw("LDREX/AND/STREX"),
		"fetchand64":          variants64("LDREXD/AND/STREXD"),
		"loadacquire32":       barrier("LDR; %s", "plain load, then the barrier: no later load or store moves before the load"),
		"loadacquireuintptr":  barrier("LDR; %s", "plain load, then the barrier: no later load or store moves before the load"),
		"loadacquire64":       barrier64("LDREXD; %s", "LDREXD, single-copy atomic for an aligned doubleword (LDRD is not without LPAE), then the barrier"),
		"storerelease32":      barrier("%s; STR", "the barrier, then a plain store: no earlier load or store moves after the store"),
		"storereleaseuintptr": barrier("%s; STR", "the barrier, then a plain store: no earlier load or store moves after the store"),
		"storerelease64":      barrier64("%s; LDREXD/STREXD", "the barrier, then an LDREXD/STREXD loop: STRD is not single-copy atomic without LPAE"),
		"fence":               barrier("%s", "the full barrier, inner-shareable: orders every earlier load and store before every later one"),
		"spinlock32":          barrier("LDR test, YIELD, LDREX/STREX, %s", "plain load test, YIELD while held (WORD-encoded), LDREX/STREX 0→1 when free, then the barrier"),
		// 32-bit ARM has no 128-bit atomic: its widest is LDREXD/STREXD
		// (64 bits). The striped lock is the only way.
		"cas128":   {spec.Portable("hal's striped-lock Go fallback: 32-bit ARM's widest atomic is LDREXD/STREXD, 64 bits")},
		"load128":  {spec.Portable("hal's striped-lock Go fallback: 32-bit ARM's widest atomic is LDREXD/STREXD, 64 bits")},
		"store128": {spec.Portable("hal's striped-lock Go fallback: 32-bit ARM's widest atomic is LDREXD/STREXD, 64 bits")},
		// The ARMv7 generic timer's CNTVCT is readable in user mode only
		// where the kernel enables it and the core has the timer (not
		// ARMv6, not every ARMv7), and Linux lists it in no HWCAP
		// (EVTSTRM says only that the event stream runs); the PMU cycle
		// counter is kernel-only by default. So no variant: hal's
		// monotonic-clock fallback.
		"cycles": {spec.Portable("the monotonic clock: 32-bit ARM Linux offers no cycle counter user mode can rely on (CNTVCT access is the kernel's choice, unlisted; PMCCNTR is kernel-only)")},
		// 32-bit ARM has no user-mode CPU-number register (TPIDRURO holds
		// the thread pointer): the system call it is.
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SWI getcpu(2) (EABI number 345): 32-bit ARM has no user-mode CPU-number register"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Levels: []spec.Level{
		{Tag: "arm.5", Why: "baseline GOARM=5 and 6: ARMv5 has no exclusive loads, and ARMv6 without K no LDREXD"},
		{Tag: "arm.7", Implies: []string{dispatch.FeatureV6K, dispatch.FeatureV7, dispatch.FeatureV7Atomics}, Why: "GOARM=7 is ARMv7: LDREXD/STREXD, YIELD and DMB, and Go's own 64-bit atomics are LDREXD/STREXD"},
	},
	// The default GOARM for a cross build is 7, whose Go runtime needs
	// VFPv3: max runs it, and hal's tests force every variant it has
	// features for (dmb and mcr alike). .ci/run runs GOARM=6 on arm1176
	// (ARMv6K: the mcr variants chosen, sync/atomic for 64 bits) and
	// GOARM=5 on arm926 (ARMv5: the portable ones) besides. The runs test
	// hal, dispatch and the kit only (CI's time budget; .ci/zarches).
	Emulator: spec.Emulator{Binary: "qemu-arm", CPUs: []string{"max"}, Binutils: "binutils-arm-linux-gnueabihf",
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/"}},
}

// rmw is the variants of a sequentially consistent read-modify-write or
// CAS: an exclusive loop between two barriers (DMB ISH on ARMv7, the CP15
// barrier on ARMv6K), as Linux's atomic_*_return and cmpxchg on ARM (and
// the C/C++11 mapping to ARMv7: dmb; loop; dmb), then hal's portable one.
func rmw(loop string) []spec.Variant {
	return []spec.Variant{
		{Name: "dmb", Requires: []string{dispatch.FeatureV6K, dispatch.FeatureV7}, Brief: "DMB ISH; " + loop + "; DMB ISH",
			Why: "DMB ISH; " + loop + " loop; DMB ISH: the ARMv7 barrier on both sides makes the loop sequentially consistent"},
		{Name: "mcr", Requires: []string{dispatch.FeatureV6K}, Brief: "MCR dmb; " + loop + "; MCR dmb",
			Why: "the ARMv6 CP15 barrier (MCR p15, 0, Rt, c7, c10, 5) on both sides of the " + loop + " loop: ARMv6K has no DMB"},
		spec.Portable("sync/atomic, which goes through the kernel's helpers below ARMv7: ARMv5 has no exclusive loads"),
	}
}

// barrier is the variants of an op whose only ordering is a barrier:
// format's %s is the barrier's name in the brief.
func barrier(format, why string) []spec.Variant {
	f := func(b string) string { return strings.ReplaceAll(format, "%s", b) }
	return []spec.Variant{
		{Name: "dmb", Requires: []string{dispatch.FeatureV6K, dispatch.FeatureV7}, Brief: f("DMB ISH"), Why: "DMB ISH (ARMv7): " + why},
		{Name: "mcr", Requires: []string{dispatch.FeatureV6K}, Brief: f("MCR dmb"), Why: "the ARMv6 CP15 barrier (MCR p15, 0, Rt, c7, c10, 5): " + why},
		spec.Portable("sync/atomic, which goes through the kernel's helpers below ARMv7"),
	}
}

// variants64 is rmw for a 64-bit op: its LDREXD/STREXD loop shares words with
// sync/atomic's 64-bit functions (hal.LoadUint64 is one), so it runs only
// where those are LDREXD/STREXD too (v7atomics: GOARM=7). Below GOARM=7
// Go's runtime may take a lock around a plain LDRD/STRD, which an
// exclusive loop beside it could tear or undo: sync/atomic is the only
// safe 64-bit path there.
func variants64(loop string) []spec.Variant { return need64(rmw(loop)) }

// barrier64 is barrier for a 64-bit load or store (see variants64).
func barrier64(format, why string) []spec.Variant { return need64(barrier(format, why)) }

func need64(vs []spec.Variant) []spec.Variant {
	for i := range vs {
		if !vs[i].Go {
			vs[i].Requires = append(vs[i].Requires, dispatch.FeatureV7Atomics)
		}
	}
	vs[len(vs)-1] = spec.Portable("sync/atomic: below GOARM=7 Go's own 64-bit atomics may take a lock, which hal's LDREXD/STREXD beside them would break")
	return vs
}
