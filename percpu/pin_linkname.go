//go:build !gohal_nolinkname && !purego

package percpu

import (
	_ "unsafe" // go:linkname

	"github.com/gohal/gohal/hal"
)

// Pinned reports whether Pin excludes other goroutines from the returned
// P: true in this build, which links to the runtime's procPin; false in
// the fallback build (tags gohal_nolinkname, purego).
const Pinned = true

// procPin disables preemption of the calling goroutine (it increments the
// M's lock count) and returns the id of its P.
//
//go:linkname procPin runtime.procPin
func procPin() int

// procUnpin undoes one procPin.
//
//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// enter and exit bracket a structure's access to its per-P slot.
func enter() int { return procPin() }
func exit()      { procUnpin() }

// depthSlot is one P's pin depth, on a cache line of its own.
type depthSlot struct {
	v uint32
	_ [lineSize - 4]byte
}

// depths counts, per P, the Pins not yet matched by an Unpin. Only the
// goroutine pinned on a P writes its slot.
var depths table[depthSlot]

// Pin disables preemption of the calling goroutine and returns the id of
// the P it runs on, in [0, GOMAXPROCS). Until the matching Unpin, no other
// goroutine runs on that P. Keep the rules in the package documentation:
// short, no blocking or yielding, no panics, no allocation-heavy work.
// Pins nest; each needs its own Unpin.
func Pin() int {
	for {
		id := procPin()
		if s := depths.load(); id < len(s) {
			d := &s[id].v
			hal.StoreReleaseUint32(d, hal.LoadAcquireUint32(d)+1)
			return id
		}
		procUnpin()
		depths.grow(id + 1)
	}
}

// Unpin ends the critical section begun by the matching Pin. Unpin
// without a matching Pin on the calling goroutine panics with
// "percpu: Unpin without a matching Pin".
func Unpin() {
	id := procPin()
	if s := depths.load(); id < len(s) {
		d := &s[id].v
		if n := hal.LoadAcquireUint32(d); n > 0 {
			hal.StoreReleaseUint32(d, n-1)
			procUnpin()
			procUnpin()
			return
		}
	}
	procUnpin()
	panic("percpu: Unpin without a matching Pin")
}
