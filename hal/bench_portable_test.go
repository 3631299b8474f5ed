//go:build purego || race || !(amd64 || arm64 || riscv64)

package hal

import "testing"

func directFetchAddName() string { return "fetchadd64_portable" }

func benchDirectFetchAdd(b *testing.B, x *uint64) {
	for b.Loop() {
		fetchadd64_portable(x, 1)
	}
}
