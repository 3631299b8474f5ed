package s390x

import (
	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// No variant requires a CPU feature: Go's minimum s390x CPU is the z13
// (Go 1.19 and later; the runtime refuses to start without the vector
// facility, which came with it), and every instruction used here is older.
// CS, CSG, CDSG, LPQ, STPQ, STCK and BCR are in the z/Architecture base,
// STCKF in the store-clock-fast facility (z9), LAA/LAAG, LAN/LANG and
// LAO/LAOG in the interlocked-access facility 1 (z196, facility bit 45),
// and BCR 14,0 is the fast-BCR-serialization facility (z196). So
// dispatch needs no s390x feature constant.
var (
	// The Go compiler emits CS/CSG for atomic.CompareAndSwap* (with the
	// result turned into a bool) and the same LOAD, CS, BNE loop for
	// atomic.Swap* (checked with go build -gcflags=-S, Go 1.26.8).
	cs = []spec.Variant{{Name: "cs", Intrinsic: true, Brief: "CS/CSG",
		Why: "CS/CSG (COMPARE AND SWAP): serializes before and after, so sequentially consistent; what the compiler emits"}}
	swap = []spec.Variant{{Name: "cs", Intrinsic: true, Brief: "CS/CSG loop",
		Why: "plain load, then CS/CSG until it succeeds: s390x has no swap instruction; what the compiler and the runtime's Xchg emit"}}
	// atomic.Add* compiles to LAA/LAAG with no fence: an interlocked
	// update, serialized like CS (S390X.rules: AtomicAdd32 => LAA).
	add = []spec.Variant{
		{Name: "laa", Intrinsic: true, Brief: "LAA/LAAG",
			Why: "LAA/LAAG (LOAD AND ADD, interlocked-access facility 1, z196+): one interlocked update returning the old value; what the compiler emits"},
		{Name: "cs", Brief: "CS/CSG loop",
			Why: "plain load, then ADD and CS/CSG until it succeeds, as the runtime's Xadd"},
	}
	// sync/atomic's Or*/And* are no intrinsics on s390x: they call the
	// runtime's Or32/And64, a CS loop. LAO/LAN return the old value too.
	or = []spec.Variant{
		{Name: "lao", Brief: "LAO/LAOG",
			Why: "LAO/LAOG (LOAD AND OR, interlocked-access facility 1, z196+): one interlocked update returning the old value"},
		{Name: "cs", Brief: "CS/CSG loop",
			Why: "plain load, then OR and CS/CSG until it succeeds, as the runtime's Or32/Or64 (what sync/atomic.OrUint32 calls)"},
	}
	and = []spec.Variant{
		{Name: "lan", Brief: "LAN/LANG",
			Why: "LAN/LANG (LOAD AND AND, interlocked-access facility 1, z196+): one interlocked update returning the old value"},
		{Name: "cs", Brief: "CS/CSG loop",
			Why: "plain load, then AND and CS/CSG until it succeeds, as the runtime's And32/And64 (what sync/atomic.AndUint32 calls)"},
	}
	// z/Architecture keeps loads in order with later loads and stores,
	// and stores in order with earlier loads and stores; only a store
	// followed by a load (of another word) may be reordered. So a plain
	// load is an acquire load (it is the compiler's atomic.Load*), and a
	// plain store a release store: Go's runtime StoreRel is one. The
	// compiler's atomic.Store* adds SYNC (BCR 14,0) after the store for
	// sequential consistency with later loads, which release does not ask.
	loadAcquire  = []spec.Variant{{Name: "mov", Intrinsic: true, Brief: "L/LG", Why: "plain L/LG: no later load or store passes a load on s390x; what the compiler emits for atomic.Load*"}}
	storeRelease = []spec.Variant{{Name: "mov", Plain: true, Brief: "ST/STG; bound as Go's plain store", Why: "plain ST/STG: no earlier load or store passes a store on s390x (Go's StoreRel); atomic.Store* adds BCR 14,0, which release does not need"}}
)

// Spec is s390x's part of the op spec.
var Spec = spec.Arch{
	GOARCH: "s390x",
	Variants: map[string][]spec.Variant{
		// s390x has no spin-loop hint in problem state: the Go runtime's
		// procyieldAsm is an empty function on s390x and Linux's
		// cpu_relax a compiler barrier. (NIAI, the access-intent hint
		// Linux's spinlocks use, qualifies the next instruction's
		// access, which from a function of its own is the return.)
		"pause": {{Name: "nop", Brief: "no spin hint exists: returns at once", Why: "no spin hint exists on s390x: returns at once, as the Go runtime's procyieldAsm; the call is the delay"}},
		"cas32": cs, "cas64": cs, "casuintptr": cs,
		"fetchadd32": add, "fetchadd64": add, "fetchadduintptr": add,
		"swap32": swap, "swap64": swap, "swapuintptr": swap,
		"fetchor32": or, "fetchor64": or,
		"fetchand32": and, "fetchand64": and,
		"loadacquire32": loadAcquire, "loadacquire64": loadAcquire, "loadacquireuintptr": loadAcquire,
		"storerelease32": storeRelease, "storerelease64": storeRelease, "storereleaseuintptr": storeRelease,
		"fence": {
			{Name: "bcr14", Brief: "BCR 14,0", Why: "BCR 14,0 (fast-BCR-serialization facility, z196+; Go's SYNC): orders every earlier load and store before every later one"},
			{Name: "bcr15", Brief: "BCR 15,0", Why: "BCR 15,0 (raw bytes; Go has no mnemonic): the serialization every z/Architecture CPU has, which the z196 made BCR 14,0 a faster form of"},
		},
		// The 128-bit ops: CDSG, LPQ and STPQ are in the z/Architecture
		// base, so no Go fallback is needed. Each needs a quadword-aligned
		// operand (a specification exception otherwise) and an even/odd
		// register pair whose even register holds the doubleword at the
		// lower address: lo, hi = addr[0], addr[1] as on every GOARCH.
		// LPQ and STPQ (pair quadword) are one kind of variant, "pq", as
		// amd64's VMOVDQA load and store are one: lab/suite's mixed
		// benchmark pairs load128 and store128 variants by name.
		"cas128": {{Name: "cdsg", Brief: "CDSG", Why: "CDSG (raw bytes): compare and swap of a quadword, serializing before and after"}},
		"load128": {
			{Name: "pq", Brief: "LPQ", Why: "LPQ (raw bytes): one block-concurrent 16-byte load that writes nothing, so readers share the line; loads are not reordered on s390x"},
			{Name: "cdsg", Brief: "CDSG of 0 with 0", Why: "CDSG of 0 with 0 (raw bytes): returns the value; it writes (0 over 0 when the word is 0), so it needs the line exclusively"},
		},
		"store128": {
			{Name: "pq", Brief: "STPQ; BCR 14,0", Why: "STPQ (raw bytes), then BCR 14,0: one block-concurrent 16-byte store, serialized as Go serializes atomic.Store*, so no later load passes it"},
			{Name: "cdsg", Brief: "CDSG loop", Why: "CDSG loop (raw bytes) from a first guess read with two plain loads: serializing"},
		},
		"cycles": {
			{Name: "stckf", Brief: "STCKF, the TOD clock", Why: "STCKF (store clock fast): the TOD clock without STCK's serialization; bit 51 ticks once per microsecond, so 4096 units per microsecond"},
			{Name: "stck", Brief: "STCK, serializing", Why: "STCK: the TOD clock, serializing before and after, as the Go runtime's cputicks (which also clears the top bit)"},
		},
		"spinlock32": {{Name: "cs", Brief: "L test, CS 0→1", Why: "plain L test, spinning without a hint while held (s390x has none), CS 0→1 when free"}},
		// Linux on s390x keeps the CPU number in the TOD programmable
		// field (its vDSO's getcpu reads it with STCKE), but qemu-user
		// leaves that field 0, so such a variant could not be run here.
		"cpu": {
			{Name: "syscall", Requires: []string{dispatch.FeatureLinux}, Brief: "SVC getcpu",
				Why: "SVC 0 getcpu(2) (number 311): a round trip into the kernel"},
			spec.Portable("getcpu through golang.org/x/sys/unix on Linux, 0 elsewhere"),
		},
	},
	Emulator: spec.Emulator{
		Binary: "qemu-s390x",
		// qemu 7.2's TCG cannot run the named z13 model: it lacks some
		// of the model's facilities (DFP, several crypto functions) and
		// refuses to start. The z13's static base model with the vector
		// facility on (which Go requires) and those facilities off is
		// the closest it runs (its commas are qemu's property syntax;
		// .ci/zarches separates models by ';'); max adds every facility
		// TCG has (it is also qemu-s390x's default model).
		CPUs:     []string{z13, "max"},
		Binutils: "binutils-s390x-linux-gnu",
	},
}

// z13 is the qemu-s390x -cpu argument of the z13 as qemu 7.2's TCG can
// run it: see Spec.Emulator.
const z13 = "z13-base,vx=on,klmd-sha-1=off,kimd-sha-1=off,km-tdea-192=off,km-tdea-128=off,km-dea=off," +
	"kmc-tdea-192=off,kmc-tdea-128=off,kmc-dea=off,kmac-tdea-192=off,kmac-tdea-128=off,kmac-dea=off," +
	"dateh2=off,dfppc=off,dfpzc=off,cmpsceh=off,pfpo=off,dfphp=off,dfp=off,emon=off,parseh=off," +
	"hfpue=off,hfpm=off,nonqks=off,csske=off,asnlxr=off,gen13ptff=off,tods=off"
