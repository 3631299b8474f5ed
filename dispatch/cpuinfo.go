package dispatch

import (
	"bufio"
	"os"
	"strings"
)

// linuxCPUFlags returns the CPU flags the kernel lists on the first
// "flags" line of /proc/cpuinfo (Linux on x86), or nil when there is no
// such file or line.
func linuxCPUFlags() map[string]bool {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(name) != "flags" {
			continue
		}
		flags := map[string]bool{}
		for _, w := range strings.Fields(val) {
			flags[w] = true
		}
		return flags
	}
	return nil
}
