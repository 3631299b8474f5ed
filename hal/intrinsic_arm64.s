//go:build !purego && !race && !gohal_static

#include "textflag.h"

// Written by hand, not generated (hal/doc.go, "Generated files"): no op or
// variant of the spec is here, only a read of the Go runtime's own flag,
// which intrinsicHas (intrinsic_arm64.go, its one caller) needs to set the
// guards; it depends on the runtime, not on anything the generator knows.

// func runtimeHasAtomics() uint8
// The byte the compiler's inlined sync/atomic RMWs test at GOARM64=v8.0
// (cmd/compile's ir.Syms.ARM64HasATOMICS): the runtime sets it at start
// from internal/cpu, which reads HWCAP and GODEBUG=cpu.atomics.
TEXT ·runtimeHasAtomics(SB), NOSPLIT, $0-1
	MOVBU	runtime·arm64HasATOMICS(SB), R0
	MOVB	R0, ret+0(FP)
	RET
