//go:build !race && !gohal_nolinkname && !purego

package percpu

// slotLock guards a Cache's per-P slot. Pinning already excludes every
// other goroutine from the slot, so in this build it is nothing.
type slotLock struct{}

func (*slotLock) lock()   {}
func (*slotLock) unlock() {}
