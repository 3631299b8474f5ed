// Command plaincaller is the caller that hal's TestPlainDisassembly builds
// and reads back: small functions that publish data with hal's release
// stores, each bound by its plain Go store on amd64 and s390x. The test
// checks that the compiler emits one store instruction per release store,
// after every earlier store and load of the function, and no call; and
// that FenceLight, inlined, keeps a store before it and a load after it.
package main

import (
	"fmt"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

type msg struct {
	data  uint64
	seen  uint64
	flag  uint32
	_     uint32
	flag6 uint64
	flagp uintptr
}

// publish32 writes the data, then the flag with a release store.
//
//go:noinline
func publish32(m *msg, v uint64) { m.data = v; hal.StoreReleaseUint32(&m.flag, 1) }

//go:noinline
func publish64(m *msg, v uint64) { m.data = v; hal.StoreReleaseUint64(&m.flag6, 1) }

//go:noinline
func publishUintptr(m *msg, v uint64) { m.data = v; hal.StoreReleaseUintptr(&m.flagp, 1) }

// handoff reads the data, then releases the slot: the load must stay
// before the store.
//
//go:noinline
func handoff(m *msg) uint64 {
	d := m.data
	hal.StoreReleaseUint32(&m.flag, 0)
	return d
}

// light writes the data, runs FenceLight, then reads another word: the
// store must stay before the fence's flag test and the load after it.
//
//go:noinline
func light(m *msg) uint64 {
	m.data = 1
	hal.FenceLight()
	return m.seen
}

func main() {
	var m msg
	_ = light(&m)
	publish32(&m, 1)
	publish64(&m, 2)
	publishUintptr(&m, 3)
	fmt.Println(handoff(&m), m.flag, m.flag6, m.flagp, haltool.Binding("storerelease32"))
}
