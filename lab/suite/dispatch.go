package suite

import (
	"sync/atomic"
	"testing"
	"time"

	haldispatch "github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
)

// The binding modes: the ways a caller can reach one op. Every body below
// writes its op inline in the measuring loop, so two modes of one op differ
// only in the binding.
const (
	// ModeAPI calls hal's exported function exactly as a user does,
	// whatever its binding in this build (haltool.Binding: the inlined
	// intrinsic, flag-reading assembly or single-variant assembly).
	ModeAPI = "api"
	// ModeInline uses the sync/atomic intrinsic, which the compiler
	// inlines: the floor, where one exists.
	ModeInline = "inline"
	// ModeDirect calls the chosen variant's assembly in hal/direct: a
	// direct ABI0 call, no flag, no wrapper.
	ModeDirect = "direct"
	// ModeFlag calls assembly that reads a one-byte flag and branches to
	// the variant: hal's exported function where the op has several
	// variants, else lab/probe's flag probe (<Op>Flagged), the one
	// variant behind the same test.
	ModeFlag = "flag"
	// ModeTable calls the func value in haltool.Table(): an indirect call,
	// plus the ABI wrapper in front of an assembly function.
	ModeTable = "table"
	// ModeClosure calls a func value that is a Go closure over the
	// intrinsic (or, for ops without one, over hal's exported function):
	// an indirect call without the ABI wrapper.
	ModeClosure = "closure"
	// ModeStatic calls hal/direct's Static<Op>: what hal's exported
	// function is in a gohal_static build, the variant fixed at compile
	// time from GOAMD64/GOARM64, with no flag.
	ModeStatic = "static"
	// ModeGeneric is portable Go that needs no special instruction:
	// fetch-add and swap as a CAS loop, the 128-bit CAS under a mutex,
	// pause as runtime.Gosched, the counter as the monotonic clock (what
	// hal's portable build does).
	ModeGeneric = "generic"
)

// DispatchOps are the ops the Dispatch and Contended sections measure,
// and DispatchModes their modes, in the order of docs/reference.md's table.
var (
	DispatchOps   = []string{"fetchadd64", "cas64", "swap64", "pause", "loadacquire64", "cas128", "load128", "store128", "cycles", "cpu", "fetchor64", "fetchand64"}
	DispatchModes = []string{ModeAPI, ModeInline, ModeDirect, ModeFlag, ModeTable, ModeClosure, ModeStatic, ModeGeneric}
)

// ContendedOps are the ops measured under contention: those that work on
// a shared word. Pause and the cycle counter touch no shared memory, so
// running them on more goroutines than CPUs measures the scheduler.
//
// load128mixed is a Contended case only: goroutine 0 stores the 128-bit
// word, the others load it.
var ContendedOps = []string{"fetchadd64", "cas64", "swap64", "loadacquire64", "cas128", "load128", "load128mixed"}

// Absent returns why op has no benchmark in mode in this build, or "" if
// it has one.
func Absent(op, mode string) string {
	switch {
	case mode == ModeInline && (op == "pause" || op == "cas128" || op == "cycles" || op == "cpu"):
		return "no sync/atomic intrinsic"
	case mode == ModeInline && (op == "load128" || op == "store128" || op == "load128mixed"):
		return "no sync/atomic intrinsic"
	case op == "load128mixed" && mode != ModeAPI && mode != ModeDirect && mode != ModeGeneric:
		return "the mixed case is measured in the api, direct and generic modes only"
	case op == "cpu" && (mode == ModeDirect || mode == ModeFlag || mode == ModeStatic):
		return "measured per variant instead (mode=<variant>, lab/suite/cpu.go); a static build binds the Go variant (mode=generic)"
	case mode == ModeGeneric && (op == "cas64" || op == "loadacquire64"):
		return "the portable fallback is the inline sync/atomic call itself"
	case mode == ModeDirect || mode == ModeFlag || mode == ModeStatic:
		return archAbsent(op, mode)
	}
	return ""
}

// The direct, flag and static modes depend on the GOARCH: gen writes
// their bodies, from the op spec and its list of measured ops
// (gen/backend/labsuite.go), into zdispatch_<arch>.go, with haveAsm,
// asmVariants and archAbsent; zdispatch_noasm.go is the build without
// hal/direct's assembly.

// asmVariant is one assembly variant of an op in hal/direct, and the CPU
// features (dispatch.Feature*) it requires.
type asmVariant struct {
	name     string
	requires []string
}

// directVariant is the assembly variant of op the direct mode calls: the
// one hal chose, or, where hal chose a Go variant (a race build has only
// those), the first assembly variant this CPU runs; "" for none. So
// GOHAL=<op>=<variant> measures that variant.
func directVariant(op string) string {
	chosen := variant(op)
	for _, v := range asmVariants[op] {
		if v.name == chosen {
			return chosen
		}
	}
	host := haldispatch.Host()
next:
	for _, v := range asmVariants[op] {
		for _, f := range v.requires {
			if !host.Has(f) {
				continue next
			}
		}
		return v.name
	}
	return ""
}

func init() {
	for _, sec := range []string{"Dispatch", "Contended"} {
		for _, l := range [][2]string{
			{ModeAPI, "hal's exported function as a user calls it, whatever its binding (haltool.Binding)"},
			{ModeInline, "the sync/atomic intrinsic, inlined by the compiler"},
			{ModeDirect, "the chosen variant's assembly in hal/direct, called directly (ABI0, no dispatch)"},
			{ModeFlag, "assembly that tests a one-byte flag first: hal's entry for a multi-variant op, else probe.<Op>Flagged"},
			{ModeTable, "haltool.Table()'s func value: indirect call + ABI0 wrapper"},
			{ModeClosure, "a table entry that is a Go closure over the intrinsic (or over hal's function): indirect call, no wrapper"},
			{ModeStatic, "direct.Static<Op>: the variant a gohal_static build compiles in, no flag"},
			{ModeGeneric, "portable Go: CAS loop for fetch-add/swap, mutex for cas128, Gosched for pause, monotonic clock for cycles"},
		} {
			AddLegend(Legend{Section: sec, Key: "mode=" + l[0], Text: l[1]})
		}
	}
	addModes()
	addArchModes()
	add128()
	flushDispatch()
}

// variant returns the variant hal chose for op.
func variant(op string) string {
	for _, c := range hal.Selected() {
		if c.Op == op {
			return c.Variant
		}
	}
	return ""
}

// closures is a dispatch table like haltool.Table() whose entries are Go
// closures (the 128-bit ones over hal.Uint128's methods), named as its
// rows. It is a package variable, so the compiler cannot see through the
// func values: every call is indirect.
var closures = struct {
	FetchAddUint64       func(addr *uint64, delta uint64) uint64
	CompareAndSwapUint64 func(addr *uint64, old, new uint64) bool
	SwapUint64           func(addr *uint64, new uint64) uint64
	LoadAcquireUint64    func(addr *uint64) uint64
	Pause                func()
	CompareAndSwap128    func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) bool
	Load128              func(u *hal.Uint128) (lo, hi uint64)
	Store128             func(u *hal.Uint128, lo, hi uint64)
	Cycles               func() uint64
	CPU                  func() int
	FetchOrUint64        func(addr *uint64, mask uint64) uint64
	FetchAndUint64       func(addr *uint64, mask uint64) uint64
}{
	FetchAddUint64:       func(addr *uint64, delta uint64) uint64 { return atomic.AddUint64(addr, delta) - delta },
	CompareAndSwapUint64: func(addr *uint64, old, new uint64) bool { return atomic.CompareAndSwapUint64(addr, old, new) },
	SwapUint64:           func(addr *uint64, new uint64) uint64 { return atomic.SwapUint64(addr, new) },
	LoadAcquireUint64:    func(addr *uint64) uint64 { return atomic.LoadUint64(addr) },
	Pause:                func() { hal.Pause() },
	CompareAndSwap128: func(u *hal.Uint128, oldLo, oldHi, newLo, newHi uint64) bool {
		return u.CompareAndSwap(oldLo, oldHi, newLo, newHi)
	},
	Load128:        func(u *hal.Uint128) (uint64, uint64) { return u.Load() },
	Store128:       func(u *hal.Uint128, lo, hi uint64) { u.Store(lo, hi) },
	Cycles:         func() uint64 { return hal.Cycles() },
	CPU:            func() int { return hal.CPU() },
	FetchOrUint64:  func(addr *uint64, mask uint64) uint64 { return atomic.OrUint64(addr, mask) },
	FetchAndUint64: func(addr *uint64, mask uint64) uint64 { return atomic.AndUint64(addr, mask) },
}

// genericEpoch anchors genericCycles.
var genericEpoch = time.Now()

// dispatchBaseline is the mode each op's ratios are taken against: the
// intrinsic where there is one, else hal's function.
var dispatchBaseline = map[string]string{
	"fetchadd64":    ModeInline,
	"cas64":         ModeInline,
	"swap64":        ModeInline,
	"loadacquire64": ModeInline,
	"pause":         ModeAPI,
	"cas128":        ModeAPI,
	"load128":       ModeAPI,
	"store128":      ModeAPI,
	"load128mixed":  ModeAPI,
	"cycles":        ModeAPI,
	"cpu":           ModeAPI,
	"fetchor64":     ModeInline,
	"fetchand64":    ModeInline,
}

// DispatchName returns the name of the uncontended benchmark of op in
// mode, e.g. "Dispatch/op=fetchadd64/mode=api".
func DispatchName(op, mode string) string { return "Dispatch/op=" + op + "/mode=" + mode }

// ContendedName returns the name of the contended benchmark of op in mode
// at the given thread count (0 for the "threads=*" pattern).
func ContendedName(op, mode string, threads int) string {
	n := "Contended/op=" + op + "/mode=" + mode + "/" + ThreadsWildcard
	if threads > 0 {
		n = withThreads(n, threads)
	}
	return n
}

// staged holds the Dispatch and Contended benchmarks until flushDispatch
// registers them in table order: by op, then by mode, each in the order of
// DispatchOps and DispatchModes, all of Dispatch before Contended.
var staged = map[string]Bench{}

func dispatch(op, mode string, f func(b *testing.B)) {
	stage(Bench{Name: DispatchName(op, mode), Baseline: DispatchName(op, dispatchBaseline[op]), F: f})
}

func contended(op, mode string, full bool, f func(b *testing.B, threads int)) {
	stage(Bench{Name: ContendedName(op, mode, 0), Baseline: ContendedName(op, dispatchBaseline[op], 0), Full: full, Threaded: f})
}

func stage(b Bench) {
	if _, dup := staged[b.Name]; dup {
		panic("suite: " + b.Name + " registered twice")
	}
	staged[b.Name] = b
}

// flushDispatch registers the staged benchmarks in table order. A staged
// name outside DispatchOps × DispatchModes (and cpu's CPUVariantModes) is
// a bug.
func flushDispatch() {
	for _, section := range []struct {
		name func(op, mode string) string
		ops  []string
	}{
		{DispatchName, DispatchOps},
		{func(op, mode string) string { return ContendedName(op, mode, 0) }, ContendedOps},
	} {
		name := section.name
		for _, op := range section.ops {
			for _, mode := range append(DispatchModes[:len(DispatchModes):len(DispatchModes)], CPUVariantModes...) {
				if b, ok := staged[name(op, mode)]; ok {
					Add(b)
					delete(staged, name(op, mode))
				}
			}
		}
	}
	for n := range staged {
		panic("suite: " + n + ": op or mode not in DispatchOps (ContendedOps)/DispatchModes")
	}
}

// The generic mode's fetch-and-ops (labShapes' Generic): portable Go, a CAS
// loop from the value loaded, as hal's portable build runs them; each
// inlines into its body's loop. The masks of fetchor64 and fetchand64 are
// loop-invariant: the word settles at once (or: all ones; and:
// 0x5555...), which is what a flag word sees, and the cost measured is the
// read-modify-write itself.

const (
	orMask  = 0x8000000000000001
	andMask = 0x5555555555555555
)

func casAdd(addr *uint64, d uint64) uint64 {
	for {
		if old := atomic.LoadUint64(addr); atomic.CompareAndSwapUint64(addr, old, old+d) {
			return old
		}
	}
}

func casSwap(addr *uint64, new uint64) uint64 {
	for {
		if old := atomic.LoadUint64(addr); atomic.CompareAndSwapUint64(addr, old, new) {
			return old
		}
	}
}

func casOr(addr *uint64, mask uint64) uint64 {
	for {
		if old := atomic.LoadUint64(addr); atomic.CompareAndSwapUint64(addr, old, old|mask) {
			return old
		}
	}
}

func casAnd(addr *uint64, mask uint64) uint64 {
	for {
		if old := atomic.LoadUint64(addr); atomic.CompareAndSwapUint64(addr, old, old&mask) {
			return old
		}
	}
}

// genericCycles is the generic cycle counter: nanoseconds of the monotonic
// clock since genericEpoch, as in hal's portable build.
func genericCycles() uint64 { return uint64(time.Since(genericEpoch)) }
