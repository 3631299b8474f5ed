//go:build (amd64 || 386) && gc && !purego

package dispatch

// cpuidex runs the CPUID instruction with EAX=leaf and ECX=sub.
func cpuidex(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// cpuidRDPID reports whether CPUID lists RDPID (leaf 7, sub-leaf 0, ECX
// bit 22), which neither x/sys/cpu nor cpuid/v2 reads, and whether it
// could ask (true here).
func cpuidRDPID() (has, known bool) {
	if maxLeaf, _, _, _ := cpuidex(0, 0); maxLeaf < 7 {
		return false, true
	}
	_, _, ecx, _ := cpuidex(7, 0)
	return ecx&(1<<22) != 0, true
}
