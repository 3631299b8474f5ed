// Package refimpl holds the reference counts that exist only to be
// measured against refcount.Count, kept out of refcount's API:
//
//	            sync/atomic, inlined   hal call
//	checked     refcount.Count         CountHal
//	unchecked   Plain                  PlainHal
//
// The kit's benchmarks (lab/suite, run by refcount's BenchmarkRefcount
// and by halbench) compare the four, as the Linux kernel did when it
// weighed checked refcount_t against plain atomic_t; refcount's tests run
// every one of them through the same checks. The saturation logic is
// refcount's: CountHal has refcount name and report its events.
package refimpl
