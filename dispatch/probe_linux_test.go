//go:build linux

package dispatch

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// A refused membarrier(2), as an old kernel, seccomp profile or sandbox
// refuses it, leaves the feature out, and the choice of the asymmetric
// fence pair falls back to its portable variant with the errno in the
// reason.
func TestProbeMembarrierRefused(t *testing.T) {
	granted := func(cmd uintptr) (uintptr, syscall.Errno) {
		if cmd == membarrierCmdQuery {
			return 0x3ff, 0
		}
		return 0, 0
	}
	for _, tc := range []struct {
		name string
		sys  func(cmd uintptr) (uintptr, syscall.Errno)
		ok   bool
		want string
	}{
		{"granted", granted, true, "registered"},
		{"ENOSYS", func(uintptr) (uintptr, syscall.Errno) { return 0, syscall.ENOSYS }, false, fmt.Sprintf("membarrier query refused: ENOSYS (%d)", int(syscall.ENOSYS))}, // 38, or 89 on mips
		{"EPERM", func(cmd uintptr) (uintptr, syscall.Errno) {
			if cmd == membarrierCmdRegisterPrivateExpedited {
				return 0, syscall.EPERM
			}
			return granted(cmd)
		}, false, fmt.Sprintf("membarrier registration refused: EPERM (%d)", int(syscall.EPERM))},
		{"no command", func(uintptr) (uintptr, syscall.Errno) { return 1, 0 }, false, "no private expedited command (commands 0x1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, found := probeMembarrier(tc.sys)
			if ok != tc.ok || !strings.Contains(found, tc.want) {
				t.Fatalf("probe: %v %q, want %v and %q", ok, found, tc.ok, tc.want)
			}
			f := &Features{GOARCH: "amd64", Flags: map[string]bool{FeatureLinux: true, FeatureMembarrier: ok},
				Probes: map[string]string{FeatureMembarrier: found}}
			ops := []Op{{Name: "fenceheavy", Variants: []Variant{
				{Name: "membarrier", Requires: []string{FeatureMembarrier}}, {Name: "portable"}}}}
			cs, err := Select(f, ops, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := cs[0]
			if wantV := map[bool]string{true: "membarrier", false: "portable"}[tc.ok]; c.Variant != wantV || !strings.Contains(c.Reason, found) {
				t.Errorf("choice %+v, want %s with %q in the reason", c, wantV, found)
			}
			if tc.ok {
				return
			}
			_, err = Select(f, ops, Override{{Op: "fenceheavy", Variant: "membarrier"}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("forcing membarrier: %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

// On this machine the probe either granted membarrier or said why not.
func TestHostMembarrier(t *testing.T) {
	f := Host()
	found := f.Probes[FeatureMembarrier]
	t.Logf("membarrier: %v (%s)", f.Has(FeatureMembarrier), found)
	if found == "" {
		t.Error("the membarrier probe left no note")
	}
	if f.Has(FeatureMembarrier) != strings.Contains(found, "registered") {
		t.Errorf("flag %v, probe %q", f.Has(FeatureMembarrier), found)
	}
}
