// Package gohal is the root of the gohal module: the hardware layer for Go
// that sync/atomic does not give.
//
// The module has spin-wait hints, compare-and-swap, fetch-add and swap in
// per-architecture generated assembly, a 128-bit CAS, acquire/release
// orderings, full fences and a cycle counter. This package has no API of
// its own; it holds the module's root benchmarks.
//
// The library's packages:
//
//   - [github.com/gohal/gohal/hal]: the ops, each with its variants (LSE or
//     LL/SC on arm64, LOCK OR or MFENCE for a fence on amd64, ...), the best
//     one for this CPU chosen at init, or at compile time with the
//     gohal_static build tag;
//   - [github.com/gohal/gohal/hal/direct]: every variant's assembly on its
//     own, for callers who choose for themselves;
//   - [github.com/gohal/gohal/hal/haltool]: hal's tooling, for tests and
//     benchmarks (your own too): forcing a variant in a running process,
//     listing the variants, how each op is bound, the dispatch table;
//   - [github.com/gohal/gohal/dispatch]: CPU features and the choice;
//   - [github.com/gohal/gohal/spin]: spin locks, each a sync.Locker;
//   - [github.com/gohal/gohal/counter]: contended counters, LongAdder and
//     others;
//   - [github.com/gohal/gohal/percpu]: per-P data: pinning, a counter and
//     an object cache;
//   - [github.com/gohal/gohal/refcount]: saturating reference counts, as
//     Linux's refcount_t.
//
// Beside them, internal/ holds library code only; cmd/halbench measures on
// your machine what every choice costs, and lab/ holds the measurement
// code halbench and the benchmarks share (the suite, the flag probes,
// statistics, the peers module), which no library package imports.
//
// # What dispatch costs
//
// The root benchmarks answer the question the module exists for: when a
// faster instruction is chosen at run time, does the indirection eat the
// gain? BenchmarkDispatch measures one uncontended op in every binding
// mode (op=fetchadd64, cas64, swap64, pause, loadacquire64, cas128, cycles;
// mode=api, inline, direct, flag, table, closure, static, generic: see
// lab/suite's Mode constants), and BenchmarkContended the ops that
// share a word on 1, 2, 4 and 8 goroutines behind a start barrier. Each
// reports cycles/op (hal.Cycles ticks, whose rate is hal.CycleFrequency)
// beside ns/op, and allocs/op, which must be 0. The bodies live in
// lab/suite, so halbench and go test measure the same code:
//
//	go test -run '^$' -bench . -count 10 . > bind.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /mode bind.txt
//
// "go run ./cmd/halbench results" writes the numbers, and the verdict,
// for the machine it runs on.
package gohal
