//go:build !linux

package hal

import (
	"errors"
	"runtime"
)

// membarrierExpedited is unreachable here: dispatch finds no membarrier on
// a GOOS but Linux, so the variant that calls it is never chosen.
func membarrierExpedited() error { return errors.New("no membarrier on " + runtime.GOOS) }

// sweepCPUs is unreachable here, as membarrierExpedited is.
func sweepCPUs() (string, error) { return "", errors.New("no CPU sweep on " + runtime.GOOS) }

// errnoText is err as it prints.
func errnoText(err error) string { return err.Error() }
