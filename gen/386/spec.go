package i386

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is 386's part of the op spec: every op's variants in order of
// preference, and how CI runs 386 (natively: see Emulator).
//
// Every CPU Go's 386 port runs on has LOCK CMPXCHG8B (Pentium) and MMX's
// 8-byte MOVQ (the runtime's own Load64 and Store64 use both), so the
// 64-bit ops need no feature; SSE2 (GO386=sse2, the default, requires it;
// GO386=softfloat does not) adds MFENCE, LFENCE and the MOVQ of an XMM
// register, which needs no EMMS.
var Spec = spec.Arch{
	GOARCH: "386",
	Variants: map[string][]spec.Variant{
		"pause":               {{Name: "pause", Why: "PAUSE (REP NOP: a NOP before the Pentium 4): the spin-loop hint the Go runtime's procyield uses"}},
		"cas32":               locked("LOCK CMPXCHGL"),
		"casuintptr":          locked("LOCK CMPXCHGL"),
		"fetchadd32":          locked("LOCK XADDL"),
		"fetchadduintptr":     locked("LOCK XADDL"),
		"swap32":              locked("XCHGL"),
		"swapuintptr":         locked("XCHGL"),
		"fetchor32":           locked("LOCK CMPXCHGL loop"),
		"fetchand32":          locked("LOCK CMPXCHGL loop"),
		"cas64":               locked("LOCK CMPXCHG8B"),
		"fetchadd64":          locked("LOCK CMPXCHG8B loop"),
		"swap64":              locked("LOCK CMPXCHG8B loop"),
		"fetchor64":           locked("LOCK CMPXCHG8B loop"),
		"fetchand64":          locked("LOCK CMPXCHG8B loop"),
		"loadacquire32":       plain("MOVL"),
		"loadacquireuintptr":  plain("MOVL"),
		"storerelease32":      plain("MOVL"),
		"storereleaseuintptr": plain("MOVL"),
		// An aligned 8-byte access is single-copy atomic from the
		// Pentium on (Intel SDM vol. 3A, 9.1.1), and x86-TSO makes a
		// plain load an acquire and a plain store a release.
		"loadacquire64": {
			{Name: "sse2", Requires: []string{dispatch.FeatureSSE2}, Brief: "MOVQ to XMM", Why: "MOVQ of an XMM register: one aligned 8-byte load, atomic from the Pentium on, and an acquire under x86-TSO"},
			{Name: "mmx", Brief: "MOVQ to MMX; EMMS", Why: "MOVQ of an MMX register, then EMMS (as the Go runtime's Load64): one aligned 8-byte load"},
		},
		"storerelease64": {
			{Name: "sse2", Requires: []string{dispatch.FeatureSSE2}, Brief: "MOVQ from XMM", Why: "MOVQ of an XMM register: one aligned 8-byte store, atomic from the Pentium on, and a release under x86-TSO"},
			{Name: "mmx", Brief: "MOVQ from MMX; EMMS", Why: "MOVQ of an MMX register, then EMMS: one aligned 8-byte store"},
		},
		"fence": {
			{Name: "lockor", Brief: "LOCK OR to the stack", Why: "LOCK ORL $0 on the top of the stack: a locked no-op, a full barrier, cheaper than MFENCE"},
			{Name: "mfence", Requires: []string{dispatch.FeatureSSE2}, Why: "MFENCE (SSE2): the architectural full fence"},
		},
		// CMPXCHG16B exists only in 64-bit mode, and the 128-bit ops run
		// all hardware or all portable: with no 128-bit CAS, the striped
		// lock for all three.
		"cas128":   {spec.Portable("hal's striped-lock Go fallback: CMPXCHG16B exists only in 64-bit mode")},
		"load128":  {spec.Portable("hal's striped-lock Go fallback: CMPXCHG16B exists only in 64-bit mode, and the 128-bit ops share the lock")},
		"store128": {spec.Portable("hal's striped-lock Go fallback: CMPXCHG16B exists only in 64-bit mode, and the 128-bit ops share the lock")},
		"cycles": {
			{Name: "rdtscp", Requires: []string{dispatch.FeatureRDTSCP}, Brief: "TSC", Why: "RDTSCP: waits for earlier instructions to execute before reading the TSC"},
			{Name: "lfence_rdtsc", Requires: []string{dispatch.FeatureSSE2}, Brief: "TSC", Why: "LFENCE; RDTSC: LFENCE (SSE2) keeps RDTSC from executing before earlier instructions"},
			{Name: "rdtsc", Brief: "TSC", Why: "RDTSC (Pentium), as the Go runtime's cputicks on 386: may execute before earlier instructions"},
		},
		"spinlock32": {{Name: "pause", Brief: "MOV test, PAUSE, LOCK CMPXCHG", Why: "MOVL test, PAUSE while held, LOCK CMPXCHGL 0→1 when free"}},
		// Linux keeps the CPU number where 32-bit code reads it as
		// amd64's does: IA32_TSC_AUX and the per-CPU GDT entry.
		"cpu": {
			{Name: "rdpid", Requires: []string{dispatch.FeatureRDPID, dispatch.FeatureTSCAux}, Why: "RDPID: reads IA32_TSC_AUX, where Linux keeps node<<12 | cpu; the low 12 bits are the CPU"},
			{Name: "rdtscp", Requires: []string{dispatch.FeatureRDTSCP, dispatch.FeatureTSCAux}, Why: "RDTSCP: the TSC, and IA32_TSC_AUX in ECX (low 12 bits: the CPU)"},
			{Name: "lsl", Requires: []string{dispatch.FeatureCPUNodeSeg}, Brief: "Linux's per-CPU GDT segment", Why: "LSL of selector 0x7b: the limit of Linux's per-CPU GDT entry (node<<12 | cpu), as the 32-bit vDSO's getcpu reads it"},
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "getcpu", Why: "INT $0x80 getcpu(2) (i386 number 318): a round trip into the kernel"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	// qemu-i386 (Debian's 7.2) cannot run Go's runtime ("morestack on
	// g0" at start-up), while an x86-64 Linux kernel with IA32 emulation,
	// as CI's, runs 386 binaries itself: no emulator, the tests run
	// natively, on the host's CPU. Debian's binutils-i686-linux-gnu checks
	// the disassembly.
	Emulator: spec.Emulator{Binutils: "binutils-i686-linux-gnu",
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/"}},
}

// locked is an op whose only variant is a locked instruction (or a loop
// of one): on x86 it is a full barrier, so the op is sequentially
// consistent.
func locked(ins string) []spec.Variant {
	return []spec.Variant{{Name: "lock", Brief: ins, Why: ins + ": a locked instruction is a full barrier, so the op is sequentially consistent"}}
}

// plain is an acquire load or release store of 32 bits: under x86-TSO a
// plain MOVL is both.
func plain(ins string) []spec.Variant {
	return []spec.Variant{{Name: "mov", Brief: ins, Why: ins + ": under x86-TSO a plain load is an acquire and a plain store a release"}}
}
