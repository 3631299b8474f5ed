package mips64le

import (
	"github.com/gohal/gohal/gen/mips64"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is mips64le's part of the op spec: mips64's variants
// (mips64.Variants), and how CI runs mips64le under emulation.
var Spec = spec.Arch{
	GOARCH:   "mips64le",
	Variants: mips64.Variants(),
	Emulator: spec.Emulator{
		Binary: "qemu-mips64el",
		// One model: mips64 runs the other (gen/mips64's spec says why).
		CPUs:     []string{"MIPS64R2-generic"},
		Binutils: "binutils-mips64el-linux-gnuabi64",
		// hal, dispatch and the kit per model: a GOARCH added in issue 41
		// keeps CI under its time budget (.ci/zarches).
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/", "./percpu/"},
	},
}
