package hal_test

import (
	"sync/atomic"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

var benchWord uint64

// BenchmarkStoreRelease compares hal's release store with an inlined plain
// store and with sync/atomic's (sequentially consistent) store in the same
// loop. Where hal binds the op "plain" the first two should match.
func BenchmarkStoreRelease(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		var i uint64
		for b.Loop() {
			i++
			benchWord = i
		}
	})
	b.Run("hal/"+string(haltool.Binding("storerelease64")), func(b *testing.B) {
		var i uint64
		for b.Loop() {
			i++
			hal.StoreReleaseUint64(&benchWord, i)
		}
	})
	b.Run("atomic.Store", func(b *testing.B) {
		var i uint64
		for b.Loop() {
			i++
			atomic.StoreUint64(&benchWord, i)
		}
	})
	storeReleaseAsm(b)
}
