package riscv64

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is riscv64's part of the op spec: every op's variants in order of
// preference (one implicit level: every variant needs only RV64GC, which
// Go requires), and how CI runs riscv64 under emulation.
var Spec = spec.Arch{
	GOARCH: "riscv64",
	Variants: map[string][]spec.Variant{
		// PAUSE is a FENCE hint encoding: a core without
		// Zihintpause runs it as a fence that orders nothing, so
		// it needs no feature check.
		"pause":               {{Name: "pause", Brief: "Zihintpause; a no-op FENCE hint elsewhere", Why: "Zihintpause PAUSE (WORD-encoded): a harmless FENCE W,0 on cores without Zihintpause"}},
		"cas32":               cas,
		"cas64":               cas,
		"casuintptr":          cas,
		"fetchadd32":          rmw("AMOADD.aqrl"),
		"fetchadd64":          rmw("AMOADD.aqrl"),
		"fetchadduintptr":     rmw("AMOADD.aqrl"),
		"swap32":              rmw("AMOSWAP.aqrl"),
		"swap64":              rmw("AMOSWAP.aqrl"),
		"swapuintptr":         rmw("AMOSWAP.aqrl"),
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
		"fence":               {{Name: "fence", Brief: "fence rw,rw", Why: "FENCE RW,RW (WORD-encoded; Go's FENCE is IORW,IORW): orders all earlier loads and stores before all later ones"}},
		// Zacas (AMOCAS.Q) is the only 128-bit atomic on riscv64,
		// and neither a CPU nor an emulator here has it (Debian's
		// qemu 7.2 lacks it), so no such variant could be run.
		"cas128":     {spec.Portable("hal's striped-lock Go fallback: no 128-bit CAS without Zacas")},
		"load128":    {spec.Portable("hal's striped-lock Go fallback: no 128-bit atomic without Zacas")},
		"store128":   {spec.Portable("hal's striped-lock Go fallback: no 128-bit atomic without Zacas")},
		"cycles":     {{Name: "rdtime", Brief: "the time CSR, a platform timer", Why: "RDTIME: the time CSR, a constant-rate platform timer, as the Go runtime's cputicks"}},
		"spinlock32": {{Name: "llsc", Brief: "LW test, PAUSE, LR.aqrl/SC.rl", Why: "plain LW test, PAUSE while held (WORD-encoded), LR.W.aqrl/SC.W.rl 0→1 when free (LR.aqrl WORD-encoded)"}},
		// riscv64 Linux offers no user-mode CPU number (no rseq area
		// registered by Go): the system call it is.
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "ECALL getcpu(2) (number 168): riscv64 Linux has no user-mode CPU-number register or instruction"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Emulator: spec.Emulator{Binary: "qemu-riscv64", Binutils: "binutils-riscv64-linux-gnu"},
}

// rmw is the variants of a sequentially consistent fetch-add or swap:
// the AMO instruction amo and an LR/SC loop. The A extension (LR/SC and
// AMOs) is part of RV64G, which Go requires: no feature to detect.
func rmw(amo string) []spec.Variant {
	return []spec.Variant{
		{Name: "amo", Brief: amo, Why: "AMO instruction with aq+rl (AMOADD, AMOSWAP): one instruction, which a core may perform at the cache or memory holding the line"},
		{Name: "llsc", Why: "LR.aqrl/SC.rl loop (LR.aqrl WORD-encoded): the line is reserved in the core's cache"},
	}
}

var (
	bits = []spec.Variant{
		{Name: "amo", Brief: "AMOOR/AMOAND.aqrl", Why: "AMOOR/AMOAND with aq+rl: one instruction, which a core may perform at the cache or memory holding the line"},
		{Name: "llsc", Why: "LR.aqrl/SC.rl loop (LR.aqrl WORD-encoded) with OR/AND between: the line is reserved in the core's cache"},
	}
	// A CAS has no AMO without Zacas.
	cas = []spec.Variant{
		{Name: "llsc", Brief: "LR.aqrl/SC.rl", Why: "LR.aqrl/SC.rl loop (LR.aqrl WORD-encoded), the RVWMO mapping of a sequentially consistent CAS"},
	}
	// The RVWMO mappings of load-acquire and store-release (RISC-V
	// unprivileged specification, Table A.6).
	loadAcquire  = []spec.Variant{{Name: "fence", Brief: "ld; fence r,rw", Why: "plain load, then FENCE R,RW (WORD-encoded): no later load or store moves before the load"}}
	storeRelease = []spec.Variant{{Name: "fence", Brief: "fence rw,w; sd", Why: "FENCE RW,W (WORD-encoded), then a plain store: no earlier load or store moves after the store"}}
)
