//go:build !purego && !race && !gohal_static

package hal

import "github.com/gohal/gohal/dispatch"

// intrinsicHas reports whether sync/atomic's intrinsics run the code that
// needs feature f in this process. For atomics (LSE): always at GOARM64
// v8.1 and above, where the compiler emits the LSE instruction bare;
// below, the compiler emits a test of the runtime's own flag
// arm64HasATOMICS and both sequences, so the answer is that flag, read
// from the runtime (runtimeHasAtomics), not hal's detection.
func intrinsicHas(f string) bool {
	if f == dispatch.FeatureAtomics {
		return goarm64LSE || runtimeHasAtomics() != 0
	}
	return false
}

// runtimeHasAtomics returns the Go runtime's arm64HasATOMICS, the byte the
// compiler's inlined atomics test at GOARM64=v8.0 (intrinsic_arm64.s).
func runtimeHasAtomics() uint8
