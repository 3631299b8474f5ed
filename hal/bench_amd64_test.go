//go:build !purego && !race

package hal

import "testing"

func directFetchAddName() string { return "fetchadd64_lock" }

func benchDirectFetchAdd(b *testing.B, x *uint64) {
	for b.Loop() {
		fetchadd64_lock(x, 1)
	}
}
