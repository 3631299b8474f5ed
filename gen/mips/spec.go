package mips

import (
	"github.com/gohal/gohal/gen/mips64"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is mips's part of the op spec: mips64's variants on 32-bit words
// (mips64.Variants32), and how CI runs mips under emulation: a MIPS32
// Release 2 core with an FPU, as GOMIPS=hardfloat (the default) needs;
// qemu's Release 1 models have no FPU (4KEcR1 runs a GOMIPS=softfloat
// build, where PAUSE is the no-op shift).
var Spec = spec.Arch{
	GOARCH:   "mips",
	Variants: mips64.Variants32(),
	Emulator: spec.Emulator{
		Binary: "qemu-mips",
		// One model per byte order in CI, as mips64 and mips64le: mips
		// on 24Kf, mipsle on 74Kf; both pass by hand on each.
		CPUs:     []string{"24Kf"},
		Binutils: "binutils-mips-linux-gnu",
		// hal, dispatch and the kit per model: a GOARCH added in issue 41
		// keeps CI under its time budget (.ci/zarches).
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/", "./percpu/"},
	},
}
