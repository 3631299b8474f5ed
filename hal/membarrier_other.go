//go:build !linux

package hal

import (
	"errors"
	"runtime"
)

func membarrierRegister() error {
	return errors.New("no membarrier on " + runtime.GOOS)
}

func membarrierExpedited() error { return errors.New("no membarrier on " + runtime.GOOS) }
