// Package stress holds gohal's cross-package stress tests.
//
// They run the kit's locks, counters and refcounts under oversubscription
// (many more goroutines than CPUs), preemption, runtime.Gosched and a
// garbage collector running all the time. It has no API; its tests are the
// point.
package stress
