// Package cacheline gives the cache-line size gohal pads shared words to.
//
// Padding is written one way everywhere: the fields that share a line go in
// a struct of their own, and the padded type embeds that struct followed by
// a field of Tail bytes computed from its size, never from hand-added field
// sizes:
//
//	type stripeWords struct{ v uint64 }
//
//	type stripe struct {
//		stripeWords
//		_ [cacheline.Size - unsafe.Sizeof(stripeWords{})%cacheline.Size]byte
//	}
//
// so that adding a field to stripeWords keeps stripe a whole number of
// lines. A field of type Line before the words keeps them off the line of
// whatever precedes the padded value. Go cannot compute the tail inside a
// generic Padded[T] (unsafe.Sizeof of a type parameter is not a constant),
// hence the one expression, which every padded type repeats verbatim and
// whose result TestPaddedSizes-style tests check to be a multiple of Size.
package cacheline

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Size is the padding that keeps a word on a cache line of its own: the
// line size x/sys/cpu pads to on this GOARCH (64 on amd64, 128 on arm64,
// 256 on s390x, ...), and at least 64 where x/sys/cpu pads to nothing
// (wasm), so that a padded type is never smaller than a real line.
const Size = max(unsafe.Sizeof(cpu.CacheLinePad{}), 64)

// Line is one cache line of padding: a field of it keeps the fields after
// it off the line of the fields before it.
type Line [Size]byte
