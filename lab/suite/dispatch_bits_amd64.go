//go:build !purego

package suite

import (
	"testing"

	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/probe"
)

// addBitsArch registers fetchor64's and fetchand64's direct, flag and
// static modes. On amd64 each has one variant, cmpxchg (the compiler's own
// CAS loop), so the flag mode is lab/probe's flag probe.
func addBitsArch() {
	dispatch("fetchor64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.FetchOrUint64Cmpxchg(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.FetchOrUint64Flagged(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchor64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticFetchOrUint64(&c.v, orMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.FetchAndUint64Cmpxchg(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = probe.FetchAndUint64Flagged(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
	dispatch("fetchand64", ModeStatic, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = direct.StaticFetchAndUint64(&c.v, andMask)
		}
		m.Stop()
		use(v)
	})
}
