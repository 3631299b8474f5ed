// Package mips is gohal's backend for big-endian MIPS32: gen/mips64's
// emitter and bodies, for a 32-bit GOARCH. mips64.NewFor makes it emit the
// 32-bit and uintptr ops; the 64-bit ops are hal's Go variant there
// (mips64.Variants32 says why).
package mips

import "github.com/gohal/gohal/gen/mips64"

// New returns a fresh mips backend.
func New() *mips64.Backend { return mips64.NewFor("mips") }
