//go:build !linux || race

package percpu

import "github.com/gohal/gohal/hal"

// asymmetric is false in this build: no heavy fence reaches other
// threads here (or, under the race detector, it could not see one), so
// both sides are full fences.
var asymmetric = false

func init() { asymmetricWhy = "no asymmetric fence in this build (not Linux, or a race build)" }

func fenceLight() { hal.Fence() }
func fenceHeavy() { hal.Fence() }
