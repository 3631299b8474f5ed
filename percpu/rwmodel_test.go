package percpu

import (
	"fmt"
	"strings"

	"github.com/gohal/gohal/internal/modelcheck"
)

// The RWMutex protocol as an executable model (DESIGN.md states it in
// words): two readers, one of which counts in on one P's line and out on
// another's, and one writer, over x86-TSO memory (modelcheck.TSO). Each
// move is one step of DESIGN.md, named as there and as the code's
// comments name it: one load, store, locked read-modify-write or fence,
// except where DESIGN.md's "The model" says a move merges accesses that
// nothing in between could change. rwmodel_check_test.go explores it
// with modelcheck.Explore, unbroken and broken on purpose.

// Addresses in the model's memory.
const (
	mSolo    = iota // RWMutex.solo
	mState          // RWMutex.state: gen*rwGen | rwBiased | rwWriter
	mLocks          // RWMutex.locks
	mUnlocks        // RWMutex.unlocks
	mCells          // 1 once the per-P lines are made
	mWake           // 1 once rwWaits (the writer's wake-up channel, the readers' admission) is made
	mPending        // 1 while a wake-up is pending in that channel
	mW              // RWMutex.w, the writers' sync.Mutex: 1 while held
	mParked         // RWMutex.parked: readers parked for their admission
	mMu             // rwWaits.mu: 1 while held
	mGate           // the gate: how many admissions writers have made (rwWaits.admitted)
	mTickets        // rwWaits.tickets: admitted counts in that no reader has taken
	mLine           // line i's locks at mLine+2i, its unlocks at mLine+2i+1
)

// The model's solo word is the code's (rwmutex_solo.go) in one byte: its
// two flags at the top, as the code's, and the count of readers below
// them; not the overlaps, whose count the model leaves to a free choice
// (a reader that finds others inside may close the lane, or not).
const (
	modelClosed = soloClosed >> 24
	modelWriter = soloWriter >> 24
	modelReader = 4 // one reader counted on the word
	modelCount  = modelWriter - modelReader
	modelLeave  = 256 - modelReader // an add of minus modelReader
)

// mLines is how many per-P lines the model has: reader 0 counts on line
// 0; reader 1 counts in on line 1 and out on line 2, as a reader that
// migrates between RLock and RUnlock does.
const mLines = 3

// A rwMutation breaks the model on purpose: each names the step it drops
// or swaps, and the check must then fail.
type rwMutation int

const (
	mutNone             rwMutation = iota
	mutNoRevokeFence               // [W-revoke]: no heavy fence after revoking the bias
	mutNoHeavyFence                // [W-heavy]: no heavy fence before the writer parks
	mutInsFirst                    // [W-sum-in] before [W-sum-out]: the sums in the wrong order
	mutNoSoloInSum                 // [W-sum-solo]: the lane's reader left out of the sum
	mutCountAfterLook              // [R-recheck] before [R-in]: count in after the last look at the state
	mutLightUnbiased               // [R-in]: a light count in (no fence) while the lock is not biased
	mutNoWakeOnLeave               // [U-flag]: a leaving reader that sees the flag does not wake the writer
	mutNoWakeOnBackout             // [R-backout]: a reader that backs out does not wake the writer
	mutNoSignalFence               // [G-fence]: signalWriter sends without fencing first
	mutLaneIgnoresFlag             // [R-lane]: the lane's add ignores the writer's soloWriter
	mutReleasePlain                // [W-release-state]/[W-release-solo]: the flag goes down with a plain (release) store
	mutNoAdmit                     // [W-admit]: the releasing writer does not admit the parked readers
	mutParkLookFirst               // [R-park]: the reader loads the flag before it counts itself parked
	mutQueueOnW                    // [R-park]: a reader that gives up waits on the writers' mutex (the protocol before admission)
	mutCloseUnderWriter            // [S-close]: an overlapping reader closes the lane under a writer's soloWriter
	mutRaiseSoloClosed             // [W-raise-solo]: the writer puts its flag in the solo word of a closed lane
	mutIdleWithReader              // Lock's idleGone after a raise that found readers counted on the word
	mutNoWakeOnLaneBack            // [R-lane-back]: a reader that counts out again past a writer's flag does not wake it
	mutClosedOutOnWord             // [U-lane]: on a closed lane, an RUnlock counts out on the word while it counts readers
	mutLightBackout                // [R-backout]: the count out is as light as the count in was
	mutNoTickets                   // [W-admit]: the admitting writer counts the readers in but makes no tickets
	mutTicketUnchecked             // [R-ticket]: a reader takes a ticket without checking that one is left
	mutAdmittedNoTicket            // [R-admitted]: a woken reader goes in without taking a ticket
	// [W-admit] adding the tickets before it counts the readers in is no
	// break, so it is not among these: the writer holds w throughout, and
	// only a writer under w reads locks (its sums), so nothing sees the
	// counts between the two adds; a reader that takes a ticket early
	// only counts out before the count in that stands for it. (The model
	// with the tickets added first, in a move of their own, passes.)
)

var rwMutationNames = map[rwMutation]string{
	mutNoRevokeFence:    "drop [W-revoke]'s heavy fence",
	mutNoHeavyFence:     "drop [W-heavy]'s heavy fence",
	mutInsFirst:         "swap [W-sum-out] and [W-sum-in]",
	mutNoSoloInSum:      "drop [W-sum-solo]",
	mutCountAfterLook:   "swap [R-in] and [R-recheck]",
	mutLightUnbiased:    "drop [R-in]'s fence while unbiased",
	mutNoWakeOnLeave:    "drop [U-flag]'s wake-up",
	mutNoWakeOnBackout:  "drop [R-backout]'s wake-up",
	mutNoSignalFence:    "drop [G-fence]",
	mutLaneIgnoresFlag:  "[R-lane] goes in under a writer's soloWriter",
	mutReleasePlain:     "[W-release-state] as a release store",
	mutNoAdmit:          "drop [W-admit]",
	mutParkLookFirst:    "swap [R-park]'s count and look",
	mutQueueOnW:         "[R-park] queues on the writers' mutex",
	mutCloseUnderWriter: "[S-close] under soloWriter",
	mutRaiseSoloClosed:  "[W-raise-solo] on a closed lane",
	mutIdleWithReader:   "idleGone's sums after a raise beside the word's readers",
	mutNoWakeOnLaneBack: "drop [R-lane-back]'s wake-up",
	mutClosedOutOnWord:  "[U-lane] counts out on a closed lane's word",
	mutLightBackout:     "[R-backout] as light as its count in",
	mutNoTickets:        "[W-admit] makes no tickets",
	mutTicketUnchecked:  "[R-ticket] takes a ticket none is left of",
	mutAdmittedNoTicket: "[R-admitted] goes in without a ticket",
}

// rwModelConfig is one model: where the lock starts, whether hal's fence
// pair is asymmetric, how many times each thread takes the lock, and the
// mutation, if any.
type rwModelConfig struct {
	asym    bool  // hal's pair reaches every thread: FenceLight is free, FenceHeavy drains every buffer, the lock may bias
	spread  bool  // start with the lane closed and the lines made
	biased  bool  // and biased (asym only)
	reads   uint8 // RLock/RUnlock pairs per reader
	writes  uint8 // Lock/Unlock pairs of the writer
	migrate bool  // reader 1 counts out on another line than it counted in
	// noSlots: readers never spread (slotsPay false: the fallback
	// builds where finding a P's line costs a system call); readers that
	// find others inside stay on the lane.
	noSlots bool
	// oneReader leaves reader 1 out (it starts done).
	oneReader bool
	mut       rwMutation
}

func (c rwModelConfig) String() string {
	s := fmt.Sprintf("asym=%v spread=%v biased=%v reads=%d writes=%d migrate=%v noSlots=%v",
		c.asym, c.spread, c.biased, c.reads, c.writes, c.migrate, c.noSlots)
	if c.oneReader {
		s += " oneReader"
	}
	if c.mut != mutNone {
		s += " mutation=" + rwMutationNames[c.mut]
	}
	return s
}

// Program counters. A reader is inside between RLock and RUnlock: at
// uLane. The writer is inside at wRel.
const (
	pcDone uint8 = iota
	// RLock
	rLane
	rLaneAdd
	rLaneSlow
	rLaneBack
	rOverlap
	rCells
	rState
	rIn
	rRecheck
	rBackout
	rNoLine
	rNoLineCells
	rOwnIn
	rOwnFlag
	rOwnGrow
	rOwnOut
	rTicket
	rAwait
	rParkWaits
	rParkMu
	rParkAdd
	rParkState
	rParkSolo
	rParkWait
	rWLock
	rSlowIn
	rWUnlock
	// RUnlock (uLane: the reader is inside)
	uLane
	uLaneAdd
	uLaneSlow
	uCells
	uOut
	uFlag
	uOwn
	// shared subroutines: wakeWriter, signalWriter, tryBias
	xWakeState
	xWakeSolo
	xSigFence
	xSigSend
	xBiasLoad
	xBiasCAS
	// Lock
	wLock
	wRaiseSolo
	wRaise
	wRevoke
	wSumCells
	wSumOut
	wSumSolo
	wSumIn
	wSpun
	wChan
	wHeavy
	wPark
	// Unlock (wRel: the writer is inside)
	wRel
	wRelState
	wAdmit
	wAdmitMu
	wAdmitN
	wUnlockW
	pcCount
)

var pcNames = [pcCount]string{
	pcDone: "done", rLane: "R-lane", rLaneAdd: "R-lane(add)", rLaneSlow: "R-lane-slow", rLaneBack: "R-lane-back",
	rOverlap: "R-overlap", rCells: "R-cells", rState: "R-state", rIn: "R-in", rRecheck: "R-recheck",
	rBackout: "R-backout", rNoLine: "R-noline", rNoLineCells: "R-noline(cells)", rOwnIn: "R-own-in", rOwnFlag: "R-own-flag", rOwnGrow: "S-grow(own)",
	rOwnOut: "R-own-out", rTicket: "R-ticket", rAwait: "R-await", rParkWaits: "R-park(waits)",
	rParkMu: "R-park(mu)", rParkAdd: "R-park(parked++)", rParkState: "R-park(state)", rParkSolo: "R-park(solo)",
	rParkWait: "R-admitted(parked)", rWLock: "R-park(w)", rSlowIn: "R-park(locks++)", rWUnlock: "R-park(w unlock)",
	uLane: "U-lane(inside)", uLaneAdd: "U-lane(add)", uLaneSlow: "U-lane-slow", uCells: "U-cells",
	uOut: "U-out", uFlag: "U-flag", uOwn: "U-own", xWakeState: "R-wake(state)", xWakeSolo: "R-wake(solo)",
	xSigFence: "G-fence", xSigSend: "G-send", xBiasLoad: "B-load", xBiasCAS: "B-cas", wLock: "W-lock",
	wRaiseSolo: "W-raise-solo", wRaise: "W-raise", wRevoke: "W-revoke", wSumCells: "W-sum-out(cells)",
	wSumOut: "W-sum-out", wSumSolo: "W-sum-solo", wSumIn: "W-sum-in", wSpun: "W-spin", wChan: "W-spin(waitsOf)",
	wHeavy: "W-heavy", wPark: "W-park", wRel: "W-release-solo(inside)", wRelState: "W-release-state",
	wAdmit: "W-admit", wAdmitMu: "W-admit(mu)", wAdmitN: "W-admit(n)",
	wUnlockW: "W-unlock",
}

// rwThread is one thread's registers.
type rwThread struct {
	pc    uint8
	ret   uint8 // where a subroutine (xWake…, xSig…, xBias…) returns
	s     uint8 // the state word as the thread last read it (rlock's s; tryBias's s)
	light bool  // the reader counted in without a locked add
	try   bool  // rlock(true): a failure goes on to the writers' mutex, not rlockSlow
	iter  uint8 // lock/unlock pairs done
	gate  uint8 // mGate when the reader parked: it waits until that changes
	// saw is, while the reader is parked, 1 + the index of the write
	// whose flag it saw (the writer's iter then): Check's ghost for
	// "readers that waited go in before the next writer".
	saw uint8
	// The writer's sums (readersGone): the lines it loaded (cells), the
	// word it is at, and the counts out and in so far; parking says the
	// heavy fence is paid and the next failed sum parks.
	cells   bool
	at      uint8
	out, in uint8
	phase   uint8 // wFirst, wSpinning or wParking
	// idle says [W-raise-solo] found the solo word with no flag and no
	// reader counted: the first sum is then Lock's idleGone, which loads
	// neither cells nor the solo word.
	idle bool
}

// The phases of waitReaders.
const (
	wFirst    = iota // the first readersGone, before waitsOf
	wSpinning        // summing again while spinning
	wParking         // past the heavy fence: a failed sum parks
)

// rwModelState is the whole model's state: memory and three threads
// (readers 0 and 1, the writer 2).
type rwModelState struct {
	m  modelcheck.TSO
	th [3]rwThread
}

const writerThread = 2

// rwModel builds the spec for c.
func rwModel(c rwModelConfig) modelcheck.Spec[rwModelState] {
	var init rwModelState
	if c.spread {
		init.m.Mem[mSolo] = modelClosed
		init.m.Mem[mCells] = 1
		if c.biased {
			init.m.Mem[mState] = rwBiased
		}
	}
	init.th[0].pc, init.th[1].pc, init.th[writerThread].pc = rLane, rLane, wLock
	if c.reads == 0 {
		init.th[0].pc, init.th[1].pc = pcDone, pcDone
	}
	if c.oneReader {
		init.th[1].pc = pcDone
	}
	if c.writes == 0 {
		init.th[writerThread].pc = pcDone
	}
	return modelcheck.Spec[rwModelState]{
		Init:    init,
		Threads: []string{"R0", "R1", "W"},
		Next: func(s rwModelState, yield func(modelcheck.Move, rwModelState)) {
			for t := range s.th {
				if s.th[t].pc == pcDone {
					continue
				}
				move := func(step string, n rwModelState) { yield(modelcheck.Move{Thread: t, Step: step}, n) }
				if t == writerThread {
					c.writerStep(s, move)
				} else {
					c.readerStep(s, t, move)
				}
			}
			s.m.Flushes(func(t int, after modelcheck.TSO) {
				n := s
				n.m = after
				yield(modelcheck.Move{Thread: t, Step: "flush"}, n)
			})
		},
		Check: func(s rwModelState) string {
			w := s.th[writerThread]
			if w.pc != wRel {
				return ""
			}
			for t := range writerThread {
				if s.th[t].pc == uLane {
					return fmt.Sprintf("lost exclusion: the writer and reader R%d are both inside", t)
				}
				// A reader whose admission was made has gone in in number: its
				// ticket is taken, by itself or by a reader in its place.
				r := s.th[t]
				admitted := r.pc == rParkWait && s.m.Mem[mGate] != r.gate
				if saw := r.saw; saw != 0 && saw <= w.iter && !admitted {
					return fmt.Sprintf("overtaken: reader R%d waits since write %d, and write %d is inside", t, saw, w.iter+1)
				}
			}
			// Each ticket is a count in that no reader has made its own
			// yet: the sums cannot balance while one is left.
			if k := s.m.Mem[mTickets]; k != 0 {
				return fmt.Sprintf("overtaken in number: write %d is inside with %d ticket(s) of admitted readers untaken", w.iter+1, k)
			}
			return ""
		},
		Final: func(s rwModelState) bool {
			return s.th[0].pc == pcDone && s.th[1].pc == pcDone && s.th[2].pc == pcDone && s.m.Idle()
		},
		Stuck:    rwStuck,
		Describe: rwDescribe,
	}
}

// rwStuck says who waits for what in a state with no move.
func rwStuck(s rwModelState) string {
	var why []string
	for t, th := range s.th {
		switch th.pc {
		case pcDone:
		case wPark:
			why = append(why, "lost wake-up: the writer is parked for readers and no wake-up is pending")
		case rParkWait:
			why = append(why, fmt.Sprintf("lost wake-up: reader R%d waits for an admission that no writer will make", t))
		case wLock, rWLock:
			why = append(why, fmt.Sprintf("thread %d waits for the writers' mutex", t))
		case rParkMu, wAdmitMu:
			why = append(why, fmt.Sprintf("thread %d waits for waits.mu", t))
		default:
			why = append(why, fmt.Sprintf("thread %d cannot move at %s", t, pcNames[th.pc]))
		}
	}
	return strings.Join(why, "; ")
}

// rwDescribe renders a state for a trace.
func rwDescribe(s rwModelState) string {
	var b strings.Builder
	m := &s.m
	fmt.Fprintf(&b, "solo=%03b state=g%d|%02b locks=%d/%d cells=%d waits=%d pending=%d w=%d parked=%d mu=%d gate=%d tickets=%d lines=",
		m.Mem[mSolo], m.Mem[mState]/rwGen, m.Mem[mState]%rwGen, m.Mem[mLocks], m.Mem[mUnlocks], m.Mem[mCells],
		m.Mem[mWake], m.Mem[mPending], m.Mem[mW], m.Mem[mParked], m.Mem[mMu], m.Mem[mGate], m.Mem[mTickets])
	for i := range mLines {
		fmt.Fprintf(&b, "%d/%d,", m.Mem[mLine+2*i], m.Mem[mLine+2*i+1])
	}
	for t, th := range s.th {
		fmt.Fprintf(&b, " T%d@%s", t, pcNames[th.pc])
		if t == writerThread && th.pc >= wSumCells && th.pc <= wSpun {
			fmt.Fprintf(&b, "(out %d in %d)", th.out, th.in)
		}
	}
	for t := range writerThread + 1 {
		if n := m.N[t]; n > 0 {
			fmt.Fprintf(&b, " buf%d=[", t)
			for _, st := range m.Buf[t][:n] {
				fmt.Fprintf(&b, " %s=%d", rwAddrName(int(st.Addr)), st.Val)
			}
			b.WriteString(" ]")
		}
	}
	return b.String()
}

// rwAddrName names a model address.
func rwAddrName(a int) string {
	if a >= mLine {
		return fmt.Sprintf("line%d.%s", (a-mLine)/2, [2]string{"locks", "unlocks"}[(a-mLine)%2])
	}
	return [...]string{"solo", "state", "locks", "unlocks", "cells", "waits", "pending", "w", "parked", "mu", "gate", "tickets"}[a]
}

// inLine and outLine are the lines reader t counts in and out on.
func (c rwModelConfig) inLine(t int) int { return t }
func (c rwModelConfig) outLine(t int) int {
	if t == 1 && c.migrate {
		return 2
	}
	return t
}

// lightFree reports whether hal.FenceLight is only a compiler barrier.
func (c rwModelConfig) lightFree() bool { return c.asym }

// fenceLight is hal.FenceLight on thread t.
func (c rwModelConfig) fenceLight(m *modelcheck.TSO, t int) {
	if !c.lightFree() {
		m.Fence(t)
	}
}

// fenceHeavy is hal.FenceHeavy on thread t.
func (c rwModelConfig) fenceHeavy(m *modelcheck.TSO, t int) {
	if c.asym {
		m.FenceAll()
	} else {
		m.Fence(t)
	}
}

// failed is where rlockFailed goes: parkReader for rlock(true)
// (rlockSlow's later tries), else rlockSlow, which first tries for a
// ticket.
func failed(th *rwThread) uint8 {
	if th.try {
		return rParkWaits
	}
	return rTicket
}

// takeTicket is the model's [R-ticket] by thread t: the load of
// rwWaits.tickets and the compare-and-swap it feeds, one move (a failed
// compare-and-swap only loops), which reports whether it took one. The
// load of rw.waits before it is left out: waits is made before any
// ticket, so a reader that finds it nil would find no ticket either.
func (c rwModelConfig) takeTicket(m *modelcheck.TSO, t int) bool {
	n := m.Load(t, mTickets)
	if n == 0 && c.mut != mutTicketUnchecked {
		return false
	}
	m.CAS(t, mTickets, n, n-1)
	return true
}

// call enters subroutine pc, returning to ret.
func call(th *rwThread, pc, ret uint8) {
	th.pc, th.ret = pc, ret
}

// sub runs a step of a subroutine shared by the threads (wakeWriter,
// signalWriter, tryBias) and reports whether pc was one.
func (c rwModelConfig) sub(s rwModelState, t int, move func(string, rwModelState)) bool {
	n := s
	m, th := &n.m, &n.th[t]
	switch th.pc {
	case xWakeState: // wakeWriter: writerFlag's first load
		if m.Load(t, mState)&rwWriter != 0 {
			th.pc = xSigFence
		} else {
			th.pc = xWakeSolo
		}
		move("[R-wake]", n)
	case xWakeSolo:
		if m.Load(t, mSolo)&modelWriter != 0 {
			th.pc = xSigFence
		} else {
			th.pc = th.ret
		}
		move("[R-wake]", n)
	case xSigFence: // signalWriter
		if c.mut != mutNoSignalFence {
			m.Fence(t)
		}
		th.pc = xSigSend
		move("[G-fence]", n)
	case xSigSend:
		// A non-blocking send: one that finds a wake-up pending
		// returns having read the channel only, with no locked op.
		if m.Load(t, mWake) != 0 && m.Load(t, mPending) == 0 {
			m.Swap(t, mPending, 1)
		}
		th.pc = th.ret
		move("[G-send]", n)
	case xBiasLoad: // tryBias: the clock may say no at any time
		s := m.Load(t, mState)
		th.pc = th.ret
		move("[B-load] (inhibited)", n)
		if s&(rwWriter|rwBiased) == 0 {
			th.s, th.pc = s, xBiasCAS
			move("[B-load]", n)
		}
	case xBiasCAS:
		m.CAS(t, mState, th.s, th.s|rwBiased)
		th.pc = th.ret
		move("[B-cas]", n)
	default:
		return false
	}
	return true
}

// readerStep makes every move reader t can make in s.
func (c rwModelConfig) readerStep(s rwModelState, t int, move func(string, rwModelState)) {
	if c.sub(s, t, move) {
		return
	}
	n := s
	m, th := &n.m, &n.th[t]
	in, out := mLine+2*c.inLine(t), mLine+2*c.outLine(t)+1
	switch th.pc {
	// RLock
	case rLane: // RLock's load: a closed lane goes to the per-P path
		th.try = false
		if m.Load(t, mSolo) >= modelClosed {
			th.pc = rCells
		} else {
			th.pc = rLaneAdd
		}
		move("[R-lane]", n)
	case rLaneAdd: // the lane's add, from RLock or rlockOpen
		r := m.Add(t, mSolo, modelReader)
		if c.mut == mutLaneIgnoresFlag {
			r &^= modelWriter
		}
		if r < 2*modelReader {
			th.pc = uLane
		} else {
			th.pc = rLaneSlow
		}
		move("[R-lane]", n)
	case rLaneSlow: // rlockLane: the word again
		v := m.Load(t, mSolo)
		switch {
		case v&(modelWriter|modelClosed) != 0:
			th.s, th.pc = v, rLaneBack
		case v&modelCount > modelReader && !c.noSlots:
			// Others inside: laneOverlap may close the lane (its count of
			// overlaps reached), or only count one.
			th.pc = uLane
			move("[R-lane-slow]", n)
			th.pc = rOverlap
		default:
			th.pc = uLane
		}
		move("[R-lane-slow]", n)
	case rLaneBack: // count out again, wake the writer, go on as rlock
		m.Add(t, mSolo, modelLeave)
		next := failed(th)
		if th.s&modelClosed != 0 {
			next = rCells
		}
		if c.mut == mutNoWakeOnLaneBack {
			th.pc = next
		} else {
			call(th, xWakeState, next)
		}
		move("[R-lane-back]", n)
	case rOverlap: // laneOverlap's close: a load and the compare-and-swap it feeds
		v := m.Load(t, mSolo)
		switch {
		case v&modelClosed != 0 || v&modelWriter != 0 && c.mut != mutCloseUnderWriter:
			th.pc = uLane // a writer came, or another closed it: inside
		case m.CAS(t, mSolo, v, v|modelClosed):
			th.pc = rOwnGrow // spreadClosed: the caller is inside
		}
		move("[R-overlap] [S-close]", n)
	case rCells:
		if m.Load(t, mCells) == 0 {
			th.pc = rNoLine
		} else {
			th.pc = rState
		}
		move("[R-cells]", n)
	case rState:
		th.s = m.Load(t, mState)
		switch {
		case th.s&rwWriter != 0:
			th.pc = failed(th)
		case c.mut == mutCountAfterLook:
			th.pc = rRecheck // the look, then the count in
		default:
			th.pc = rIn
		}
		move("[R-state]", n)
	case rIn:
		th.light = th.s&rwBiased != 0 || c.mut == mutLightUnbiased
		if th.light {
			m.Store(t, in, m.Load(t, in)+1)
			if c.mut != mutLightUnbiased {
				c.fenceLight(m, t)
			}
		} else {
			m.Add(t, in, 1) // a locked add: its own [R-fence]
		}
		th.pc = rRecheck
		if c.mut == mutCountAfterLook {
			th.pc = uLane // the look came first: inside
		}
		move("[R-in] [R-fence]", n)
	case rRecheck:
		if c.mut == mutCountAfterLook {
			th.pc = rIn
			if m.Load(t, mState) != th.s {
				th.pc = failed(th) // nothing counted yet
			}
			move("[R-recheck]", n)
			return
		}
		if m.Load(t, mState) != th.s {
			th.pc = rBackout
			move("[R-recheck]", n)
			return
		}
		th.pc = uLane
		move("[R-recheck]", n)
		if th.s&rwBiased == 0 && c.asym {
			call(th, xBiasLoad, uLane) // [R-rebias]
			move("[R-recheck] [R-rebias]", n)
		}
	case rBackout: // a locked add, whatever the count in was
		if th.light && c.mut == mutLightBackout {
			m.Store(t, mLine+2*c.inLine(t)+1, m.Load(t, mLine+2*c.inLine(t)+1)+1)
			c.fenceLight(m, t)
		} else {
			m.Add(t, mLine+2*c.inLine(t)+1, 1)
		}
		if c.mut == mutNoWakeOnBackout {
			th.pc = failed(th)
		} else {
			call(th, xWakeState, failed(th))
		}
		move("[R-backout]", n)
	case rNoLine:
		if m.Load(t, mSolo)&modelClosed == 0 {
			th.pc = rLaneAdd // rlockOpen
		} else {
			th.pc = rNoLineCells
		}
		move("[R-noline]", n)
	case rNoLineCells:
		if m.Load(t, mCells) == 0 {
			th.pc = rOwnIn
		} else {
			th.pc = rCells
		}
		move("[R-noline]", n)
	case rOwnIn:
		m.Add(t, mLocks, 1)
		th.pc = rOwnFlag
		move("[R-own-in]", n)
	case rOwnFlag:
		if m.Load(t, mState)&rwWriter != 0 {
			th.pc = rOwnOut
			move("[R-own-flag]", n)
			return
		}
		th.pc = uLane
		move("[R-own-flag]", n)
		if c.noSlots {
			return
		}
		// Readers overlap on the lock's own counters: spread (the
		// model lets it happen whether they overlap or not).
		th.pc = rOwnGrow
		move("[R-own-flag]", n)
	case rOwnGrow: // spread from rlockOwn: the caller is inside
		m.CAS(t, mCells, 0, 1)
		if c.asym {
			call(th, xBiasLoad, uLane)
		} else {
			th.pc = uLane
		}
		move("[S-grow]", n)
	case rOwnOut:
		m.Add(t, mUnlocks, 1)
		call(th, xWakeState, failed(th))
		move("[R-own-out]", n)
	case rTicket: // rlockSlow: takeTicket, then awaitWriter
		if c.takeTicket(m, t) {
			th.pc = uLane // counted in by the writer that made the ticket
		} else {
			th.pc = rAwait
		}
		move("[R-ticket]", n)
	case rAwait: // awaitWriter: wait for the flag to go down, or give up
		th.try = true
		if m.Load(t, mState)&rwWriter == 0 && m.Load(t, mSolo)&modelWriter == 0 {
			th.pc = rCells
			move("[R-await]", n)
		} else {
			th.pc = rParkWaits
			if c.mut == mutQueueOnW {
				th.pc, th.saw = rWLock, s.th[writerThread].iter+1
			}
			move("[R-await] (gives up)", n)
		}
	case rParkWaits: // parkReader: waitsOf
		m.CAS(t, mWake, 0, 1)
		th.pc = rParkMu
		move("[R-park]", n)
	case rParkMu:
		if m.CAS(t, mMu, 0, 1) {
			th.pc = rParkAdd
			if c.mut == mutParkLookFirst {
				th.pc = rParkState
			}
			move("[R-park]", n)
		}
	case rParkAdd:
		m.Add(t, mParked, 1)
		th.pc = rParkState
		if c.mut == mutParkLookFirst {
			th.gate = m.Load(t, mGate)
			m.Swap(t, mMu, 0)
			th.pc = rParkWait
		}
		move("[R-park]", n)
	case rParkState, rParkSolo: // writerFlag
		up := m.Load(t, mState)&rwWriter != 0
		if th.pc == rParkSolo {
			up = m.Load(t, mSolo)&modelWriter != 0
		}
		switch {
		case up && c.mut == mutParkLookFirst:
			th.pc = rParkAdd
		case up: // wait on admission, which unlocks mu
			th.saw = s.th[writerThread].iter + 1
			th.gate = m.Load(t, mGate)
			m.Swap(t, mMu, 0)
			th.pc = rParkWait
		case th.pc == rParkState:
			th.pc = rParkSolo
		case c.mut == mutParkLookFirst:
			m.Swap(t, mMu, 0)
			th.try, th.pc = true, rCells
		default: // no flag: parked--, unlock mu, rlock(true)
			m.Add(t, mParked, 0xff)
			m.Swap(t, mMu, 0)
			th.try, th.pc = true, rCells
		}
		move("[R-park]", n)
	case rParkWait: // admission.Wait: woken by the admitting writer
		// The wake-up and the takeTicket after it are one move: the
		// count of admissions only grows, and the wake-up writes
		// nothing the protocol reads.
		// Admitted, the reader has gone in in number, by itself or by
		// the reader that took its ticket (Check: tickets).
		if m.Load(t, mGate) != th.gate {
			th.saw = 0
			switch {
			case c.mut == mutAdmittedNoTicket:
				th.pc = uLane
			case c.takeTicket(m, t):
				th.pc = uLane
			default: // another reader took its place: rlock(true), or park again
				th.try, th.pc = true, rCells
			}
			move("[R-admitted] [R-ticket]", n)
		}
	case rWLock: // mutQueueOnW: the slow path before admission
		if m.CAS(t, mW, 0, 1) {
			th.pc = rSlowIn
			move("[R-park]", n)
		}
	case rSlowIn: // counted in under w (countInUnderW): on the word while the lane is open
		if m.Load(t, mSolo) < modelClosed {
			m.Add(t, mSolo, modelReader)
		} else {
			m.Add(t, mLocks, 1)
		}
		th.pc = rWUnlock
		move("[R-park]", n)
	case rWUnlock:
		m.Swap(t, mW, 0)
		th.pc, th.saw = uLane, 0
		move("[R-park]", n)

	// RUnlock
	case uLane: // RUnlock's load: a closed lane goes to the per-P path
		if v := m.Load(t, mSolo); v >= modelClosed && c.mut == mutClosedOutOnWord && v&modelCount != 0 {
			// The protocol before the word's count stopped moving at
			// the close: any RUnlock could take a reader off it.
			if m.CAS(t, mSolo, v, v-modelReader) {
				c.endRead(th)
			}
		} else if v >= modelClosed {
			th.pc = uCells
		} else {
			th.pc = uLaneAdd
		}
		move("[U-lane]", n)
	case uLaneAdd:
		if m.Add(t, mSolo, modelLeave) < modelWriter {
			c.endRead(th)
		} else {
			th.pc = uLaneSlow
		}
		move("[U-lane]", n)
	case uLaneSlow: // runlockLane: the word's test for an underflow, then wakeWriter
		m.Load(t, mSolo)
		call(th, xWakeState, 0)
		c.afterRead(th)
		move("[U-lane-slow]", n)
	case uCells:
		if m.Load(t, mCells) == 0 {
			th.pc = uOwn
		} else {
			th.pc = uOut
		}
		move("[U-cells]", n)
	case uOut:
		m.Store(t, out, m.Load(t, out)+1)
		c.fenceLight(m, t)
		th.pc = uFlag
		move("[U-out] [U-fence]", n)
	case uFlag:
		if m.Load(t, mState)&rwWriter != 0 && c.mut != mutNoWakeOnLeave {
			call(th, xSigFence, 0)
			c.afterRead(th)
		} else {
			c.endRead(th)
		}
		move("[U-flag]", n)
	case uOwn:
		m.Add(t, mUnlocks, 1)
		call(th, xWakeState, 0)
		c.afterRead(th)
		move("[U-own]", n)
	default:
		panic("reader at " + pcNames[th.pc])
	}
}

// endRead ends an RUnlock: the next RLock, or done.
func (c rwModelConfig) endRead(th *rwThread) {
	th.iter++
	th.pc = rLane
	if th.iter == c.reads {
		th.pc = pcDone
	}
}

// afterRead sets the return of the subroutine an RUnlock ends with to
// what endRead would go to.
func (c rwModelConfig) afterRead(th *rwThread) {
	th.iter++
	th.ret = rLane
	if th.iter == c.reads {
		th.ret = pcDone
	}
}

// writerStep makes every move the writer can make in s.
func (c rwModelConfig) writerStep(s rwModelState, move func(string, rwModelState)) {
	const t = writerThread
	n := s
	m, th := &n.m, &n.th[t]
	switch th.pc {
	case wLock:
		if m.CAS(t, mW, 0, 1) {
			th.pc = wRaiseSolo
			move("[W-lock]", n)
		}
	case wRaiseSolo:
		// raiseIdle and raise's loop: one load and the compare-and-swap
		// it feeds. A raise that found no reader counted on the word is
		// raiseIdle's, whose first sum is idleGone.
		v := m.Load(t, mSolo)
		switch {
		case v&modelClosed != 0 && c.mut != mutRaiseSoloClosed:
			th.pc = wRaise
		case m.CAS(t, mSolo, v, v|modelWriter):
			c.startSum(th, wFirst)
			th.idle = v&modelCount == 0 || c.mut == mutIdleWithReader
		}
		move("[W-raise-solo]", n)
	case wRaise:
		st := m.Load(t, mState)
		ns := st | rwWriter
		if st&rwBiased != 0 {
			ns = (st+rwGen)&^rwBiased | rwWriter
		}
		if m.CAS(t, mState, st, ns) {
			if st&rwBiased != 0 {
				th.pc = wRevoke
			} else {
				c.startSum(th, wFirst)
			}
		}
		move("[W-raise]", n)
	case wRevoke:
		if c.mut != mutNoRevokeFence {
			c.fenceHeavy(m, t)
		}
		c.startSum(th, wFirst)
		move("[W-revoke]", n)
	case wSumCells:
		th.cells = !th.idle && m.Load(t, mCells) != 0
		th.pc = wSumOut
		if c.mut == mutInsFirst {
			th.pc = wSumSolo
		}
		move("[W-sum-out]", n)
	case wSumOut: // at 0: rw.unlocks, at i+1: line i's
		addr := mUnlocks
		if th.at > 0 {
			addr = mLine + 2*int(th.at-1) + 1
		}
		th.out += m.Load(t, addr)
		th.at++
		if !th.cells || int(th.at) == mLines+1 {
			th.at = 0
			th.pc = wSumSolo
			if c.mut == mutInsFirst {
				th.pc = wSpun
			}
		}
		move("[W-sum-out]", n)
	case wSumSolo:
		if c.mut != mutNoSoloInSum && !th.idle {
			th.in = (m.Load(t, mSolo) & modelCount) / modelReader
		}
		th.pc = wSumIn
		move("[W-sum-solo]", n)
	case wSumIn:
		addr := mLocks
		if th.at > 0 {
			addr = mLine + 2*int(th.at-1)
		}
		th.in += m.Load(t, addr)
		th.at++
		if !th.cells || int(th.at) == mLines+1 {
			th.at = 0
			th.pc = wSpun
			if c.mut == mutInsFirst {
				th.pc = wSumOut
			}
		}
		move("[W-sum-in]", n)
	case wSpun: // the sums' verdict
		switch {
		case th.in == th.out:
			th.pc = wRel
			move("[W-spin] (gone)", n)
		case th.phase == wParking:
			th.pc = wPark
			move("[W-park]", n)
		case th.phase == wFirst:
			th.pc = wChan
			move("[W-spin]", n)
		default: // spun: stop spinning
			th.pc = wHeavy
			move("[W-spin] (stops spinning)", n)
		}
	case wChan: // waitsOf, then spin: sum again, or not
		// The sums are loads only, so one sum while spinning stands
		// for any number: a failed one leaves memory as it was, and
		// the one after it is one the writer could make at once.
		m.CAS(t, mWake, 0, 1)
		c.startSum(th, wSpinning)
		move("[W-spin] (waitsOf)", n)
		th.pc = wHeavy
		move("[W-spin] (waitsOf, no spinning)", n)
	case wHeavy:
		// Not while the flag is in the solo word: every reader then
		// counts out with a locked instruction.
		if m.Load(t, mSolo)&modelWriter == 0 && c.mut != mutNoHeavyFence {
			c.fenceHeavy(m, t)
		}
		c.startSum(th, wParking)
		move("[W-heavy]", n)
	case wPark: // the receive: parked until a wake-up is pending
		if m.Load(t, mPending) != 0 {
			m.Swap(t, mPending, 0)
			c.startSum(th, wParking)
			move("[W-park] (woken)", n)
		}
	case wRel: // inside; release
		// Unlock's load and compare-and-swap (releaseSolo's, in release).
		v := m.Load(t, mSolo)
		switch {
		case v&modelWriter == 0:
			th.pc = wRelState
		case c.mut == mutReleasePlain:
			m.Store(t, mSolo, v&^modelWriter)
			th.pc = wAdmit
		case m.CAS(t, mSolo, v, v&^modelWriter):
			th.pc = wAdmit
		}
		move("[W-release] [W-release-solo]", n)
	case wRelState:
		if v := m.Load(t, mState)&^rwWriter + rwGen; c.mut == mutReleasePlain {
			m.Store(t, mState, v)
		} else {
			m.Swap(t, mState, v)
		}
		th.pc = wAdmit
		move("[W-release-state]", n)
	case wAdmit:
		th.pc = wUnlockW
		if m.Load(t, mParked) != 0 && c.mut != mutNoAdmit {
			th.pc = wAdmitMu
		}
		move("[W-admit]", n)
	case wAdmitMu:
		if m.CAS(t, mMu, 0, 1) {
			th.pc = wAdmitN
			move("[W-admit]", n)
		}
	case wAdmitN: // under mu: count the parked readers in, make their tickets, count the admission, unlock mu (then wake them)
		// One move, though takeTicket does not take mu: a reader's
		// [R-ticket] between the adds sees what it sees before them,
		// since only a writer under w reads locks.
		if p := m.Load(t, mParked); p > 0 {
			m.Swap(t, mParked, 0)
			if m.Load(t, mSolo) < modelClosed { // few enough: on the word while the lane is open
				m.Add(t, mSolo, p*modelReader)
			} else {
				m.Add(t, mLocks, p)
			}
			if c.mut != mutNoTickets {
				m.Add(t, mTickets, p)
			}
			m.Swap(t, mGate, m.Load(t, mGate)+1)
		}
		m.Swap(t, mMu, 0)
		th.pc = wUnlockW
		move("[W-admit]", n)
	case wUnlockW:
		m.Swap(t, mW, 0)
		th.iter++
		th.pc = wLock
		if th.iter == c.writes {
			th.pc = pcDone
		}
		move("[W-unlock]", n)
	default:
		panic("writer at " + pcNames[th.pc])
	}
}

// startSum begins a readersGone in waitReaders' phase.
func (c rwModelConfig) startSum(th *rwThread, phase uint8) {
	th.pc, th.at, th.in, th.out, th.cells, th.phase, th.idle = wSumCells, 0, 0, 0, false, phase, false
}
