//go:build !linux

package dispatch

// osProbes is empty: this GOOS offers no feature gohal asks it for.
var osProbes []osProbe
