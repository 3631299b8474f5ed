//go:build !purego && !race && !gohal_static

#include "textflag.h"

// func runtimeHasAtomics() uint8
// The byte the compiler's inlined sync/atomic RMWs test at GOARM64=v8.0
// (cmd/compile's ir.Syms.ARM64HasATOMICS): the runtime sets it at start
// from internal/cpu, which reads HWCAP and GODEBUG=cpu.atomics.
TEXT ·runtimeHasAtomics(SB), NOSPLIT, $0-1
	MOVBU	runtime·arm64HasATOMICS(SB), R0
	MOVB	R0, ret+0(FP)
	RET
