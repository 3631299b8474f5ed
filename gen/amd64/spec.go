package amd64

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is amd64's part of the op spec: every op's variants in order of
// preference, the GOAMD64 levels, and how CI runs amd64 under emulation.
var Spec = spec.Arch{
	GOARCH: "amd64",
	Variants: map[string][]spec.Variant{
		// TPAUSE (waitpkg) is left out: no CPU or emulator here has
		// WAITPKG (qemu's TCG lacks it), so it could not be run by
		// any test.
		"pause":               {{Name: "pause", Why: "PAUSE: the spin-loop hint the Go runtime's procyield uses"}},
		"cas32":               locked("LOCK CMPXCHG"),
		"cas64":               locked("LOCK CMPXCHG"),
		"casuintptr":          locked("LOCK CMPXCHG"),
		"fetchadd32":          locked("LOCK XADD"),
		"fetchadd64":          locked("LOCK XADD"),
		"fetchadduintptr":     locked("LOCK XADD"),
		"swap32":              locked("XCHG"),
		"swap64":              locked("XCHG"),
		"swapuintptr":         locked("XCHG"),
		"fetchor32":           casLoop,
		"fetchor64":           casLoop,
		"fetchand32":          casLoop,
		"fetchand64":          casLoop,
		"loadacquire32":       loadAcquire,
		"loadacquire64":       loadAcquire,
		"loadacquireuintptr":  loadAcquire,
		"storerelease32":      storeRelease,
		"storerelease64":      storeRelease,
		"storereleaseuintptr": storeRelease,
		"fence": {
			{Name: "lockor", Brief: "LOCK OR to the stack", Why: "LOCK ORQ $0 on the top of the stack: a locked no-op, a full barrier, cheaper than MFENCE"},
			{Name: "mfence", Why: "MFENCE: the architectural full fence (also orders non-temporal stores)"},
		},
		"cas128": {
			{Name: "cmpxchg16b", Requires: []string{dispatch.FeatureCX16}, Why: "LOCK CMPXCHG16B; faults on a word not 16-byte aligned"},
			// The first x86-64 CPUs lack CMPXCHG16B; without a
			// fallback hal's init would find no variant and exit.
			spec.Portable("hal's striped-lock Go fallback, for CPUs without CMPXCHG16B"),
		},
		"load128": {
			{Name: "vmovdqa", Requires: []string{dispatch.FeatureAVXAtomic}, Brief: "AVX on Intel or AMD; writes nothing", Why: "VMOVDQA: one 16-byte load, atomic when aligned on AVX CPUs of Intel and AMD; it writes nothing, so readers share the line (x86-TSO: a load is not reordered with later loads or stores, and it is ordered after every locked instruction and fenced store)"},
			{Name: "cmpxchg16b", Requires: []string{dispatch.FeatureCX16}, Brief: "of 0 with 0", Why: "LOCK CMPXCHG16B of 0 with 0: returns the value; it writes (0 over 0 when the word is 0), so it needs the line exclusively"},
			spec.Portable("hal's striped-lock Go fallback, for CPUs without CMPXCHG16B"),
		},
		"store128": {
			{Name: "vmovdqa", Requires: []string{dispatch.FeatureAVXAtomic}, Brief: "VMOVDQA, then LOCK OR to the stack as the full fence", Why: "VMOVDQA store, then LOCK ORQ $0 on the top of the stack: the locked no-op is the full fence that makes the store sequentially consistent (no later load moves before it), cheaper than MFENCE"},
			{Name: "cmpxchg16b", Requires: []string{dispatch.FeatureCX16}, Brief: "a loop", Why: "LOCK CMPXCHG16B loop from a first guess of 0: locked, so sequentially consistent"},
			spec.Portable("hal's striped-lock Go fallback, for CPUs without CMPXCHG16B"),
		},
		"cycles": {
			{Name: "rdtscp", Requires: []string{dispatch.FeatureRDTSCP}, Brief: "TSC", Why: "RDTSCP: waits for earlier instructions to execute before reading the TSC"},
			{Name: "lfence_rdtsc", Brief: "TSC", Why: "LFENCE; RDTSC: LFENCE keeps RDTSC from executing before earlier instructions"},
		},
		"spinlock32": {{Name: "pause", Brief: "MOV test, PAUSE, LOCK CMPXCHG", Why: "MOVL test, PAUSE while held, LOCK CMPXCHGL 0→1 when free"}},
		// x86 has user-mode instructions that read what Linux stores
		// per CPU.
		"cpu": {
			{Name: "rdpid", Requires: []string{dispatch.FeatureRDPID, dispatch.FeatureTSCAux}, Why: "RDPID: reads IA32_TSC_AUX, where Linux keeps node<<12 | cpu; the low 12 bits are the CPU"},
			{Name: "rdtscp", Requires: []string{dispatch.FeatureRDTSCP, dispatch.FeatureTSCAux}, Why: "RDTSCP: the TSC, and IA32_TSC_AUX in ECX (low 12 bits: the CPU); waits for earlier instructions, so slower than RDPID"},
			{Name: "lsl", Requires: []string{dispatch.FeatureCPUNodeSeg}, Brief: "Linux's per-CPU GDT segment", Why: "LSL of selector 0x7b: the limit of Linux's per-CPU GDT entry (node<<12 | cpu), as the vDSO's getcpu reads it without RDPID"},
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "SYSCALL getcpu(2) (number 309): a round trip into the kernel"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Levels: []spec.Level{
		{Tag: "amd64.v1", Why: "baseline x86-64"},
		{Tag: "amd64.v2", Implies: []string{dispatch.FeatureCX16}, Why: "x86-64-v2 includes CMPXCHG16B"},
	},
	// CI runs amd64 natively on an amd64 host; elsewhere under
	// qemu-x86_64's default model.
	Emulator: spec.Emulator{Binary: "qemu-x86_64"},
}

// locked is the one variant of a read-modify-write that x86 does in one
// locked instruction, brief naming it.
func locked(brief string) []spec.Variant {
	return []spec.Variant{{Name: "lock", Intrinsic: true, Brief: brief, Why: "LOCK-prefixed instruction (XCHG is implicitly locked): a full barrier on x86"}}
}

var (
	// x86 has no fetch-or or fetch-and (LOCK OR and LOCK AND return
	// nothing), so they are a CAS loop: exactly the code the compiler
	// emits for atomic.OrUint64/AndUint64 (and the 32-bit forms) when the
	// result is used (checked with go build -gcflags=-S on Go 1.26.8: MOVQ
	// (CX), AX; loop: MOVQ BX, DX; ORQ AX, DX; LOCK CMPXCHGQ DX, (CX); JNE).
	casLoop      = []spec.Variant{{Name: "cmpxchg", Intrinsic: true, Brief: "MOV, OR/AND, LOCK CMPXCHG loop: what sync/atomic's intrinsic emits, bound inline", Why: "loop of MOV, OR/AND, LOCK CMPXCHG: x86 has no fetch-or/and; what the compiler emits for atomic.OrUint64/AndUint64 with the result used"}}
	loadAcquire  = []spec.Variant{{Name: "mov", Intrinsic: true, Brief: "TSO: a plain load is acquire", Why: "plain MOV: under x86-TSO a load is never reordered with later loads or stores, so it is an acquire load"}}
	storeRelease = []spec.Variant{{Name: "mov", Plain: true, Brief: "TSO: a plain store is release; bound as Go's plain store", Why: "plain MOV: under x86-TSO a store is never reordered with earlier loads or stores, so it is a release store"}}
)
