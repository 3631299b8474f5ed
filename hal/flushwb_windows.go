package hal

import "golang.org/x/sys/windows"

// procFlushProcessWriteBuffers is kernel32's FlushProcessWriteBuffers
// (Windows Vista and later), which dispatch's probe found before the
// variant that calls it could be chosen.
var procFlushProcessWriteBuffers = windows.NewLazySystemDLL("kernel32.dll").NewProc("FlushProcessWriteBuffers")

// flushProcessWriteBuffers flushes the write queue of each processor that
// is running a thread of the process, by an interprocessor interrupt: each
// executes a full barrier.
func flushProcessWriteBuffers() {
	procFlushProcessWriteBuffers.Call()
}
