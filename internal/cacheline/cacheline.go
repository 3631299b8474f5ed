// Package cacheline gives the cache-line size gohal pads shared words to.
package cacheline

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Size is the padding that keeps a word on a cache line of its own: the
// line size x/sys/cpu pads to on this GOARCH (64 on amd64, 128 on arm64,
// 256 on s390x, ...), and at least 64 where x/sys/cpu pads to nothing
// (wasm), so that padding arithmetic such as Size-8 stays valid.
const Size = max(unsafe.Sizeof(cpu.CacheLinePad{}), 64)
