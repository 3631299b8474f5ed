package percpu

import (
	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/internal/waitpolicy"
)

// Pinned reports whether Pin excludes other goroutines from the returned
// P: true in the default build, which links to the runtime's procPin;
// false in the fallback build (tags gohal_nolinkname, purego).
const Pinned = pin.Pinned

// enter and exit bracket a structure's access to its per-P slot: the
// runtime's procPin and procUnpin in the default build, without the pin
// depth that Pin keeps (the structures never call out while pinned). In
// the fallback build enter returns a CPU number in [0, runtime.NumCPU())
// and excludes nothing, so every structure also locks or uses atomic
// operations; where that number costs a system call (slotsPay false) it
// returns 0, so the structures keep to their first slot.
func enter() int {
	if !pin.Pinned && !slotsPay { // a constant false in the default build
		return 0
	}
	return pin.ProcPin()
}
func exit() { pin.ProcUnpin() }

// slotsPay reports whether finding the caller's per-P slot is cheap enough
// for the structures to spread over their slots. The default build finds
// its P with the runtime's pin; the fallback build (Pinned false: tags
// purego, gohal_nolinkname) asks hal.CPU, which is getcpu(2) where its
// variant is syscall or portable (every purego build, and GOARCHes with
// no user-mode CPU number: all but amd64). A system call per access costs
// far more than the sharing of one slot that it avoids, so there the
// structures use one slot, as a lock or an atomic would.
var slotsPay = pin.Pinned || cpuIsCheap(waitpolicy.Variant("cpu"))

// cpuIsCheap reports whether hal.CPU's variant v reads the CPU number
// without a system call (on Linux; portable returns 0 elsewhere, which
// spreads nothing either).
func cpuIsCheap(v string) bool { return v != "portable" && v != "syscall" }

// Pin disables preemption of the calling goroutine and returns the id of
// the P it runs on, in [0, GOMAXPROCS). Until the matching Unpin, no other
// goroutine runs on that P. Keep the rules in the package documentation:
// short, no blocking, yielding, stopping the world or panicking, no
// allocation-heavy work. Pins nest; each needs its own Unpin.
//
// In the fallback build (Pinned false) Pin disables nothing and returns
// the number of the CPU the goroutine ran on a moment ago, reduced into
// [0, runtime.NumCPU()); other goroutines may use the same number at the
// same time. That number is hal.CPU's: on Linux, where its variant is
// syscall or portable (every purego build, and gohal_nolinkname builds on
// GOARCHes with no user-mode CPU number), each Pin costs a getcpu system
// call, so per-P data indexed by Pin pays one per access there (the
// package's own structures then keep to one slot instead: see Fallback
// build). Elsewhere the portable variant returns 0.
func Pin() int { return pin.Pin() }

// Unpin ends the critical section begun by the matching Pin. In the
// default build, Unpin without a matching Pin on the calling goroutine
// panics with "percpu: Unpin without a matching Pin", and the panic can be
// recovered. In the fallback build Unpin does nothing.
func Unpin() { pin.Unpin() }
