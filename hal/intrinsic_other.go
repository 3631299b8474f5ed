//go:build !arm64 || purego || race || gohal_static

package hal

// intrinsicHas reports whether sync/atomic's intrinsics run the code that
// needs feature f. Only arm64's dynamic build has guarded ops (see
// intrinsic_arm64.go); elsewhere guards is empty and nothing asks.
func intrinsicHas(f string) bool { return false }
