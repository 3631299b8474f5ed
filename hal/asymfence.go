package hal

import (
	"runtime"
	"sync/atomic"

	"github.com/gohal/gohal/internal/fencelight"
)

// The asymmetric fence pair: FenceHeavy is op "fenceheavy" of the spec,
// generated like every op (its variants are Go, the same on every
// GOARCH: gen/spec); FenceLight, its other side, is here, so that it
// inlines. Both follow the op's one choice, made at init by dispatch
// (membarrier where Linux grants it, else portable, with the refusal's
// errno in the reason), listed by Selected, and overridden by
// GOHAL=fenceheavy=<variant> or haltool.Force.

// fenceHeavyOp is the pair's op name in Selected, GOHAL and haltool.Force.
const fenceHeavyOp = "fenceheavy"

// fenceHeavyReaches is 1 while the chosen fenceheavy variant makes every
// running thread of the process execute a full barrier, so that
// FenceLight need not fence, and 0 while it is portable. apply sets it
// (setFenceLight) at init and under haltool.Force, when no goroutine may be using
// the pair; until then it is 0, which is correct under every variant.
// degrade sets it to 0 for good while goroutines use the pair, and makes
// that safe itself.
var fenceHeavyReaches uint8

// init publishes the byte's address to gohal's assembly outside hal
// (internal/fencelight).
func init() { fencelight.Reaches = &fenceHeavyReaches }

// FenceLight is the cheap side of an asymmetric fence pair, whose
// expensive side is FenceHeavy.
//
// With FenceHeavy on another thread it orders as two Fences would: after
// a store then FenceLight then a load on one thread, and a store then
// FenceHeavy then a load on another, at least one of the two loads sees
// the other thread's store. Where FenceHeavy makes every running thread
// execute a full barrier (the membarrier variant of op fenceheavy),
// FenceLight is a compiler barrier: inlined, a test of a byte whose taken
// branch calls Fence, which keeps the compiler from moving accesses
// across it. Under the portable variant, and in race and purego builds,
// it is Fence.
func FenceLight() {
	if raceBuild || puregoBuild || fenceHeavyReaches == 0 {
		Fence()
	}
}

// setFenceLight sets the byte FenceLight tests from c, when c is the
// pair's choice: FenceLight must fence unless the variant is one whose
// FenceHeavy reaches every running thread (every variant but portable),
// and always once the pair has degraded (degrade).
func setFenceLight(c Choice) {
	if c.Op != fenceHeavyOp {
		return
	}
	var reaches uint8
	if c.Variant != portableName && degradedReason.Load() == nil {
		reaches = 1
	}
	fenceHeavyReaches = reaches
}

// fenceheavy_membarrier is FenceHeavy's membarrier variant: a full fence
// on the calling thread, then the membarrier(2) private expedited command,
// which makes every running thread of the process execute a full barrier.
// dispatch's probe registered the process for the command before the
// variant could be chosen (dispatch.FeatureMembarrier). If the kernel
// refuses the command later (a seccomp filter installed after init, with
// any errno), it degrades the pair for good (degrade) instead; once
// degraded it is Fence.
func fenceheavy_membarrier() {
	Fence()
	if degradedReason.Load() != nil {
		return
	}
	if err := membarrierExpedited(); err != nil {
		degrade(err)
	}
}

// The process registers for membarrier at init (dispatch's probe), not
// at the first FenceHeavy, though most programs never call it. Until the
// registration FenceLight's byte must be 0 (a reader that skipped its
// fence must be covered by every later FenceHeavy), so every biased
// reader would pay a full fence until some writer's heavy fence
// registered, and a lock that is only ever read, which is what the bias
// is for, would pay it for good. Registering from the reader's side
// instead would put a system call, and one more ordering step, on the
// read path; the saving is two system calls once at init, and the query
// is needed at init anyway, to choose the variant that Selected reports.

// degradedReason is nil until a heavy fence finds membarrier refused after
// init; then, for good, the reason that Selected gives for the pair's
// portable choice. It is stored only after the degradation's heavy fence
// (degrade), so a FenceHeavy that loads it non-nil may be a plain Fence.
var degradedReason atomic.Pointer[string]

// degrade turns the pair into the portable one for good, after the kernel
// refused membarrier with err, and makes the heavy fence the caller asked
// for in another way. It never panics; it waits for the other CPUs (the
// sweep's migrations), and parks only in the last resort below.
//
// The transition is the hard part: readers that tested the byte while it
// was 1 ran FenceLight as a compiler barrier, and their stores may still
// sit in their CPUs' store buffers; the heavy fence that failed, and every
// one that fails beside it, must still cover them. So degrade first sets
// the byte to 0 (every FenceLight that tests it from then on fences), then
// makes every CPU the process runs on execute a full barrier without
// membarrier: sweepCPUs, which runs this thread on each CPU in turn
// (sound on every architecture; see its comment). That is a heavy fence
// for this caller, and after it every thread sees the byte at 0, so the
// later heavy fences may be plain: only then does it publish the reason.
// Callers that fail at the same time each sweep, each for itself. A
// reader must test the byte after its store (FenceLight does; percpu's
// assembly tests it before and again after): the sweep's barrier on its
// CPU may fall anywhere in its code, and only a test after the store
// catches a barrier that falls before the store.
//
// Where sched_setaffinity is refused too, it stops the world instead
// (runtime.ReadMemStats): every P must then reach the scheduler, through
// the runtime's locks (a release by each, acquired by this thread), and
// the runtime waits for a goroutine that has disabled preemption or runs
// assembly (percpu's pinned and pinless readers) to leave that section, so
// each reader's store before it is visible here and each load after it
// sees the byte at 0 (checked in Go 1.26 and 1.27: ReadMemStats calls
// stopTheWorld). It is the last resort, not the first, because stopping
// the world from a goroutine that has disabled preemption is a fatal
// error of the runtime, and a sweep is not. The mprotect trick (a TLB
// shootdown interrupts every CPU that runs the process: folly's
// AsymmetricThreadFence) is not used: arm64 invalidates TLBs by broadcast
// instructions, with no interrupt, so it orders nothing there.
func degrade(err error) {
	fenceHeavyReaches = 0
	Fence() // the byte's store, before any CPU's barrier below
	how, serr := sweepCPUs()
	if serr != nil {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		how = "stopped the world (" + serr.Error() + ")"
	}
	reason := "fallback: membarrier refused after init: " + errnoText(err) +
		"; degraded for good to portable, FenceLight fences (the transition's heavy fence " + how + ")"
	degradedReason.CompareAndSwap(nil, &reason)
}
