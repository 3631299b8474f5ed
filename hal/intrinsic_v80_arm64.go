//go:build !purego && !race && !gohal_static && !arm64.v8.1

package hal

// goarm64LSE is false below GOARM64=v8.1: the compiler's atomics test the
// runtime's LSE flag (see intrinsicHas).
const goarm64LSE = false
