//go:build !purego && (amd64 || s390x)

package hal_test

import (
	"testing"

	"github.com/gohal/gohal/hal/direct"
)

// storeReleaseAsm measures the mov variant as an assembly call, the
// binding hal used before it bound the op "plain".
func storeReleaseAsm(b *testing.B) {
	b.Run("asm-call", func(b *testing.B) {
		var i uint64
		for b.Loop() {
			i++
			direct.StoreReleaseUint64Mov(&benchWord, i)
		}
	})
}
