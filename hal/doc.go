// Package hal provides atomic operations, spin-wait hints, fences and a
// cycle counter in assembly chosen for the CPU at init.
//
// It has compare-and-swap, fetch-add and swap, acquire/release loads and
// stores, full fences, a self-aligning 128-bit word (load, store, swap,
// CAS), a cycle counter and a spin-lock acquire loop (test, pause,
// compare-and-swap in one call), each implemented per architecture in
// generated assembly and chosen once, at init, from the features of the CPU
// the program runs on.
//
// Most code wants the typed values: [Int32], [Uint32], [Int64], [Uint64]
// and [Uintptr], whose zero value is 0 and whose methods (Load, Store,
// LoadAcquire, StoreRelease, Add, FetchAdd, Swap, CompareAndSwap, And, Or)
// are this package's ops on the value, each inlined to the op's exported
// function:
//
//	var hits hal.Uint64
//	hits.Add(1)
//	if hits.LoadAcquire() > limit { ... }
//
// The functions below work on plain words. Names follow sync/atomic where
// the semantics match, and every non-pointer function of sync/atomic is
// here with its name, signature and meaning (LoadInt64, AddUint32
// returning the new value, AndUintptr, …), so replacing "atomic." with
// "hal." compiles; the pointer forms stay sync/atomic's. CompareAndSwap*,
// FetchAdd* and Swap* are sequentially consistent, like sync/atomic.
// LoadAcquire* and StoreRelease* are only acquire and release: weaker (and
// on some CPUs cheaper) than sync/atomic's Load and Store.
//
// # Choosing an implementation
//
// At init the package asks [github.com/gohal/gohal/dispatch] for the best
// variant of every op; [Selected] says what was chosen and why. How an
// exported function reaches the chosen variant (its binding) is decided by
// the generator from the op spec, by what BenchmarkDispatch at the module
// root measured: an op whose only variant is exactly the compiler's
// sync/atomic intrinsic is that intrinsic, inlined into the caller; an op
// with several variants reads a one-byte flag set at init and goes to the
// chosen one; any other op is its one variant. Package
// [github.com/gohal/gohal/hal/direct] exports every variant's assembly on
// its own, for callers that choose for themselves.
//
// The environment variable GOHAL overrides the choice, in the form
// GOHAL=fetchadd64=llsc,pause=yield. An unknown op or variant, malformed
// syntax, or a variant this CPU cannot run makes the program print one line
// naming GOHAL, the op, the variant and the missing feature to standard
// error and exit with status 2 during init: never an illegal instruction.
// The 128-bit ops (load128, store128, cas128) share their words, so they
// run all hardware variants or all the portable one: GOHAL naming the
// portable variant of one takes the others along, and naming a hardware
// variant for one while another is portable is such an error.
//
// # Static builds
//
// Built with the gohal_static tag (go build -tags gohal_static), the
// package chooses every variant at compile time instead, from the
// compile-time level the program is built for (GOAMD64, GOARM64, ...; a
// GOARCH without levels has one): the first assembly variant, in order of
// preference, whose features the level guarantees (for example LSE from
// arm64.v8.1, CMPXCHG16B from amd64.v2; RDTSCP is in no level, so amd64
// reads the TSC with LFENCE;RDTSC). No flag is read, and
// where the chosen variant is a sync/atomic intrinsic (every arm64
// read-modify-write at arm64.v8.1) the call is the inlined intrinsic.
// [Selected] reports the reason "static build (gohal_static, <level>)".
// GOHAL and [Force] may name only the compiled-in variants; anything else
// makes init exit with status 2, as does a CPU that lacks a feature a
// compiled-in variant needs and the level does not guarantee (cas128 on
// amd64.v1 without CMPXCHG16B: a static build never falls back to the
// striped-lock Go variant, which only an op without any hardware variant
// on the GOARCH compiles in). A CPU below the level itself never gets
// that far, gohal or not: on amd64 the Go runtime refuses to start ("This
// program can only be run on AMD64 processors with v2 microarchitecture
// support"); on arm64 the runtime, compiled for the same level, uses LSE
// itself, and an arm64.v8.1 program on an ARMv8.0 core dies of SIGILL
// before any package initialises.
//
// # Portable fallback
//
// On architectures without a backend, with the purego build tag, and in
// race-detector builds, every op is implemented in Go over sync/atomic (so the
// race detector sees every access); Pause yields with runtime.Gosched and
// the 128-bit ops use striped locks. [Selected] then reports the variant
// "portable".
//
// # Pointers
//
// No assembly here ever stores a Go pointer: it would bypass the garbage
// collector's write barrier. Pointer-typed CAS, swap and store stay in
// sync/atomic, and [Uint128] holds integers only.
//
// # Generated files
//
// Every file of this package whose name starts with z, and asm_<arch>.s, is
// written by gohal's generator (the module github.com/gohal/gohal/gen, run
// by go generate ./hal/) from its op spec (package
// github.com/gohal/gohal/gen/spec, with each GOARCH's part in its backend
// package gen/<arch>) and, for assembly, the GOARCH's backend;
// so are the z files of hal/direct and the lab's flag probes (measurement,
// not API). Each starts with a "Code generated" line; every other file, the
// assembly of intrinsic_arm64.s included, is written by hand.
//
//	file                                holds                                          from
//	asm_<arch>.s                        the entry of each op not bound inline          spec, backend
//	zapi_<arch>.go                      the exported functions, guards, entry decls    spec
//	zasm_<arch>.go                      the flag bytes, the variants' rows (archOps)   spec
//	zstatic_<arch>.go                   the exported functions of gohal_static builds  spec
//	ztable.go                           DispatchTable, row<Op>, portableOps            spec
//	zportable.go                        the portable build (purego, race, no backend)  spec, backend list
//	zops_test.go                        the op lists hal's tests loop over             spec
//	zdirect128_<arch>_test.go           hal/direct's 128-bit functions, for tests      spec
//	zdirect128_other_test.go            the same, empty, for every other build         backend list
//	direct/zdirect_<arch>.s             each variant's own function                    spec, backend
//	direct/zdirect_<arch>.go            their declarations                             spec
//	direct/zstatic_<level>_<arch>.go    Static<Op>: what a level compiles in           spec (Levels)
//
// # Tooling
//
// These names are for tools (gohal's benchmarks, halbench, tests): a
// program that only uses the operations can skip them.
//
//   - [Force] switches an op's variant in a running process, for tests and
//     benchmarks that compare variants; GOHAL is the way for a program.
//   - [Ops], [Variants] and [Runnable] list the ops of this build, their
//     variants, and whether this CPU can run one.
//   - [Binding] and [Inlined] say how an op's exported function reaches
//     its variant (inline, guarded, flag, single, static, portable).
//   - [Table] returns the [DispatchTable]: each op's choice as an [Entry]
//     holding a func value, for callers that store operations in data;
//     calling through it is an indirect call and, into assembly, an ABI
//     wrapper.
package hal
