package modelcheck

// TSO is a model's shared memory under x86-TSO: each thread's stores go
// to a FIFO store buffer of its own, leave it in order at any time (a
// move of its own, Flush), and its loads see its own newest buffered
// store before memory. A locked read-modify-write or a full fence drains
// the thread's buffer first; a heavy fence (membarrier) drains every
// thread's. With SC set, stores go straight to memory: sequential
// consistency, to compare against.
//
// TSO is comparable and holds no pointers, so it can sit in a model's
// state. Words are 8 bits: a model's counters stay small.
type TSO struct {
	Mem [Words]uint8
	Buf [Threads][BufCap]Buffered
	N   [Threads]uint8 // stores in each thread's buffer
	SC  bool
}

// The sizes of TSO: addresses, threads, and stores a buffer holds.
const (
	Words   = 20
	Threads = 4
	BufCap  = 3
)

// Buffered is one store waiting in a store buffer.
type Buffered struct{ Addr, Val uint8 }

// Load returns what thread t reads at addr: its newest buffered store
// there, else memory.
func (m *TSO) Load(t, addr int) uint8 {
	for i := int(m.N[t]) - 1; i >= 0; i-- {
		if b := m.Buf[t][i]; int(b.Addr) == addr {
			return b.Val
		}
	}
	return m.Mem[addr]
}

// Store buffers thread t's store of v at addr. A full buffer first lets
// its oldest store go to memory, as hardware's bounded buffer does.
func (m *TSO) Store(t, addr int, v uint8) {
	if m.SC {
		m.Mem[addr] = v
		return
	}
	if m.N[t] == BufCap {
		m.Flush(t)
	}
	m.Buf[t][m.N[t]] = Buffered{uint8(addr), v}
	m.N[t]++
}

// Flush moves thread t's oldest buffered store to memory.
func (m *TSO) Flush(t int) {
	b := m.Buf[t][0]
	m.Mem[b.Addr] = b.Val
	copy(m.Buf[t][:], m.Buf[t][1:m.N[t]])
	m.N[t]--
	m.Buf[t][m.N[t]] = Buffered{}
}

// Fence drains thread t's buffer: a full fence (MFENCE, or the drain that
// precedes a locked instruction).
func (m *TSO) Fence(t int) {
	for m.N[t] > 0 {
		m.Flush(t)
	}
}

// FenceAll drains every thread's buffer: a heavy fence that makes every
// running thread execute a full barrier (membarrier's private expedited
// command).
func (m *TSO) FenceAll() {
	for t := range m.N {
		m.Fence(t)
	}
}

// Add is a locked add of d at addr by thread t (LOCK XADD): it drains t's
// buffer and returns the new value.
func (m *TSO) Add(t, addr int, d uint8) uint8 {
	m.Fence(t)
	m.Mem[addr] += d
	return m.Mem[addr]
}

// CAS is a locked compare-and-swap by thread t (LOCK CMPXCHG): it drains
// t's buffer and reports whether addr held old, which it then replaces
// with new.
func (m *TSO) CAS(t, addr int, old, new uint8) bool {
	m.Fence(t)
	if m.Mem[addr] != old {
		return false
	}
	m.Mem[addr] = new
	return true
}

// Swap is a locked exchange (XCHG, Go's atomic.Store on amd64) by thread
// t: it drains t's buffer and stores v.
func (m *TSO) Swap(t, addr int, v uint8) {
	m.Fence(t)
	m.Mem[addr] = v
}

// Flushes calls yield once for every thread whose buffer holds a store,
// with the memory after that thread's oldest store has gone out: the
// moves a model adds to its own threads' steps.
func (m TSO) Flushes(yield func(t int, after TSO)) {
	for t := range m.N {
		if m.N[t] > 0 {
			n := m
			n.Flush(t)
			yield(t, n)
		}
	}
}

// Idle reports whether every store buffer is empty.
func (m *TSO) Idle() bool { return m.N == [Threads]uint8{} }
