//go:build !arm64 || purego || race || gohal_static

package hal

// intrinsicHas reports whether sync/atomic's intrinsics run the code that
// needs feature f. Only arm64's guarded ops have intrinsic variants that
// need a feature (see intrinsic_arm64.go); elsewhere guards is empty, or
// its intrinsic variants need none (s390x's LAA), and nothing asks.
func intrinsicHas(f string) bool { return false }
