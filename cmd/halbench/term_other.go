//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

// isTerminalFd reports false: without a portable way to ask, halbench
// prints no progress.
func isTerminalFd(int) bool { return false }
