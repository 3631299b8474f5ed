package dispatch

// osProbe is a feature found by asking the operating system at detection
// (a system call) rather than by reading the CPU: run reports whether the
// system grants it and what it found, the refusal with its errno when it
// does not. Each GOOS lists its own in osProbes (probe_<goos>.go).
type osProbe struct {
	feature string
	run     func() (ok bool, found string)
}
