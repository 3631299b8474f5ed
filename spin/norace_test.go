//go:build !race

package spin

// raceBuild: the test binary runs under the race detector.
const raceBuild = false
