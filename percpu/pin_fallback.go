//go:build gohal_nolinkname || purego

package percpu

import "github.com/gohal/gohal/hal"

// Pinned reports whether Pin excludes other goroutines from the returned
// P: false in this fallback build (tags gohal_nolinkname, purego), which
// does not link to the runtime; true in the default build.
const Pinned = false

// enter and exit bracket a structure's access to its slot: here the slot
// of the CPU the goroutine runs on, which it may leave at any moment, so
// every structure also locks or uses atomic operations.
func enter() int { return hal.CPU() }
func exit()      {}

// Pin returns hal.CPU(), the number of the CPU the calling goroutine ran
// on a moment ago, in [0, the number of CPU ids). In this fallback build
// it disables nothing: other goroutines may use the same number at the
// same time, and data indexed by it needs atomic operations or a lock.
// Pins nest (Pin inside Pin returns a CPU number too, perhaps another).
func Pin() int { return hal.CPU() }

// Unpin ends what Pin began; in this fallback build it does nothing, and
// an Unpin without a Pin cannot be detected.
func Unpin() {}
