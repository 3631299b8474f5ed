package dispatch

import (
	"runtime"
	"testing"
)

// TestLinuxCPUFlags: on Linux x86 the kernel's flags line is found and
// agrees with what every amd64 CPU has; the CPU-number features follow it.
func TestLinuxCPUFlags(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("Linux on amd64 only")
	}
	k := linuxCPUFlags()
	if k == nil {
		t.Skip("no /proc/cpuinfo flags line (not a full Linux?)")
	}
	for _, f := range []string{"fpu", "sse2", "cx8"} {
		if !k[f] {
			t.Errorf("/proc/cpuinfo flags lack %q, which every amd64 CPU has: %v", f, k)
		}
	}
	h := Host()
	rdpid, known := cpuidRDPID() // under qemu-user the kernel's list is the host's (TestRDPIDNeedsCPUID)
	if h.Has(FeatureRDPID) != (k["rdpid"] && (rdpid || !known)) || h.Has(FeatureTSCAux) != (k["rdtscp"] || k["rdpid"]) || !h.Has(FeatureCPUNodeSeg) {
		t.Errorf("CPU-number features %v do not follow the kernel's flags", h.Names())
	}
}
