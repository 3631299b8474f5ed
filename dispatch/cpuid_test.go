package dispatch

import (
	"runtime"
	"testing"
)

// rdpid is listed where the kernel lists it and the CPU runs it: under
// qemu-user (CI's runs of CPU models without RDPID on a host with it) the
// kernel's list is the host's, and trusting it alone raised SIGILL.
func TestRDPIDNeedsCPUID(t *testing.T) {
	has, known := cpuidRDPID()
	got := Host().Flags[FeatureRDPID]
	if (runtime.GOARCH != "amd64" && runtime.GOARCH != "386") || runtime.GOOS != "linux" {
		if got {
			t.Errorf("rdpid listed on %s/%s", runtime.GOOS, runtime.GOARCH)
		}
		return
	}
	want := linuxCPUFlags()["rdpid"] && (has || !known)
	if got != want {
		t.Errorf("rdpid = %v; want %v (kernel lists it: %v, CPUID: %v, known %v)", got, want, linuxCPUFlags()["rdpid"], has, known)
	}
	t.Logf("kernel lists rdpid: %v; CPUID: %v (known %v)", linuxCPUFlags()["rdpid"], has, known)
}
