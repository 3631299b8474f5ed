// Package mips64le is gohal's mips64le backend: gen/mips64's emitter and
// bodies for the little-endian GOARCH (mips64.NewFor). No body depends on
// the byte order (gen/mips64's Backend says why); this package's tests
// check that both GOARCHes get the same assembly.
package mips64le

import "github.com/gohal/gohal/gen/mips64"

// New returns a fresh mips64le backend.
func New() *mips64.Backend { return mips64.NewFor("mips64le") }
