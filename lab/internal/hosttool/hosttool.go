// Package hosttool lets the lab's tests run an installed program, such as
// ministat, only where the test binary runs natively.
//
// Under qemu-user (CI's runs of every GOARCH with assembly) the tool on the
// host is built for another architecture, and each run of it is a fork of a
// multi-threaded emulated process. qemu-user's fork can leave the child
// stuck before its exec: the parent then waits in forkExec for good (CI,
// qemu 7.2, arm64 guest, after some thousand such runs). The code those
// tests compare with the tool is portable Go; its per-architecture
// arithmetic is held by golden files, which need no fork.
package hosttool

import (
	"debug/elf"
	"fmt"
	"os"
	"runtime"
	"testing"
)

// RequireNative skips t unless path is installed and built for the test's
// own GOOS and GOARCH.
func RequireNative(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not installed: %v", path, err)
	}
	arch, err := Arch(path)
	if err != nil {
		t.Skip(err)
	}
	if runtime.GOOS != "linux" || arch != runtime.GOARCH {
		t.Skipf("%s is a linux/%s program and this test runs as %s/%s (under emulation): "+
			"its runs are forks that qemu-user can leave hanging", path, arch, runtime.GOOS, runtime.GOARCH)
	}
}

// Arch returns the GOARCH that the ELF program at path is built for, or an
// error naming the file when it is not an ELF file or its machine has no
// GOARCH here.
func Arch(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: not an ELF program: %w", path, err)
	}
	defer f.Close()
	little := f.Data == elf.ELFDATA2LSB
	wide := f.Class == elf.ELFCLASS64
	switch f.Machine {
	case elf.EM_X86_64:
		return "amd64", nil
	case elf.EM_386:
		return "386", nil
	case elf.EM_AARCH64:
		return "arm64", nil
	case elf.EM_ARM:
		return "arm", nil
	case elf.EM_RISCV:
		if wide {
			return "riscv64", nil
		}
	case elf.EM_LOONGARCH:
		if wide {
			return "loong64", nil
		}
	case elf.EM_PPC64:
		if little {
			return "ppc64le", nil
		}
		return "ppc64", nil
	case elf.EM_S390:
		if wide {
			return "s390x", nil
		}
	case elf.EM_MIPS:
		switch {
		case wide && little:
			return "mips64le", nil
		case wide:
			return "mips64", nil
		case little:
			return "mipsle", nil
		}
		return "mips", nil
	}
	return "", fmt.Errorf("%s: ELF machine %v (%v, %v) has no GOARCH", path, f.Machine, f.Class, f.Data)
}
