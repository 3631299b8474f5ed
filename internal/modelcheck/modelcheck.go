// Package modelcheck explores every interleaving of a small concurrent model.
//
// A model is a state type and a function that lists the moves enabled in a
// state: threads are step functions over one shared state, each move one
// step of one thread (or one store leaving a store buffer, see [TSO]).
// [Explore] visits every state reachable from the initial one, breadth
// first, each state once (states are compared whole), and reports the
// first of:
//
//   - an assertion failure: a state Check rejects (two threads inside a
//     critical section they must not share);
//   - a stuck state: no move is enabled and not every thread has finished
//     (a thread parked with nobody left to wake it, a deadlock);
//   - a hang: a state from which no schedule finishes every thread (a
//     cycle of moves that never gets anywhere, spinning for ever).
//
// Each comes with the shortest trace of moves that reaches it. Hangs are
// found after the search, by walking the moves backwards from the final
// states: every state not reached that way is one from which no schedule
// finishes, so the check holds exactly when every run can still finish
// from everywhere it gets to (timeouts and spin limits are moves the
// model may or may not take, so a wait that only a timeout ends is not a
// hang).
package modelcheck

import (
	"fmt"
	"strings"
)

// Move names one transition: the thread that made it and its step.
type Move struct {
	Thread int    // index into Spec.Threads; -1 for a move of no thread
	Step   string // the step's name, as the protocol's description spells it
}

// Spec is a model to explore.
type Spec[S comparable] struct {
	// Init is the initial state.
	Init S

	// Threads names the model's threads, for traces.
	Threads []string

	// Next calls yield once for every move enabled in s, with the state
	// it leads to. It must not change s.
	Next func(s S, yield func(m Move, next S))

	// Check returns what s violates, or "" if it violates nothing.
	Check func(s S) string

	// Final reports whether every thread has finished in s.
	Final func(s S) bool

	// Stuck says why s, which is not final and has no move, is stuck:
	// which thread waits for what.
	Stuck func(s S) string

	// Describe renders s for traces; nil leaves states out of them.
	Describe func(s S) string

	// MaxStates bounds the search: Explore reports a TooBig violation
	// past it. Zero means 1<<22.
	MaxStates int
}

// Kind is what a violation is.
type Kind int

// The kinds of violation.
const (
	Assertion Kind = iota + 1 // Check rejected a state
	Stuck                     // no move, not final: a lost wake-up or a deadlock
	Hang                      // no schedule from the state finishes every thread
	TooBig                    // more than MaxStates states
)

func (k Kind) String() string {
	switch k {
	case Assertion:
		return "assertion failure"
	case Stuck:
		return "stuck"
	case Hang:
		return "hang"
	case TooBig:
		return "too many states"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Violation is the first property Explore found broken, and how.
type Violation struct {
	Kind  Kind
	What  string   // Check's or Stuck's words, or why it is a hang
	Trace []string // the moves from Init to the state, one line each
}

func (v *Violation) Error() string {
	return fmt.Sprintf("%v: %s\ntrace (%d moves):\n  %s", v.Kind, v.What, len(v.Trace), strings.Join(v.Trace, "\n  "))
}

// Result is what Explore found.
type Result struct {
	States int        // distinct states reached
	Moves  int        // transitions taken (edges of the state graph)
	Steps  []string   // every step name that some move took, sorted by first use
	Err    *Violation // nil when every property holds
}

// Explore visits every state of sp reachable from sp.Init and checks each
// (see the package documentation).
func Explore[S comparable](sp Spec[S]) Result {
	limit := sp.MaxStates
	if limit == 0 {
		limit = 1 << 22
	}
	var (
		states []S
		parent []int32  // the state a state was first reached from
		via    []uint32 // and by which move: thread+1 << 16 | step
		// index finds a state's number. The map's own hash: a
		// hash/maphash.Comparable of the state would be no faster and,
		// in purego builds, many times slower (it goes through reflect).
		index = map[S]int32{}
		// The moves, by source: succ[start[i]:start[i+1]] are i's.
		start  []int32
		succ   []int32
		steps  []string
		stepID = map[string]uint32{}
	)
	enc := func(m Move) uint32 {
		id, ok := stepID[m.Step]
		if !ok {
			id = uint32(len(steps))
			stepID[m.Step] = id
			steps = append(steps, m.Step)
		}
		return uint32(m.Thread+1)<<16 | id
	}
	dec := func(v uint32) Move { return Move{Thread: int(v>>16) - 1, Step: steps[v&0xffff]} }
	find := func(s S) (int32, bool) {
		if id, ok := index[s]; ok {
			return id, false
		}
		id := int32(len(states))
		states = append(states, s)
		index[s] = id
		return id, true
	}
	trace := func(id int32) []string {
		var rev []string
		for i := id; i > 0; i = parent[i] {
			line := name(sp.Threads, dec(via[i]))
			if sp.Describe != nil {
				line += "\t→ " + sp.Describe(states[i])
			}
			rev = append(rev, line)
		}
		out := make([]string, 0, len(rev)+1)
		if sp.Describe != nil {
			out = append(out, "initial\t→ "+sp.Describe(states[0]))
		}
		for i := len(rev) - 1; i >= 0; i-- {
			out = append(out, rev[i])
		}
		return out
	}
	fail := func(r Result, k Kind, what string, id int32) Result {
		r.States, r.Moves, r.Steps = len(states), len(succ), steps
		r.Err = &Violation{Kind: k, What: what, Trace: trace(id)}
		return r
	}

	find(sp.Init)
	parent = append(parent, -1)
	via = append(via, 0)
	if what := sp.Check(sp.Init); what != "" {
		return fail(Result{}, Assertion, what, 0)
	}
	var final []int32
	for cur := int32(0); int(cur) < len(states); cur++ {
		s := states[cur]
		start = append(start, int32(len(succ)))
		if sp.Final(s) {
			final = append(final, cur)
		}
		var bad int32 = -1
		var badWhat string
		sp.Next(s, func(m Move, n S) {
			mv := enc(m)
			id, fresh := find(n)
			succ = append(succ, id)
			if !fresh {
				return
			}
			parent = append(parent, cur)
			via = append(via, mv)
			if bad < 0 {
				if what := sp.Check(n); what != "" {
					bad, badWhat = id, what
				}
			}
		})
		if bad >= 0 {
			return fail(Result{}, Assertion, badWhat, bad)
		}
		if int32(len(succ)) == start[cur] && !sp.Final(s) {
			return fail(Result{}, Stuck, sp.Stuck(s), cur)
		}
		if len(states) > limit {
			return fail(Result{}, TooBig, fmt.Sprintf("over %d states", limit), cur)
		}
	}
	start = append(start, int32(len(succ)))

	// Hangs: walk the moves backwards from the final states.
	n := len(states)
	rstart := make([]int32, n+1)
	for _, d := range succ {
		rstart[d+1]++
	}
	for i := 1; i <= n; i++ {
		rstart[i] += rstart[i-1]
	}
	pred := make([]int32, len(succ))
	fill := append([]int32(nil), rstart[:n]...)
	for src := 0; src < n; src++ {
		for _, d := range succ[start[src]:start[src+1]] {
			pred[fill[d]] = int32(src)
			fill[d]++
		}
	}
	done := make([]bool, n)
	queue := append([]int32(nil), final...)
	for _, f := range final {
		done[f] = true
	}
	for len(queue) > 0 {
		d := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, p := range pred[rstart[d]:rstart[d+1]] {
			if !done[p] {
				done[p] = true
				queue = append(queue, p)
			}
		}
	}
	for id := range done {
		if !done[id] {
			return fail(Result{}, Hang, "no schedule from the last state finishes every thread", int32(id))
		}
	}
	return Result{States: n, Moves: len(succ), Steps: steps}
}

// name is m as a trace shows it.
func name(threads []string, m Move) string {
	if m.Thread >= 0 && m.Thread < len(threads) {
		return threads[m.Thread] + " " + m.Step
	}
	return m.Step
}
