package loong64

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is loong64's part of the op spec. No variant requires a CPU
// feature: LL/SC, the AM*_DB instructions, DBAR and RDTIME.D are all in
// LoongArch64's base ISA (LA464, Loongson 3A5000, has them all), which
// every loong64 Go program already requires.
//
// What is left out, and why:
//
//   - AMCAS_DB (the LAMCAS extension of LoongArch v1.1; Go's runtime and
//     compiler use it when internal/cpu's Loong64.HasLAMCAS is set) would
//     be a cas variant requiring a "lamcas" feature read from CPUCFG word 2
//     bit 28. The only loongarch64 model of Debian's qemu 7.2 is la464,
//     which lacks it, so no test here could run it. Likewise AMSWAP_DB.B/H
//     (LAM_BH) has no op of gohal's to serve.
//   - The 128-bit ops: LoongArch64 has no 128-bit atomic before SC.Q
//     (LoongArch v1.1, LA664), which neither the Go assembler nor qemu 7.2
//     knows; see ARCHITECTURES.md.
//   - A second fence (DBAR 0, the completion barrier) would only be
//     slower: it also waits for uncached accesses, which no Go program's
//     ordering needs; on LA464 every hint runs as DBAR 0 anyway.
var Spec = spec.Arch{
	GOARCH: "loong64",
	Variants: map[string][]spec.Variant{
		"pause": {{Name: "none", Brief: "RET only; LoongArch has no spin hint", Why: "LoongArch has no spin-wait hint instruction: a bare RET, as the Go runtime's procyield on loong64 (an empty procyieldAsm) and Linux's cpu_relax (a compiler barrier)"}},

		"cas32":      casVariants,
		"cas64":      casVariants,
		"casuintptr": casVariants,

		"fetchadd32":      rmw("AMADD_DB"),
		"fetchadd64":      rmw("AMADD_DB"),
		"fetchadduintptr": rmw("AMADD_DB"),
		"swap32":          rmw("AMSWAP_DB"),
		"swap64":          rmw("AMSWAP_DB"),
		"swapuintptr":     rmw("AMSWAP_DB"),
		"fetchor32":       bits,
		"fetchor64":       bits,
		"fetchand32":      bits,
		"fetchand64":      bits,

		"loadacquire32":      loadAcquire,
		"loadacquire64":      loadAcquire,
		"loadacquireuintptr": loadAcquire,

		"storerelease32":      storeRelease,
		"storerelease64":      storeRelease,
		"storereleaseuintptr": storeRelease,

		"fence": {{Name: "dbar", Brief: "DBAR 0x10", Why: "DBAR 0x10 (Linux's smp_mb): orders all earlier loads and stores before all later ones"}},

		"cas128":   {spec.Portable("hal's striped-lock Go fallback: no 128-bit atomic on LoongArch64 before SC.Q (v1.1), which neither Go nor qemu 7.2 has")},
		"load128":  {spec.Portable("hal's striped-lock Go fallback: no 128-bit atomic on LoongArch64 before SC.Q (v1.1)")},
		"store128": {spec.Portable("hal's striped-lock Go fallback: no 128-bit atomic on LoongArch64 before SC.Q (v1.1)")},

		"cycles": {{Name: "rdtimed", Brief: "RDTIME.D, the stable counter", Why: "RDTIME.D: the constant-rate stable counter, as the Go runtime's cputicks"}},

		"spinlock32": {{Name: "llsc", Brief: "LD.W test, LL.W/SC.W", Why: "plain LD.W test, no pause (none exists), then cas32's DBAR 0x14; LL.W/SC.W; DBAR 0x12 for 0→1 when free"}},

		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SYSCALL getcpu(2) (number 168): loong64 Linux has no user-mode CPU-number register or instruction"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Emulator: spec.Emulator{Binary: "qemu-loongarch64", CPUs: []string{"la464"}, Binutils: ""},
}

// casVariants: without LAMCAS (see Spec) the LL/SC loop is the only CAS.
var casVariants = []spec.Variant{
	{Name: "llsc", Brief: "LL/SC, DBAR 0x14/0x12", Why: "DBAR 0x14; LL/SC loop; DBAR 0x12, the Go runtime's CAS without LAMCAS (a failed compare leaves through DBAR 0x14)"},
}

// rmw returns the two variants of a read-modify-write whose single
// instruction is am (AMADD_DB, ...): that instruction first, as the Go
// runtime's and the compiler's, then the LL/SC loop, the other way the
// ISA offers, so that GOHAL, hal.Force and halbench tune can measure which
// a machine runs faster, alone and contended.
func rmw(am string) []spec.Variant {
	return []spec.Variant{
		{Name: "amo", Brief: am, Why: am + ": one instruction, a full barrier (the _DB forms), as the Go runtime's"},
		{Name: "llsc", Why: "DBAR 0x14; LL/SC loop; DBAR 0x12, as the Go runtime's Xchg8"},
	}
}

// bits: fetch-or and fetch-and share a row of the variants table, so
// they share one slice with one Brief.
var bits = rmw("AMOR_DB/AMAND_DB")

var (
	// The one variant is exactly what the compiler emits for
	// atomic.LoadUint32/64/Uintptr (LD.W or LD.D, DBAR 0x14; checked with
	// go build -gcflags=-S on Go 1.26.8), so hal binds it inline.
	loadAcquire = []spec.Variant{
		{Name: "dbar", Intrinsic: true, Brief: "LD; DBAR 0x14", Why: "plain load, then DBAR 0x14: no later load or store moves before the load (sync/atomic's Load)"},
	}
	storeRelease = []spec.Variant{
		{Name: "dbar", Brief: "DBAR 0x12; ST", Why: "DBAR 0x12, then a plain store: no earlier load or store moves after the store"},
		{Name: "amswap", Brief: "AMSWAP_DB to R0", Why: "AMSWAP_DB with the old value discarded: a full barrier, sync/atomic's Store"},
	}
)
