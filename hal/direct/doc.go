// Package direct exports every variant of every gohal op as its own
// assembly function, with no dispatch.
//
// direct.FetchAddUint64Lse is fetchadd64's LSE variant and nothing else.
// It is the layer below package
// hal, which chooses among these variants at init (or at compile time in a
// gohal_static build) and whose dispatch table holds them as func values.
//
// A call from Go to one of these functions goes straight to the assembly
// (ABI0), with no wrapper and no flag test; the same function used as a
// func value goes through the ABI wrapper the Go toolchain puts in front of
// assembly. Nothing here checks the CPU: calling a variant whose features
// the CPU lacks (haltool.Runnable says which) raises SIGILL. Use package hal
// unless you are measuring, or have checked the features yourself.
//
// The 128-bit functions agree with each other and with hal's hardware
// 128-bit variants: each is one single-copy-atomic 16-byte access
// (CMPXCHG16B, VMOVDQA with AVX; CASPAL, LDAXP/STLXP). They do not agree
// with hal's portable 128-bit variants (every -race build, GOHAL naming a
// portable 128-bit variant, a CPU without cx16), which write the two
// halves under a striped lock that no function here takes: a direct load
// would see half of a portable store. Making them agree would take the
// lock here (the portable variant itself) or the 128-bit instructions
// there (which the race detector cannot see, and the CPU may lack), so
// hal.Uint128.Addr panics while a portable 128-bit variant runs, naming it
// and why, instead of handing out a word the two would share. A word of
// your own (16-byte aligned) used only with this package is always safe.
//
// # Exports per GOARCH
//
// What the package exports differs per GOARCH, by design: each function is
// one architecture's instruction sequence, named by it (FetchAddUint64Lse
// exists on arm64 only, FetchAddUint64Lock on amd64 only), so the set is
// the GOARCH's variants in docs/variants.md, and Static<Op> exists only
// for an op with an assembly variant there (not the 128-bit ops on
// riscv64, ppc64le and loong64, whose only variant is hal's Go fallback).
// With the purego tag, and on a GOARCH without a backend, there is nothing
// to export. Making the set uniform would mean
// functions that cannot run, or names that lie about the instruction;
// code that names a variant sits behind that GOARCH's build constraint.
//
// Besides the variants the package has Static<Op>: the op with the
// variant a gohal_static build of hal compiles in, chosen from the
// GOAMD64/GOARM64 level the program is built for (StaticLevel,
// StaticVariant). Where that variant is exactly a sync/atomic intrinsic,
// it is the inlined intrinsic. (The flag probes that measure what hal's
// one-byte flag test costs are not API: they live in gohal's lab.)
//
// The z* files are generated from the op spec by gohal's generator (the
// module github.com/gohal/gohal/gen, run by go generate ./hal/); this
// comment and align.go (the misaligned-word panic) are hand-written. With
// the purego build tag, and
// on architectures without a backend, the package is empty.
package direct
