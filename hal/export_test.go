package hal

// Build facts for the external tests.
var (
	RaceBuild   = raceBuild
	PuregoBuild = puregoBuild
)
