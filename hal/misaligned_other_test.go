//go:build purego || !(amd64 || arm64)

package hal_test

import "testing"

// misalignedDirect: hal/direct has no 128-bit assembly in this build.
func misalignedDirect(t *testing.T, _ *[2]uint64, _ func(*testing.T, string, func())) {
	t.Skip("no hal/direct 128-bit assembly in this build")
}
