//go:build !windows

package hal

// flushProcessWriteBuffers is unreachable here: dispatch finds
// FlushProcessWriteBuffers only on Windows, so the variant that calls it
// is never chosen.
func flushProcessWriteBuffers() {
	panic("hal: FlushProcessWriteBuffers is Windows'")
}
