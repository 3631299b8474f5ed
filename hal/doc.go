// Package hal provides atomic operations, spin-wait hints, fences and a
// cycle counter in assembly chosen for the CPU at init.
//
// Most code wants the typed values [Int32], [Uint32], [Int64], [Uint64] and
// [Uintptr] (zero value 0; Load, Store, LoadAcquire, StoreRelease, Add,
// FetchAdd, Swap, CompareAndSwap, And, Or), and [Uint128], a self-aligning
// 128-bit word. The functions work on plain words: every non-pointer
// function of sync/atomic is here with its name and meaning, so replacing
// "atomic." with "hal." compiles. CompareAndSwap*, FetchAdd* and Swap* are
// sequentially consistent, like sync/atomic; LoadAcquire* and StoreRelease*
// are only acquire and release. No assembly here stores a Go pointer (it
// would skip the write barrier): pointers stay with sync/atomic.
//
// # Choosing an implementation
//
// Each op has variants per architecture; at init the first one this CPU
// can run is chosen, and [Selected] says which and why. GOHAL overrides it
// (GOHAL=fetchadd64=llsc,pause=yield); a mistake makes init print one line
// naming GOHAL and exit with status 2, never an illegal instruction. The
// variants, and how each exported function reaches its own, are listed in
// the module's docs/variants.md and gen/README.md.
// [github.com/gohal/gohal/hal/direct] exports each variant on its own;
// [github.com/gohal/gohal/hal/haltool] is for tests, benchmarks and tools
// (forcing a variant in a running process, listing them, the dispatch
// table), and a program that only calls the ops does not need it.
//
// # Static builds
//
// With the gohal_static build tag every variant is chosen at compile time,
// from the level the program is built for (GOAMD64, GOARM64, ...): the first
// assembly variant whose features the level guarantees, with no flag read
// on any call. [Selected] reports "static build (gohal_static, <level>)";
// GOHAL and haltool.Force may name only the compiled-in variants.
//
// # Portable fallback
//
// On architectures without a backend, with the purego build tag, and under
// -race, every op is Go over sync/atomic (so the race detector sees it),
// Pause is runtime.Gosched and the 128-bit ops take striped locks.
//
// # Generated files
//
// The files named z* and asm_<arch>.s are written by the generator
// (go generate ./hal/) and never edited by hand; gen/README.md lists them.
package hal
