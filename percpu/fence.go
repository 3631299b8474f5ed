package percpu

import "github.com/gohal/gohal/internal/waitpolicy"

// RWMutex's readers and writers order their flag and count accesses with
// hal's asymmetric fence pair: hal.FenceLight on the readers' path and
// hal.FenceHeavy on the revoking writer's, such that for a reader's store,
// FenceLight, load and a writer's store, FenceHeavy, load, at least one of
// the loads sees the other side's store.

// asymmetric reports whether hal's pair runs a variant whose heavy side
// reaches every running thread (FenceLight then a compiler barrier), read
// once at init from hal.Selected. Only then does an RWMutex bias toward
// readers: with both sides full fences a biased reader would pay a fence
// on top of its per-P count, which the central count's locked add already
// is. The value is fixed for the process; if the pair is forced to another
// variant later, both sides still pair (a full fence pairs with either),
// so a lock that is biased stays correct. Code that decides to bias also
// asks heavyReaches, which follows such a change.
var asymmetric = asymmetricFencePair()

// heavyReaches reports whether hal's FenceLight is, at this moment, only a
// compiler barrier (its byte, internal/fencelight). The byte goes to 0
// for good when the kernel refuses membarrier after init (hal's degrade),
// and while haltool.Force runs the portable pair: a biased reader would
// then pay a fence as well as its count, so no lock biases or spreads
// from its lane for the bias's sake. A stale 1 read here is harmless:
// both sides still pair, and readers test the byte again themselves.
func heavyReaches() bool { return halFenceLight == nil || *halFenceLight != 0 }

func asymmetricFencePair() bool {
	v := waitpolicy.Variant(fencePairOp)
	return v != "" && v != "portable"
}

// fencePairOp is the name hal.Selected gives the asymmetric fence pair.
const fencePairOp = "fenceheavy"
