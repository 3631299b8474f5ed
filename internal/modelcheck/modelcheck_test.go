package modelcheck

import (
	"fmt"
	"strings"
	"testing"
)

// toy is the state of the small models below: memory, and each thread's
// program counter and one register.
type toy struct {
	m  TSO
	pc [2]uint8
	r  [2]uint8
}

const toyDone = 99

// toySpec builds a spec from one step function per thread: step returns
// false where the thread cannot move (parked), and calls move for each
// of its moves.
func toySpec(init toy, step func(s toy, t int, move func(name string, n toy))) Spec[toy] {
	return Spec[toy]{
		Init:    init,
		Threads: []string{"T0", "T1"},
		Next: func(s toy, yield func(Move, toy)) {
			for t := range 2 {
				if s.pc[t] != toyDone {
					step(s, t, func(name string, n toy) { yield(Move{t, name}, n) })
				}
			}
			s.m.Flushes(func(t int, after TSO) {
				n := s
				n.m = after
				yield(Move{t, "flush"}, n)
			})
		},
		Check: func(s toy) string {
			if s.pc[0] == 3 && s.pc[1] == 3 {
				return "both inside"
			}
			return ""
		},
		Final: func(s toy) bool { return s.pc == [2]uint8{toyDone, toyDone} && s.m.Idle() },
		Stuck: func(s toy) string { return fmt.Sprintf("pcs %v", s.pc) },
		Describe: func(s toy) string {
			return fmt.Sprintf("pc %v mem %v", s.pc, s.m.Mem[:4])
		},
	}
}

// dekker is the store-buffering shape of Dekker's entry: raise my flag,
// load the other's, enter (pc 3) only if it is down. fence puts a full
// fence between the store and the load.
func dekker(sc, fence bool) Spec[toy] {
	var init toy
	init.m.SC = sc
	return toySpec(init, func(s toy, t int, move func(string, toy)) {
		n := s
		switch s.pc[t] {
		case 0:
			n.m.Store(t, t, 1)
			n.pc[t] = 1
			move("raise", n)
		case 1:
			if fence {
				n.m.Fence(t)
			}
			n.pc[t] = 2
			move("fence", n)
		case 2:
			if n.m.Load(t, 1-t) == 0 {
				n.pc[t] = 3
			} else {
				n.pc[t] = 4
			}
			move("look", n)
		case 3, 4:
			n.m.Store(t, t, 0)
			n.pc[t] = toyDone
			move("leave", n)
		}
	})
}

func TestDekker(t *testing.T) {
	for _, c := range []struct {
		sc, fence bool
		want      Kind
	}{
		{sc: true, want: 0},
		{sc: false, fence: true, want: 0},
		{sc: false, fence: false, want: Assertion},
	} {
		r := Explore(dekker(c.sc, c.fence))
		got := Kind(0)
		if r.Err != nil {
			got = r.Err.Kind
		}
		if got != c.want {
			t.Errorf("sc %v fence %v: got %v, want %v (%d states)\n%v", c.sc, c.fence, got, c.want, r.States, r.Err)
		}
		if got == Assertion && !strings.Contains(r.Err.Error(), "both inside") {
			t.Errorf("violation does not say what: %v", r.Err)
		}
	}
}

// TestTraceReplays: the trace of the Dekker violation is the moves that
// reach it, and replaying its steps in order reaches a state Check
// rejects.
func TestTraceReplays(t *testing.T) {
	sp := dekker(false, false)
	r := Explore(sp)
	if r.Err == nil {
		t.Fatal("no violation")
	}
	s := sp.Init
	for _, line := range r.Err.Trace[1:] { // the first line is the initial state
		name, _, _ := strings.Cut(line, "\t")
		found := false
		sp.Next(s, func(m Move, n toy) {
			if !found && sp.Threads[m.Thread]+" "+m.Step == name {
				// Several moves may share a name (flushes of one
				// thread do not); the trace's state decides.
				if strings.HasSuffix(line, sp.Describe(n)) {
					s, found = n, true
				}
			}
		})
		if !found {
			t.Fatalf("trace line %q is no move from %s", line, sp.Describe(s))
		}
	}
	if sp.Check(s) == "" {
		t.Fatalf("replayed trace ends in %s, which Check accepts", sp.Describe(s))
	}
}

// wakeup: T0 waits for a flag (address 0) and parks (pc 3) until a
// wake-up token (address 2); T1 sets the flag and wakes T0 if it has
// said it parks (address 1). announceFirst has T0 say so before it looks
// at the flag, which is the correct order; fence fences both threads
// between their store and their load.
func wakeup(sc, announceFirst, fence bool) Spec[toy] {
	var init toy
	init.m.SC = sc
	return toySpec(init, func(s toy, t int, move func(string, toy)) {
		n := s
		if t == 0 {
			switch s.pc[0] {
			case 0: // first half
				if announceFirst {
					n.m.Store(0, 1, 1)
					if fence {
						n.m.Fence(0)
					}
				} else if n.m.Load(0, 0) == 1 {
					n.pc[0] = toyDone
					move("look", n)
					return
				}
				n.pc[0] = 1
				move("first", n)
			case 1: // second half
				if announceFirst {
					if n.m.Load(0, 0) == 1 {
						n.pc[0] = toyDone
						move("look", n)
						return
					}
				} else {
					n.m.Store(0, 1, 1)
				}
				n.pc[0] = 2
				move("second", n)
			case 2: // park until the token
				if n.m.Load(0, 2) == 1 {
					n.pc[0] = toyDone
					move("woken", n)
				}
			}
			return
		}
		switch s.pc[1] {
		case 0:
			n.m.Store(1, 0, 1)
			if fence {
				n.m.Fence(1)
			}
			n.pc[1] = 1
			move("set", n)
		case 1:
			if n.m.Load(1, 1) == 1 {
				n.m.Swap(1, 2, 1)
			}
			n.pc[1] = toyDone
			move("wake", n)
		}
	})
}

func TestLostWakeup(t *testing.T) {
	for _, c := range []struct {
		sc, announceFirst, fence bool
		want                     Kind
	}{
		{sc: true, announceFirst: true, want: 0},
		{sc: true, announceFirst: false, want: Stuck},
		{sc: false, announceFirst: true, fence: true, want: 0},
		{sc: false, announceFirst: true, fence: false, want: Stuck},
	} {
		r := Explore(wakeup(c.sc, c.announceFirst, c.fence))
		got := Kind(0)
		if r.Err != nil {
			got = r.Err.Kind
		}
		if got != c.want {
			t.Errorf("%+v: got %v, want %v\n%v", c, got, c.want, r.Err)
		}
	}
}

// spinner: T0 spins until address 0 is 1; T1 stores set there and ends.
// giveUp lets T0 stop spinning (a timeout).
func spinner(set uint8, giveUp bool) Spec[toy] {
	var init toy
	return toySpec(init, func(s toy, t int, move func(string, toy)) {
		n := s
		if t == 1 {
			n.m.Store(1, 0, set)
			n.pc[1] = toyDone
			move("set", n)
			return
		}
		if n.m.Load(0, 0) == 1 {
			n.pc[0] = toyDone
			move("see", n)
			return
		}
		move("spin", n) // the same state: a cycle of one move
		if giveUp {
			n.pc[0] = toyDone
			move("give up", n)
		}
	})
}

func TestHang(t *testing.T) {
	for _, c := range []struct {
		set    uint8
		giveUp bool
		want   Kind
	}{
		{set: 1, want: 0},
		{set: 2, want: Hang},
		{set: 2, giveUp: true, want: 0},
	} {
		r := Explore(spinner(c.set, c.giveUp))
		got := Kind(0)
		if r.Err != nil {
			got = r.Err.Kind
		}
		if got != c.want {
			t.Errorf("%+v: got %v, want %v\n%v", c, got, c.want, r.Err)
		}
	}
}

// TestCountsStates: two threads of two independent steps each, under
// SC, make 3×3 states and 2·3·2 moves.
func TestCountsStates(t *testing.T) {
	var init toy
	init.m.SC = true
	sp := toySpec(init, func(s toy, t int, move func(string, toy)) {
		n := s
		if n.pc[t]++; n.pc[t] == 2 {
			n.pc[t] = toyDone
		}
		move("step", n)
	})
	r := Explore(sp)
	if r.Err != nil || r.States != 9 || r.Moves != 12 {
		t.Fatalf("got %d states, %d moves, %v; want 9, 12, nil", r.States, r.Moves, r.Err)
	}
	if len(r.Steps) != 1 || r.Steps[0] != "step" {
		t.Fatalf("steps %q, want [step]", r.Steps)
	}
}

func TestTooBig(t *testing.T) {
	sp := dekker(false, true)
	sp.MaxStates = 5
	if r := Explore(sp); r.Err == nil || r.Err.Kind != TooBig {
		t.Fatalf("MaxStates 5: got %v", r.Err)
	}
}

func TestTSO(t *testing.T) {
	var m TSO
	m.Store(0, 3, 7)
	if m.Load(0, 3) != 7 || m.Load(1, 3) != 0 {
		t.Fatalf("a buffered store: own load %d, other's %d; want 7, 0", m.Load(0, 3), m.Load(1, 3))
	}
	m.Store(0, 3, 8)
	m.Store(0, 4, 1)
	m.Flush(0)
	if m.Load(1, 3) != 7 || m.Load(0, 3) != 8 {
		t.Fatalf("after one flush: other's load %d, own %d; want 7, 8", m.Load(1, 3), m.Load(0, 3))
	}
	if got := m.Add(1, 4, 2); got != 2 || m.N[1] != 0 {
		t.Fatalf("locked add on memory 0: %d", got)
	}
	m.FenceAll()
	if !m.Idle() || m.Mem[3] != 8 || m.Mem[4] != 1 {
		t.Fatalf("after FenceAll: %+v", m)
	}
	for range BufCap + 2 {
		m.Store(2, 5, m.Load(2, 5)+1)
	}
	if m.N[2] != BufCap || m.Load(2, 5) != BufCap+2 || m.Mem[5] != 2 {
		t.Fatalf("overfull buffer: %d stores, load %d, memory %d", m.N[2], m.Load(2, 5), m.Mem[5])
	}
}
