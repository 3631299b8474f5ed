package hal

import "github.com/gohal/gohal/internal/fencelight"

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
// FenceHeavy reaches every running thread (every variant but portable).
func setFenceLight(c Choice) {
	if c.Op != fenceHeavyOp {
		return
	}
	var reaches uint8
	if c.Variant != portableName {
		reaches = 1
	}
	fenceHeavyReaches = reaches
}

// fenceheavy_membarrier is FenceHeavy's membarrier variant: a full fence
// on the calling thread, then the membarrier(2) private expedited command,
// which makes every running thread of the process execute a full barrier.
// dispatch's probe registered the process for the command before the
// variant could be chosen (dispatch.FeatureMembarrier).
func fenceheavy_membarrier() {
	Fence()
	if err := membarrierExpedited(); err != nil {
		// Registered at init, so the kernel cannot refuse now: going
		// on would break the pair's promise.
		panic("hal: membarrier failed after registration: " + err.Error())
	}
}
