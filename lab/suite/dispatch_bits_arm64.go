//go:build !purego

package suite

import (
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/direct"
	"github.com/gohal/gohal/lab/cyclebench"
)

// addBitsArch registers fetchor64's and fetchand64's direct, flag and
// static modes. On arm64 each has two variants (lse, llsc), so the flag
// mode is hal's exported function and the direct mode calls the variant
// hal chose.
func addBitsArch() {
	dispatch("fetchor64", ModeDirect, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		switch variant("fetchor64") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchOrUint64Lse(&c.v, orMask)
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchOrUint64Llsc(&c.v, orMask)
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("fetchor64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchOrUint64(&c.v, orMask)
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
		switch variant("fetchand64") {
		case "lse":
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchAndUint64Lse(&c.v, andMask)
			}
			m.Stop()
		default: // llsc
			m := cyclebench.Start(b)
			for b.Loop() {
				v = direct.FetchAndUint64Llsc(&c.v, andMask)
			}
			m.Stop()
		}
		use(v)
	})
	dispatch("fetchand64", ModeFlag, func(b *testing.B) {
		c, v := new(cell), uint64(0)
		m := cyclebench.Start(b)
		for b.Loop() {
			v = hal.FetchAndUint64(&c.v, andMask)
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
