//go:build !linux

package suite

// genericCPU is the CPU number the portable way: without Linux's getcpu,
// hal's Go variant answers 0.
func genericCPU() int { return 0 }
