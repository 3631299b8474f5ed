package hosttool

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The test binary is built for the test's GOARCH, natively or under qemu
// (which shows the guest program as /proc/self/exe).
func TestArchOfTestBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ELF programs: linux only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Arch(exe)
	if err != nil || got != runtime.GOARCH {
		t.Fatalf("Arch(%s) = %q, %v; want %q", exe, got, err, runtime.GOARCH)
	}
}

func TestArchOfNonELF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Arch(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Arch(shell script) = %q, %v; want an error naming the file", got, err)
	}
}
