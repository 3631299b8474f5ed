//go:build !gohal_nolinkname && !purego

package hal

import _ "unsafe" // go:linkname

// pin128 and unpin128 bracket a portable 128-bit access: with preemption
// off the stripe's holder runs until it releases it.
//
//go:linkname pin128 runtime.procPin
func pin128() int

//go:linkname unpin128 runtime.procUnpin
func unpin128()

// wait128 is a waiter's pause: the holder is running (it cannot be
// preempted), so spinning ends within its two accesses.
func wait128() {}
