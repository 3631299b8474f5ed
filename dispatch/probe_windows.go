//go:build windows

package dispatch

import "golang.org/x/sys/windows"

var osProbes = []osProbe{
	{FeatureFlushProcessWriteBuffers, probeFlushProcessWriteBuffers},
}

// probeFlushProcessWriteBuffers looks kernel32's FlushProcessWriteBuffers
// up (Windows Vista and later; every Windows Go runs on has it).
func probeFlushProcessWriteBuffers() (bool, string) {
	if err := windows.NewLazySystemDLL("kernel32.dll").NewProc("FlushProcessWriteBuffers").Find(); err != nil {
		return false, "FlushProcessWriteBuffers not found: " + err.Error()
	}
	return true, "kernel32's FlushProcessWriteBuffers found"
}
