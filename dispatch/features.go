// Package dispatch detects the CPU's features once and chooses, for every
// gohal operation, the best implementation this CPU can run.
//
// The selection is pure: [Select] takes the features, the operations with
// their variants in order of preference, and an [Override] (what the GOHAL
// environment variable asks for, parsed once by [ParseOverride]), and
// returns one [Choice] per operation, each with the reason it was made.
// Beside each op's own choice it applies the one rule between ops: the ops
// of a [Group] (the 128-bit ops, which share their words) run all their
// portable variants or none. Package hal parses GOHAL and calls Select once
// at init, and sets its flags from the result; haltool.Force passes its (op,
// variant) pair as an Override, with nothing to parse; tests and tools call
// Select with made-up features to see what another CPU would get.
package dispatch

import (
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

// Feature names used in variant requirements. They are lower case and
// stable: they appear in GOHAL error messages and in halbench's JSON.
const (
	FeatureCX16    = "cx16"    // amd64: CMPXCHG16B
	FeatureRDTSCP  = "rdtscp"  // amd64: RDTSCP
	FeatureAtomics = "atomics" // arm64: LSE atomics (CASAL, LDADDAL, SWPAL, CASPAL)
	FeatureLRCPC   = "lrcpc"   // arm64: LDAPR (RCpc load-acquire)
	FeatureV6K     = "v6k"     // arm: ARMv6K's LDREXD/STREXD, LDREXB and YIELD (Linux's HWCAP_TLS)
	FeatureV7      = "v7"      // arm: ARMv7's DMB (a v7-only HWCAP: VFPv3, NEON, LPAE, IDIVA or ThumbEE)
	// FeatureV7Atomics (arm) says that Go's own 64-bit atomics
	// (sync/atomic's) are LDREXD/STREXD in this process, so hal's may
	// share a word with them: true in a GOARM=7 build. Below GOARM=7 the
	// runtime may take a lock instead (a plain LDRD/STRD under a spinlock,
	// on ARMv6 and on a v7 core without LPAE), and an LDREXD/STREXD loop
	// beside it could interleave with its read and write.
	FeatureV7Atomics = "v7atomics"
	FeatureSSE2      = "sse2" // 386: MFENCE and the 8-byte MOVQ of an XMM register

	// The CPU number in user mode (op cpu) needs the kernel's help, so
	// these are read from Linux's view of the CPU (/proc/cpuinfo), and
	// are false on every other GOOS.
	FeatureRDPID      = "rdpid"      // amd64 Linux: RDPID, listed by the kernel
	FeatureTSCAux     = "tscaux"     // amd64 Linux: the kernel keeps the CPU number in IA32_TSC_AUX (it lists rdtscp or rdpid)
	FeatureCPUNodeSeg = "cpunodeseg" // amd64 Linux: the vDSO's per-CPU GDT segment (selector 0x7b), read by LSL
	FeatureLinux      = "linux"      // any GOARCH: the kernel is Linux, so its system call numbers apply
	// riscv64 has no feature constants: its variants need only RV64GC,
	// which every riscv64 Go program already requires (see [Host]).

	// FeatureAVXAtomic (amd64) is AVX on a vendor whose manual promises
	// that a 16-byte-aligned VMOVDQA load or store is single-copy atomic:
	// Intel (SDM vol. 3A, "Guaranteed Atomic Operations") and AMD (APM
	// vol. 2, "Access Atomicity"). Detected as x/sys/cpu's X86.HasAVX
	// (CPUID.1:ECX.AVX, and the OS saves the YMM state: OSXSAVE and XCR0
	// bits 1-2) and a CPUID vendor string GenuineIntel or AuthenticAMD;
	// other vendors' AVX CPUs do not get it.
	FeatureAVXAtomic = "avxatomic"

	// The heavy side of the asymmetric fence pair (op fenceheavy) needs
	// the kernel to make every running thread of the process execute a
	// full barrier. Whether it will is found by a probe at detection,
	// not read from the CPU: Features.Probes says what the probe found.
	FeatureMembarrier = "membarrier" // Linux: membarrier(2) private expedited, queried and registered (probe_linux.go)
)

// FeatureNames lists every Feature constant: the names a variant of
// gohal's op spec may require (the generator checks against it). A new
// feature is a constant above, its detection in Host, and a line here.
var FeatureNames = []string{
	FeatureCX16, FeatureRDTSCP, FeatureAtomics, FeatureLRCPC, FeatureV6K, FeatureV7, FeatureV7Atomics, FeatureSSE2,
	FeatureAVXAtomic, FeatureRDPID, FeatureTSCAux, FeatureCPUNodeSeg, FeatureLinux,
	FeatureMembarrier,
}

// Features describes the CPU this process runs on, as far as gohal cares.
type Features struct {
	GOARCH     string          `json:"goarch"`
	Vendor     string          `json:"vendor"`
	Brand      string          `json:"brand"`
	Family     int             `json:"family"`
	Model      int             `json:"model"`
	Hypervisor bool            `json:"hypervisor"`
	CacheLine  int             `json:"cache_line"`
	Flags      map[string]bool `json:"flags"`

	// Probes holds, for each feature found by a run-time probe (a
	// system call) rather than read from the CPU, what the probe found:
	// what was granted, or the refusal with its errno. Select adds it to
	// a choice's reason.
	Probes map[string]string `json:"probes,omitempty"`
}

// Has reports whether the CPU has the named feature (one of the Feature
// constants). Unknown names report false.
func (f *Features) Has(name string) bool { return f.Flags[name] }

// probe returns what the probe of the named feature found, in
// parentheses after a space, or "" for a feature read from the CPU.
func (f *Features) probe(name string) string {
	if p := f.Probes[name]; p != "" {
		return " (" + p + ")"
	}
	return ""
}

// Names returns the features the CPU has, sorted.
func (f *Features) Names() []string {
	var out []string
	for k, v := range f.Flags {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

var (
	hostOnce sync.Once
	host     *Features
)

// Host returns the features of the CPU this process runs on, detected once
// from golang.org/x/sys/cpu and github.com/klauspost/cpuid/v2. Callers must
// not modify the result.
//
// Detected: on amd64 cx16, rdtscp and avxatomic, and on Linux rdpid,
// tscaux and cpunodeseg (for the CPU number); on every GOARCH linux when
// the kernel is Linux, and membarrier when the kernel grants the private
// expedited membarrier(2) command (queried, then this process
// registered for it: a side effect, once; Probes says what the probe
// found); on arm64
// atomics and lrcpc; on arm v6k, v7 and v7atomics; on 386 sse2; on riscv64 nothing, as no riscv64 variant needs more
// than the RV64GC base (the A extension's LR/SC and AMOs, the time CSR,
// and PAUSE, a hint that older cores run as a no-op fence); on loong64
// nothing either (LL/SC, AM*_DB, DBAR and RDTIME.D are base ISA); on s390x
// nothing, as every instruction its variants use is older than the z13,
// Go's minimum; on ppc64le and ppc64 nothing (larx/stcx., the syncs, MFTB and the
// priority hints are in Power ISA 2.07, the POWER8 minimum Go requires);
// on mips64, mips64le, mips and mipsle nothing (MIPS III has LL/SC, LLD/SCD
// and SYNC; MIPS32 LL/SC and SYNC).
func Host() *Features {
	hostOnce.Do(func() { host = detect() })
	return host
}

// goarm returns the GOARM level this program was built for, read from
// its build information ("7" or "7,softfloat"), or 0 where it has none.
func goarm() int {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return 0
	}
	for _, s := range bi.Settings {
		if s.Key == "GOARM" && s.Value != "" && s.Value[0] >= '5' && s.Value[0] <= '9' {
			return int(s.Value[0] - '0')
		}
	}
	return 0
}

func detect() *Features {
	c := &cpuid.CPU
	f := &Features{
		GOARCH:     runtime.GOARCH,
		Vendor:     strings.TrimSpace(c.VendorString),
		Brand:      strings.TrimSpace(c.BrandName),
		Family:     c.Family,
		Model:      c.Model,
		Hypervisor: c.Supports(cpuid.HYPERVISOR),
		CacheLine:  c.CacheLine,
		Flags:      map[string]bool{},
	}
	if f.Vendor == "" {
		f.Vendor = c.VendorID.String()
	}
	switch runtime.GOARCH {
	case "amd64", "386":
		// x/sys/cpu is what the Go runtime trusts; cpuid/v2 fills the
		// flags x/sys/cpu does not know.
		f.Flags[FeatureCX16] = cpu.X86.HasCX16
		f.Flags[FeatureRDTSCP] = c.Supports(cpuid.RDTSCP)
		f.Flags[FeatureAVXAtomic] = cpu.X86.HasAVX && (c.VendorID == cpuid.Intel || c.VendorID == cpuid.AMD)
		if runtime.GOARCH == "386" {
			// MFENCE and MOVQ to and from an XMM register are SSE2
			// (CPUID.1:EDX bit 26), which GO386=sse2 requires and
			// GO386=softfloat does not. LOCK CMPXCHG8B, hal's 64-bit
			// read-modify-writes, is older (Pentium) than any CPU Go
			// runs on, so it has no flag.
			f.Flags[FeatureSSE2] = cpu.X86.HasSSE2
		}
		if runtime.GOOS == "linux" {
			// Linux writes node<<12 | cpu to IA32_TSC_AUX on every CPU
			// when it uses RDTSCP or RDPID (setup_getcpu), and puts the
			// same value in the limit of GDT entry 15 (__CPUNODE_SEG)
			// for its vDSO's getcpu. A CPU that runs RDTSCP without
			// listing it in CPUID (some hypervisors) has TSC_AUX unset:
			// it returns the host's value, so the kernel's list is the
			// one to trust.
			k := linuxCPUFlags()
			f.Flags[FeatureRDPID] = k["rdpid"]
			// RDPID also needs the CPU to run it. On hardware and in a
			// VM the kernel's list derives from the CPUID its programs
			// see, but under qemu-user /proc/cpuinfo is the host's while
			// the instructions are the emulated CPU's: qemu 7.2's TCG
			// has no RDPID, and a host that lists it made every CPU
			// model raise SIGILL in CPU().
			if has, known := cpuidRDPID(); known && !has {
				f.Flags[FeatureRDPID] = false
			}
			f.Flags[FeatureTSCAux] = k["rdtscp"] || k["rdpid"]
			f.Flags[FeatureCPUNodeSeg] = true
		}
	case "arm64":
		// x/sys/cpu reads the kernel's HWCAP, which honours
		// GODEBUG=cpu.atomics=off and what an emulator advertises.
		f.Flags[FeatureAtomics] = cpu.ARM64.HasATOMICS
		f.Flags[FeatureLRCPC] = cpu.ARM64.HasLRCPC
	case "arm":
		// Linux lists no ARM architecture version among its HWCAPs, so
		// both are read from what a version brings. v6k: HWCAP_TLS, the
		// user read-only thread register TPIDRURO, which the kernel
		// lists from ARM1136 r1p0 on (the ARMv6K cores; it clears it on
		// ARM1136 r0) and qemu lists for its ARMv6K models exactly;
		// LDREXD/STREXD, LDREXB and the YIELD hint came with ARMv6K.
		// v7: any HWCAP that only an ARMv7 or later core has (VFPv3,
		// NEON, LPAE, the ARM-state divide, ThumbEE): every ARMv7-A core
		// Linux runs on has VFPv3 or NEON, and an ARMv8 core in AArch32
		// lists them too; a v7 core with none of them takes the v6
		// barrier (MCR p15 c7 c10 5), which ARMv7 keeps.
		a := cpu.ARM
		f.Flags[FeatureV6K] = a.HasTLS
		f.Flags[FeatureV7] = a.HasVFPv3 || a.HasVFPv3D16 || a.HasNEON || a.HasLPAE || a.HasIDIVA || a.HasTHUMBEE
		f.Flags[FeatureV7Atomics] = goarm() >= 7
	case "riscv64":
		// No flag: none of gohal's riscv64 variants needs one. LR/SC
		// and the AMOs are the A extension, part of the RV64G base Go
		// requires; RDTIME is Zicntr, in the RVA20U64 profile Go
		// targets; PAUSE (Zihintpause) is a FENCE hint that runs as a
		// no-op fence on cores without it. x/sys/cpu.RISCV64 has no
		// Zihintpause or Zacas field; a future Zacas (AMOCAS) variant
		// would read RISCV_HWPROBE_EXT_ZACAS with x/sys/unix's
		// RISCVHWProbe and add a Feature constant here.
	case "loong64":
		// No flag: none of gohal's loong64 variants needs one. LL/SC,
		// the AM*_DB atomics, DBAR and RDTIME.D are in the LoongArch64
		// base ISA Go requires. A future AMCAS_DB variant (LAMCAS,
		// LoongArch v1.1) would add a Feature constant here set from
		// x/sys/cpu's Loong64.HasLAMCAS (CPUCFG word 2 bit 28, which the
		// Go runtime's internal/cpu reads too); Debian's qemu 7.2 (la464)
		// reports it false, so no test here could run such a variant.
	case "s390x":
		// No flag: Go requires a z13 (the runtime exits without the
		// vector facility), and every instruction of gohal's s390x
		// variants is older: CS, CSG, CDSG, LPQ, STPQ, STCK and BCR are
		// z/Architecture base, STCKF the store-clock-fast facility (z9),
		// LAA/LAN/LAO and BCR 14,0 the interlocked-access and
		// fast-BCR-serialization facilities (z196). cpuid knows no
		// s390x cache: its line is 256 bytes (x/sys/cpu pads to that).
		f.CacheLine = 256
	case "ppc64le", "ppc64":
		// No flag: none of gohal's ppc64le or ppc64 variants (the same
		// bodies, gen/ppc64) needs one; Go requires POWER8 of both.
		// lwarx/stwcx., ldarx/stdcx., SYNC, LWSYNC, ISYNC, MFTB and the
		// or Rx,Rx,Rx priority and yield hints are all in Power ISA
		// 2.07 (POWER8), the minimum Go requires of ppc64le
		// (GOPPC64=power8). So are lq, stq and lqarx/stqcx., which a
		// future 128-bit variant would use without a flag:
		// gen/ppc64le/quad.go says why it is not in gohal yet. cpuid
		// knows no POWER cache: its line is 128 bytes on POWER8 and
		// POWER9 (x/sys/cpu pads to that).
		f.CacheLine = 128
	case "mips64", "mips64le", "mips", "mipsle":
		// No flag: LL/SC, LLD/SCD and SYNC are MIPS III, the minimum of
		// Go's mips64 port (mips and mipsle: LL/SC and SYNC, MIPS32),
		// and PAUSE runs as a no-op shift on cores before Release 2, so
		// no variant needs detection.
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "android" {
		f.Flags[FeatureLinux] = true
	}
	f.Probes = map[string]string{}
	for _, p := range osProbes {
		f.Flags[p.feature], f.Probes[p.feature] = p.run()
	}
	if f.CacheLine <= 0 {
		f.CacheLine = 64
	}
	return f
}
