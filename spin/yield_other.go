//go:build !linux

package spin

// osYield does nothing where the package has no OS-level yield;
// runtime.Gosched still hands the processor to other goroutines.
func osYield() {}
