//go:build !purego && !race

package hal

import "testing"

// The direct binding calls the variant dispatch chose, without the flag.
func directFetchAddName() string {
	if selFetchadd64 == 0 {
		return "fetchadd64_amo"
	}
	return "fetchadd64_llsc"
}

func benchDirectFetchAdd(b *testing.B, x *uint64) {
	if selFetchadd64 == 0 {
		for b.Loop() {
			fetchadd64_amo(x, 1)
		}
		return
	}
	for b.Loop() {
		fetchadd64_llsc(x, 1)
	}
}
