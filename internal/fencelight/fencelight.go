// Package fencelight lets gohal's assembly outside hal test the byte that
// hal.FenceLight tests.
//
// The Go assembler cannot name a symbol of a package whose import path
// has a dot, so assembly in another gohal package cannot read hal's byte
// by name; hal publishes its address here instead, and such a package
// copies it into a variable of its own (percpu's pinless read path).
package fencelight

// Reaches points to the byte hal.FenceLight tests: nonzero while the
// chosen variant of hal's fenceheavy makes every running thread of the
// process execute a full barrier, so that a store, a compiler barrier and
// a load on one thread pair with a store, hal.FenceHeavy and a load on
// another. hal sets the pointer in its init, so it is set before any
// package that imports hal initializes. The byte itself changes at init
// and under haltool.Force, when no goroutine may be using the pair, and
// once more, to 0 for good, if the kernel refuses membarrier later: hal
// then makes every CPU that runs the process execute a full barrier
// before the heavy fence returns, so a reader that tested it at 1 is still
// covered, provided it tested it after the store the fence orders (as
// hal.FenceLight does): a reader whose test came only before its store
// could have that CPU barrier fall between the two, and its store would
// go unfenced beside the later, plain, heavy fences. A reader may test
// before the store too (to choose a locked store), and then again after.
var Reaches *uint8
