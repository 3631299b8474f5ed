//go:build !race

package hal

// raceBuild: built with -race, hal uses its portable fallback.
const raceBuild = false
