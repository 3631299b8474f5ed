package ppc64

import (
	"github.com/gohal/gohal/gen/ppc64le"
	"github.com/gohal/gohal/gen/spec"
)

func init() { spec.Register(Spec) }

// Spec is big-endian ppc64's part of the op spec: ppc64le's variants
// (ppc64le.Variants), since Go requires the same POWER8 (Power ISA 2.07) of
// both and no variant's choice depends on the byte order; and how CI runs
// ppc64 under emulation, on the same two CPU models.
var Spec = spec.Arch{
	GOARCH:   "ppc64",
	Variants: ppc64le.Variants(),
	Emulator: spec.Emulator{
		Binary: "qemu-ppc64",
		// One model in CI: ppc64le runs power8 and power9 on the same
		// instructions (gen/ppc64's tests), so ppc64 adds its byte order
		// on power9; both models pass by hand (ARCHITECTURES.md).
		CPUs:     []string{"power9"},
		Binutils: "binutils-powerpc64-linux-gnu",
		// hal, dispatch and the kit per model: a GOARCH added in issue 41
		// keeps CI under its time budget (.ci/zarches).
		Packages: []string{"./hal/", "./dispatch/", "./spin/", "./refcount/", "./counter/", "./percpu/"},
	},
}
