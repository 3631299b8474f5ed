package percpu

import "github.com/gohal/gohal/hal"

func atomicFence() { hal.Fence() }
