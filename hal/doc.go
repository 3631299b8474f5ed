// Package hal is gohal's hardware layer: spin-wait hints, compare-and-swap,
// fetch-add and swap, acquire/release loads and stores, full fences, a
// self-aligning 128-bit CAS and a cycle counter, each implemented per
// architecture in generated assembly and chosen once, at init, from the
// features of the CPU the program runs on.
//
// Names follow sync/atomic where the semantics match. CompareAndSwap*,
// FetchAdd* and Swap* are sequentially consistent, like sync/atomic.
// LoadAcquire* and StoreRelease* are only acquire and release: weaker (and
// on some CPUs cheaper) than sync/atomic's Load and Store.
//
// # Choosing an implementation
//
// At init the package asks [github.com/gohal/gohal/dispatch] for the best
// variant of every op (see [Selected] for what was chosen and why). The
// exported functions are assembly that reads a one-byte flag and branches to
// the chosen variant, the binding the Go runtime itself uses for its arm64
// atomics; [Table] offers the same choice as func values for callers that
// want an indirect call. Where an op's last resort is the portable Go
// variant (the 128-bit CAS on riscv64, and on amd64 CPUs without
// CMPXCHG16B), its entry is generated Go that reads the same flag.
//
// The environment variable GOHAL overrides the choice, in the form
// GOHAL=fetchadd64=llsc,pause=yield. An unknown op or variant, malformed
// syntax, or a variant this CPU cannot run makes the program print one line
// naming GOHAL, the op, the variant and the missing feature to standard
// error and exit with status 2 during init: never an illegal instruction.
//
// # Portable fallback
//
// On architectures without a backend, with the purego build tag, and in
// race-detector builds, every op is implemented in Go over sync/atomic (so the
// race detector sees every access); Pause yields with runtime.Gosched and
// the 128-bit CAS uses striped locks. [Selected] then reports the variant
// "portable".
//
// # Pointers
//
// No assembly here ever stores a Go pointer: it would bypass the garbage
// collector's write barrier. Pointer-typed CAS, swap and store stay in
// sync/atomic, and [Uint128] holds integers only.
package hal
