// Package ppc64 is gohal's big-endian ppc64 backend: gen/ppc64le's
// emitter and bodies, with the byte order set to big-endian.
// ppc64le.NewBigEndian sets it, so that one set of bodies serves both
// GOARCHes.
//
// Only the quadword register pairs depend on the byte order (Power ISA
// orders an even-odd pair as one big-endian 128-bit number, so the even
// register holds the doubleword at the lower address, a [2]uint64's lo, in
// Big-Endian mode and hi in Little-Endian mode); gen/ppc64le/quad.go maps
// them, and its tests check both orders. Those bodies are not in the spec
// on either GOARCH yet (the 128-bit ops are hal's striped-lock Go variant:
// Debian's qemu 7.2 cannot run an LQARX/STQCX. loop, in either byte order).
// Every other body is the same instructions in both orders, which this
// package's tests check.
package ppc64

import "github.com/gohal/gohal/gen/ppc64le"

// New returns a fresh ppc64 backend.
func New() *ppc64le.Backend { return ppc64le.NewBigEndian() }
