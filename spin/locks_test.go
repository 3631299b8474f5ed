package spin

import (
	"sync"
	"testing"
)

// lockKind is one lock under test. Adding a lock type to the package means
// adding a row here, which every test iterates over, and a benchmark body
// in lab/suite/kit.go, which TestEveryLockIsBenchmarked asks for.
type lockKind struct {
	name string
	new  func() Locker
	// fifo locks hand over in arrival order.
	fifo bool
}

var lockKinds = []lockKind{
	{name: "tas", new: func() Locker { return new(TAS) }},
	{name: "ttas", new: func() Locker { return new(TTAS) }},
	{name: "asm", new: func() Locker { return new(Asm) }},
	{name: "backoff", new: func() Locker { return new(Backoff) }},
	{name: "ticket", new: func() Locker { return new(Ticket) }, fifo: true},
	{name: "mcs", new: func() Locker { return new(MCS) }, fifo: true},
}

// Compile-time checks that every lock is a Locker.
var (
	_ Locker = (*TAS)(nil)
	_ Locker = (*TTAS)(nil)
	_ Locker = (*Asm)(nil)
	_ Locker = (*Backoff)(nil)
	_ Locker = (*Ticket)(nil)
	_ Locker = (*MCS)(nil)
	_ Locker = (*sync.Mutex)(nil)
)

func forEachLock(t *testing.T, f func(t *testing.T, k lockKind)) {
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) { f(t, k) })
	}
}
