package hal

import (
	"fmt"
	"sync/atomic"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/internal/binding"
)

// The asymmetric fence pair. Its one choice, op "fenceheavy", binds both
// sides: variant "membarrier" makes FenceLight a compiler barrier and
// FenceHeavy a membarrier(2) system call that runs a full barrier on every
// running thread of the process; variant "portable" makes both a full
// fence (Fence). It is chosen at init (membarrier where Linux grants it,
// with the refusal's errno in the reason otherwise), listed by Selected,
// and overridden by GOHAL=fenceheavy=<variant> or haltool.Force.

// fenceHeavyOp is the pair's op name in Selected, GOHAL and haltool.Force.
const fenceHeavyOp = "fenceheavy"

// fenceMembarrier is 1 while the membarrier variant is chosen. FenceLight
// reads it; it changes only at init and under haltool.Force, when no
// goroutine may be using the pair.
var fenceMembarrier uint8

// fenceHeavyChoice is the pair's entry in Selected.
var fenceHeavyChoice Choice

// FenceLight is the cheap side of an asymmetric fence pair.
//
// With FenceHeavy on another thread it orders as Fence would: either every
// access before FenceLight is visible to the accesses after that thread's
// FenceHeavy, or every access after FenceHeavy's is visible to the
// accesses after FenceLight. Under the membarrier variant it is a compiler
// barrier (a flag test whose taken branch calls Fence keeps the compiler
// from moving accesses across it), since FenceHeavy then makes every
// running thread execute a full barrier. In race and purego builds and
// under the portable variant it is Fence.
func FenceLight() {
	if raceBuild || puregoBuild || fenceMembarrier == 0 {
		Fence()
	}
}

// FenceHeavy is the expensive side of an asymmetric fence pair.
//
// Under the membarrier variant it is a full fence on the calling thread
// and the membarrier(2) private expedited command, which makes every
// running thread of the process execute a full barrier (about two
// microseconds); under the portable variant it is Fence.
func FenceHeavy() {
	Fence()
	if fenceMembarrier != 0 {
		if err := membarrierExpedited(); err != nil {
			// Registered at init, so the kernel cannot refuse now:
			// going on would break the pair's promise.
			panic("hal: membarrier failed after registration: " + err.Error())
		}
	}
}

// fenceHeavyVariants are the pair's variants in order of preference.
var fenceHeavyVariants = []string{"membarrier", portableName}

// chooseFenceHeavy picks the pair's variant: the override's, if it names
// the op, else membarrier when the kernel grants it.
func chooseFenceHeavy(override dispatch.Override) (Choice, error) {
	want, forced := override.Lookup(fenceHeavyOp)
	if forced && want != "membarrier" && want != portableName {
		return Choice{}, &dispatch.OverrideError{Op: fenceHeavyOp, Variant: want,
			Msg: fmt.Sprintf("op %q has no variant %q (variants: membarrier, portable)", fenceHeavyOp, want)}
	}
	if forced && want == portableName {
		return Choice{Op: fenceHeavyOp, Variant: portableName, Index: 1,
			Reason: fmt.Sprintf("override %s=%s=%s", dispatch.EnvVar, fenceHeavyOp, want)}, nil
	}
	if raceBuild || puregoBuild || bindingOf("fence") == binding.Portable {
		why := "portable build: FenceLight must be a full fence the race detector and weak arches see"
		if forced {
			return Choice{}, &dispatch.OverrideError{Op: fenceHeavyOp, Variant: want,
				Msg: fmt.Sprintf("op %q variant %q cannot be chosen in this %s", fenceHeavyOp, want, why)}
		}
		return Choice{Op: fenceHeavyOp, Variant: portableName, Index: 1, Reason: why}, nil
	}
	if err := membarrierRegister(); err != nil {
		if forced {
			return Choice{}, &dispatch.OverrideError{Op: fenceHeavyOp, Variant: want,
				Msg: fmt.Sprintf("op %q variant %q cannot be chosen: %v", fenceHeavyOp, want, err)}
		}
		return Choice{Op: fenceHeavyOp, Variant: portableName, Index: 1,
			Reason: "fallback: " + err.Error()}, nil
	}
	reason := "preferred: membarrier private expedited registered"
	if forced {
		reason = fmt.Sprintf("override %s=%s=%s", dispatch.EnvVar, fenceHeavyOp, want)
	}
	return Choice{Op: fenceHeavyOp, Variant: "membarrier", Index: 0, Reason: reason}, nil
}

// applyFenceHeavy makes c the pair's live choice.
func applyFenceHeavy(c Choice) {
	var m uint8
	if c.Variant == "membarrier" {
		m = 1
	}
	fenceMembarrier = m
	fenceHeavyChoice = c
	atomic.AddUint64(&fenceGen, 1) // a full fence, published after the flag
}

// fenceGen counts the pair's choices; its RMW orders the flag's change.
var fenceGen uint64

// withoutFenceHeavy returns the override without the pair's op, which
// dispatch does not know.
func withoutFenceHeavy(o dispatch.Override) dispatch.Override {
	var out dispatch.Override
	for _, p := range o {
		if p.Op != fenceHeavyOp {
			out = append(out, p)
		}
	}
	return out
}

// forceFenceHeavy is force for the pair.
func forceFenceHeavy(variant string) (func(), error) {
	c, err := chooseFenceHeavy(dispatch.Override{{Op: fenceHeavyOp, Variant: variant}})
	if err != nil {
		return nil, err
	}
	prev := fenceHeavyChoice
	applyFenceHeavy(c)
	return func() { applyFenceHeavy(prev) }, nil
}
