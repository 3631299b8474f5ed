//go:build !(amd64 || 386) || !gc || purego

package dispatch

// cpuidRDPID cannot ask CPUID here (another GOARCH, or no assembly): the
// kernel's list is all there is.
func cpuidRDPID() (has, known bool) { return false, false }
