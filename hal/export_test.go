package hal

import "github.com/gohal/gohal/dispatch"

// Build facts for the external tests.
var (
	RaceBuild   = raceBuild
	PuregoBuild = puregoBuild
	StaticBuild = staticBuild
)

// WordOf is Uint128.Addr without its portable-variant check: the word the
// methods use, for the tests that drive hal's own table rows on it (those
// rows are the variants the methods run, so they are compatible with them
// whichever is live).
func WordOf(u *Uint128) *[2]uint64 { return u.word() }

// SpecVariants is specVariants: op's variants on goarch in a build with
// assembly, whatever this build is.
func SpecVariants(goarch, op string) []string { return specVariants(goarch, op) }

// SelectFor is selectFor: hal's choices for the features f with override,
// as init makes them (without a static build's compiled-in choices).
func SelectFor(f *dispatch.Features, override dispatch.Override) ([]Choice, error) {
	return selectFor(f, override)
}

// FenceLightFull reports whether FenceLight runs a full fence now.
func FenceLightFull() bool { return raceBuild || puregoBuild || fenceHeavyReaches == 0 }
