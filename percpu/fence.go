package percpu

// RWMutex's asymmetric fence pair, after folly's AsymmetricThreadFence:
// fenceLight on the readers' path and fenceHeavy on the revoking writer's,
// such that for a reader's store, fenceLight, load and the writer's store,
// fenceHeavy, load, at least one of the loads sees the other side's store.
//
// Where the heavy side can make every running thread of the process
// execute a full barrier (Linux membarrier, fence_linux.go), asymmetric is
// true and fenceLight only has to keep the compiler from moving the
// reader's load above its store: the gc compiler keeps every memory
// operation on one chain and never moves an atomic load (the reader's
// load of the state word) above an earlier store, so fenceLight is empty.
// Elsewhere, and in race builds (the race detector cannot see a
// membarrier), asymmetric is false, both sides are full fences and
// RWMutex never biases toward readers.
//
// This is percpu's own until hal has the pair as an op of its own
// (issue 30, item 1).

// asymmetricWhy says why asymmetric has its value, for tests and tools.
var asymmetricWhy string
