//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
	"syscall"
)

// Refuse fails: seccomp filters are Linux's.
func Refuse(e syscall.Errno, nrs ...uintptr) error {
	return errors.New("sandbox: no seccomp filters on " + runtime.GOOS)
}
