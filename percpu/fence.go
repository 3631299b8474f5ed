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
// so a lock that is biased stays correct.
var asymmetric = asymmetricFencePair()

func asymmetricFencePair() bool {
	v := waitpolicy.Variant(fencePairOp)
	return v != "" && v != "portable"
}

// fencePairOp is the name hal.Selected gives the asymmetric fence pair.
const fencePairOp = "fenceheavy"
