//go:build gohal_nolinkname || purego

package hal

import "runtime"

// pin128 and unpin128 do nothing where the runtime.procPin linkname is not
// allowed; see stripe.
func pin128() int { return 0 }
func unpin128()   {}

// wait128 yields: the stripe's holder may have been preempted.
func wait128() { runtime.Gosched() }
