//go:build !gohal_nolinkname && !purego

package pin

import (
	"runtime"
	"unsafe" // also for go:linkname

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// Pinned reports whether ProcPin and Pin exclude other goroutines from the
// returned P: true in this build, which links to the runtime's procPin;
// false in the fallback build (tags gohal_nolinkname, purego).
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

// ProcPin is the runtime's procPin: it disables preemption of the calling
// goroutine and returns the id of its P, in [0, GOMAXPROCS). It does not
// count toward Held: it is for gohal's own short critical sections, which
// never call out while pinned.
func ProcPin() int { return procPin() }

// ProcUnpin undoes one ProcPin.
func ProcUnpin() { procUnpin() }

// IDs is the size of ProcPin's range now: GOMAXPROCS. The runtime may
// change GOMAXPROCS at any time (since Go 1.25 it follows the container's
// CPU quota), so an id from an earlier ProcPin may be outside a table
// grown to IDs() later: a caller that grows a table for its id grows it
// to id+1, or takes a path that needs no slot. GOMAXPROCS(0) only reads:
// it takes the runtime's scheduler lock (which never parks a goroutine)
// and stops nothing.
func IDs() int { return runtime.GOMAXPROCS(0) }

// depthSlot is one P's pin depth, on a cache line of its own.
type depthSlot struct {
	v uint32
	_ [cacheline.Size - unsafe.Sizeof(uint32(0))%cacheline.Size]byte
}

// depths counts, per P, the Pins not yet matched by an Unpin. Only the
// goroutine pinned on a P writes its slot (and, pinned, it stays there).
var depths Table[depthSlot]

// Pin pins the calling goroutine (ProcPin) and counts the pin in its P's
// depth, and returns the P's id. Pins nest; each needs its own Unpin.
func Pin() int {
	id := procPin()
	s := depths.Load()
	if uint(id) >= uint(len(s)) {
		s = depths.Grow(id + 1) // allocates while pinned: allowed, and never blocks
	}
	d := &s[id].v
	hal.StoreReleaseUint32(d, hal.LoadAcquireUint32(d)+1)
	return id
}

// Unpin ends the critical section begun by the matching Pin. Unpin without
// a matching Pin panics with "percpu: Unpin without a matching Pin", after
// restoring the runtime's state: the goroutine then holds no Pin, so the
// panic can be recovered.
func Unpin() {
	id := procPin()
	if s := depths.Load(); uint(id) < uint(len(s)) {
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

// Held reports whether the calling goroutine holds a Pin (percpu.Pin) not
// yet matched by an Unpin: then it must not block, park, yield or stop
// the world, and a gohal slow path that could do so must take a path that
// cannot, or panic. It costs a ProcPin, a load and a ProcUnpin — for slow
// paths only. A goroutine that is not pinned sees the depth of the P it
// runs on, which only a goroutine pinned there can make non-zero, and none
// is while it runs: so Held is exact for the calling goroutine.
func Held() bool {
	id := procPin()
	s := depths.Load()
	held := uint(id) < uint(len(s)) && hal.LoadAcquireUint32(&s[id].v) > 0
	procUnpin()
	return held
}

// Release drops every Pin the calling goroutine holds, as if it had
// called Unpin for each, and returns how many there were. It is for a
// gohal slow path that must panic while its caller is pinned: a panic
// while pinned is a fatal error of the runtime ("panic holding locks"),
// so the path releases the Pins first and says so in its message. Each
// later Unpin of those Pins panics as an Unpin without a matching Pin.
func Release() int {
	id := procPin()
	n := 0
	if s := depths.Load(); uint(id) < uint(len(s)) {
		d := &s[id].v
		n = int(hal.LoadAcquireUint32(d))
		hal.StoreReleaseUint32(d, 0)
	}
	for range n + 1 {
		procUnpin()
	}
	return n
}

// canSpin is sync.Mutex's spin check (sync.runtime_canSpin), which the
// runtime keeps for outside users (go.dev/issue/67401).
//
//go:linkname canSpin sync.runtime_canSpin
func canSpin(i int) bool

// CanSpin reports whether a waiter should spin rather than park:
// sync.Mutex's check that the machine has more than one CPU, that another
// P runs Go code (where the holder may be) and that nothing waits in this
// P's run queue (the holder may be there, and cannot run while its waiter
// spins).
func CanSpin() bool { return canSpin(0) }

// doSpin is sync.Mutex's spin step (sync.runtime_doSpin: procyield, 30
// PAUSE or YIELD instructions), which the runtime keeps for outside users
// (go.dev/issue/67401).
//
//go:linkname doSpin sync.runtime_doSpin
func doSpin()

// DoSpin is one spin step that never yields the processor, for a waiter
// that holds a Pin where hal.Pause would yield: sync.Mutex's own.
func DoSpin() { doSpin() }
