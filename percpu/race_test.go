//go:build race

package percpu

// raceBuild reports whether the race detector is on: tests that run
// millions of operations run a tenth of them there.
const raceBuild = true
