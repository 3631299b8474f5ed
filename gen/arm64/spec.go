package arm64

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is arm64's part of the op spec: every op's variants in order of
// preference, the GOARM64 levels, and how CI runs arm64 under emulation.
var Spec = spec.Arch{
	GOARCH: "arm64",
	Variants: map[string][]spec.Variant{
		// WFE is left out: a bare SEVL;WFE falls through at once (a
		// no-op), and WFE without a preceding exclusive load arming
		// the monitor on the spun-on word sleeps until the next
		// event, up to the event-stream period. Pause has no word to
		// monitor, so WFE cannot be made correct here.
		"pause": {
			{Name: "isb", Why: "ISB: a pipeline flush of tens of cycles; the spin hint of Go 1.26's runtime"},
			{Name: "yield", Why: "YIELD: a hint that most cores treat as a NOP"},
		},
		"cas32":               rmw("CASAL", "LDAXR/STLXR"),
		"cas64":               rmw("CASAL", "LDAXR/STLXR"),
		"casuintptr":          rmw("CASAL", "LDAXR/STLXR"),
		"fetchadd32":          rmw("LDADDAL", ""),
		"fetchadd64":          rmw("LDADDAL", ""),
		"fetchadduintptr":     rmw("LDADDAL", ""),
		"swap32":              rmw("SWPAL", ""),
		"swap64":              rmw("SWPAL", ""),
		"swapuintptr":         rmw("SWPAL", ""),
		"fetchor32":           bits,
		"fetchor64":           bits,
		"fetchand32":          bits,
		"fetchand64":          bits,
		"loadacquire32":       loadAcquire,
		"loadacquire64":       loadAcquire,
		"loadacquireuintptr":  loadAcquire,
		"storerelease32":      storeRelease,
		"storerelease64":      storeRelease,
		"storereleaseuintptr": storeRelease,
		"fence":               {{Name: "dmb", Brief: "DMB ISH", Why: "DMB ISH: full barrier for all loads and stores in the inner shareable domain"}},
		"cas128": {
			{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Brief: "CASPAL", Why: "CASPAL (WORD-encoded; the relaxed CASP would not order)"},
			{Name: "llsc", Brief: "LDAXP/STLXP", Why: "LDAXP/STLXP loop; a failed compare still completes a STLXP of the value read, since only a successful store-exclusive makes the pair load single-copy atomic"},
		},
		// FEAT_LSE2 makes an aligned LDP single-copy atomic (a load
		// that writes nothing), but Debian's qemu 7.2 has no
		// HWCAP_USCAT even with -cpu max, so no test could run such
		// a variant: see ARCHITECTURES.md.
		"load128": {
			{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Brief: "CASPAL of 0 with 0", Why: "CASPAL of 0 with 0 (WORD-encoded): returns the value, acquire and release; it writes"},
			{Name: "llsc", Brief: "LDAXP, STLXP of the pair read", Why: "LDAXP, then STLXP of the pair read, retried until the store-exclusive succeeds: only then was the pair read single-copy atomic"},
		},
		"store128": {
			{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Brief: "CASPAL loop", Why: "CASPAL loop (WORD-encoded) from a first guess read with LDP: acquire and release"},
			{Name: "llsc", Brief: "LDAXP/STLXP loop", Why: "LDAXP/STLXP loop storing the new pair: acquire and release"},
		},
		"cycles": {{Name: "cntvct", Brief: "ISB; MRS CNTVCT_EL0, the generic timer", Why: "ISB; MRS CNTVCT_EL0: the ISB keeps the counter read from being done early, out of order"}},
		// One spin hint: ISB, the hint of Go 1.26's runtime.
		// YIELD is a NOP on most cores, so a YIELD loop would
		// only spin faster on the load; the pause op's isb and
		// yield variants already measure the two hints.
		"spinlock32": {
			{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Brief: "LDR test, ISB, CASAL", Why: "plain LDR test, ISB while held, CASALW 0→1 when free"},
			{Name: "llsc", Brief: "LDR test, ISB, LDAXR/STLXR", Why: "plain LDR test, ISB while held, LDAXRW/STLXRW 0→1 when free"},
		},
		// arm64 Linux offers no user-mode CPU number (no TPIDRRO_EL0
		// CPU number, no rseq area registered by Go): the system call
		// it is.
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu: no user-mode CPU number", Why: "SVC getcpu(2) (number 168): arm64 Linux has no user-mode CPU-number register or instruction"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Levels: []spec.Level{
		{Tag: "arm64.v8.0", Why: "baseline ARMv8.0"},
		{Tag: "arm64.v8.1", Implies: []string{dispatch.FeatureAtomics}, Why: "FEAT_LSE is mandatory from ARMv8.1"},
		{Tag: "arm64.v8.3", Implies: []string{dispatch.FeatureAtomics, dispatch.FeatureLRCPC}, Why: "FEAT_LRCPC is mandatory from ARMv8.3"},
	},
	// cortex-a53 is ARMv8.0 without LSE (the llsc variants run), max has
	// LSE and LRCPC (lse, ldapr).
	Emulator: spec.Emulator{Binary: "qemu-aarch64", CPUs: []string{"cortex-a53", "max"}, Binutils: "binutils-aarch64-linux-gnu"},
}

// rmw is the variants of a sequentially consistent read-modify-write:
// the LSE instruction lse (an AL form) and an LL/SC loop, whose
// variants-table briefs are lse and llsc.
func rmw(lse, llsc string) []spec.Variant {
	return []spec.Variant{
		{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Intrinsic: true, Brief: lse, Why: "ARMv8.1 LSE instruction with acquire+release (the AL forms CASAL, LDADDAL, SWPAL)"},
		{Name: "llsc", IntrinsicFallback: true, Brief: llsc, Why: "LDAXR/STLXR loop, as the Go runtime's fallback: acquire load, release store-exclusive"},
	}
}

var (
	// LSE's LDSET (Go's LDORAL) and LDCLR (bit clear, so And passes
	// ^mask), as the compiler's intrinsics at arm64.v8.1: MVN; LDCLRALD.
	bits = []spec.Variant{
		{Name: "lse", Requires: []string{dispatch.FeatureAtomics}, Intrinsic: true, Brief: "LDSETAL; LDCLRAL of ^mask", Why: "ARMv8.1 LSE with acquire+release: LDSETAL (Go's LDORAL) for or, LDCLRAL of ^mask for and"},
		{Name: "llsc", Why: "LDAXR/STLXR loop with ORR/AND between, as the Go runtime's fallback"},
	}
	loadAcquire = []spec.Variant{
		{Name: "ldapr", Requires: []string{dispatch.FeatureLRCPC}, Why: "LDAPR (RCpc acquire, WORD-encoded): may pass an earlier STLR, which acquire allows"},
		{Name: "ldar", Intrinsic: true, Why: "LDAR (RCsc acquire)"},
	}
	storeRelease = []spec.Variant{{Name: "stlr", Intrinsic: true, Why: "STLR (release)"}}
)
