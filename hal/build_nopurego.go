//go:build !purego

package hal

// puregoBuild: built with -tags purego, hal uses its portable fallback.
const puregoBuild = false
