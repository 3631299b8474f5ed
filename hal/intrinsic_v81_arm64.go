//go:build !purego && !race && !gohal_static && arm64.v8.1

package hal

// goarm64LSE is true from GOARM64=v8.1: the compiler emits the LSE
// instructions with no test (see intrinsicHas).
const goarm64LSE = true
