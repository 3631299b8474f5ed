package mipsle

import (
	"github.com/gohal/gohal/gen/mips64"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is mipsle's part of the op spec: mips64's variants on 32-bit words
// (mips64.Variants32), and how CI runs mipsle under emulation: a MIPS32
// Release 2 core with an FPU, as GOMIPS=hardfloat (the default) needs;
// qemu's Release 1 models have no FPU (4KEcR1 runs a GOMIPS=softfloat
// build, where PAUSE is the no-op shift).
var Spec = spec.Arch{
	GOARCH:   "mipsle",
	Variants: mips64.Variants32(),
	Emulator: spec.Emulator{
		Binary: "qemu-mipsel",
		// One model: mips runs the other (gen/mips's spec says why).
		CPUs:     []string{"74Kf"},
		Binutils: "binutils-mipsel-linux-gnu",
		// hal, dispatch and the kit per model: a GOARCH added in issue 41
		// keeps CI under its time budget (.ci/zarches).
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/", "./percpu/"},
	},
}
