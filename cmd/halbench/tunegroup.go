package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// Ops that run all hardware variants or all portable ones (hal's 128-bit
// ops: cas128, load128 and store128 share the words of a Uint128, and a
// portable variant of one takes the others to the striped locks with it).
// tune never judges such an op's portable variant alone: a store that is
// faster under the striped lock takes the loads and CASes along, which can
// make the group's loads slower than the store gained (a load under the
// striped lock takes a lock where the hardware load takes none). It compares "all hardware"
// (the feature choices) with "all portable" on a workload that mixes the
// group's ops and on each op alone, and departs to portable only when the
// mix gains by more than -min-gain and no op of the group is significantly
// slower. Choices among one op's hardware variants stay per op.

// tuneGroup is one such group: its measurements and the decision.
type tuneGroup struct {
	// Ops are the group's ops, in hal's order.
	Ops []string `json:"ops"`
	// Hardware is what the "hardware" side runs: each op's feature
	// choice.
	Hardware map[string]string `json:"hardware"`
	// Bodies name what was timed, each on one word shared by the
	// goroutines: "mix" (per iteration a Load, a CompareAndSwap of what
	// it expects, a Store), then each op alone.
	Bodies   []string           `json:"bodies"`
	Results  []*tuneGroupResult `json:"results,omitempty"`
	Error    string             `json:"error,omitempty"`
	Decision tuneDecision       `json:"decision"`

	bodies map[string]func(threads int) func(*testing.B)
}

// tuneGroupResult is one side (hardware or portable) of one body at one
// thread count.
type tuneGroupResult struct {
	Side        string  `json:"side"`
	Body        string  `json:"body"`
	Threads     int     `json:"threads"`
	NsPerOp     summary `json:"ns_per_op"`
	CyclesPerOp summary `json:"cycles_per_op"`
	// Ratio is portable over hardware ns/op; nil on the hardware side.
	Ratio   *ratioJSON `json:"ratio_to_hardware,omitempty"`
	Samples []sample   `json:"samples"`
}

// Sides of a group.
const (
	sideHardware = "hardware"
	sidePortable = "portable"
)

// name is the group's name in benchmark names and text: "cas128+load128+store128".
func (g *tuneGroup) name() string { return strings.Join(g.Ops, "+") }

func (g *tuneGroup) result(side, body string, threads int) *tuneGroupResult {
	return find(g.Results, func(r *tuneGroupResult) bool { return r.Side == side && r.Body == body && r.Threads == threads })
}

func (g *tuneGroup) has(op string) bool { return slices.Contains(g.Ops, op) }

// groupBenchName names a group contestant.
func groupBenchName(group, side, body string, threads int) string {
	return fmt.Sprintf("Tune/group=%s/side=%s/body=%s/threads=%d", group, side, body, threads)
}

// discoverGroups finds, from hal at run time, the ops that a portable
// variant takes along: for each op whose feature choice is not portable
// and whose portable variant runs, force the portable variant and see
// which other ops' choices change with it.
func discoverGroups(choices map[string]hal.Choice) []*tuneGroup {
	var out []*tuneGroup
	seen := map[string]bool{}
	for _, op := range haltool.Ops() {
		if seen[op] || choices[op].Variant == portableVariant {
			continue
		}
		if ok, _ := haltool.Runnable(op, portableVariant); !ok {
			continue
		}
		before := selectedMap()
		restore, err := haltool.Force(op, portableVariant)
		if err != nil {
			continue
		}
		after := selectedMap()
		restore()
		var ops []string
		for _, o := range haltool.Ops() {
			if o == op || after[o] != before[o] {
				ops = append(ops, o)
			}
		}
		if len(ops) < 2 {
			continue
		}
		g := &tuneGroup{Ops: ops, Hardware: map[string]string{}}
		for _, o := range ops {
			seen[o] = true
			g.Hardware[o] = choices[o].Variant
			if choices[o].Variant == portableVariant {
				g.Error = fmt.Sprintf("%s's feature choice is already portable: nothing to compare", o)
			}
		}
		out = append(out, g)
	}
	return out
}

// portableVariant is the name of every op's portable Go variant.
const portableVariant = "portable"

func selectedMap() map[string]string {
	m := map[string]string{}
	for _, c := range hal.Selected() {
		m[c.Op] = c.Variant
	}
	return m
}

// attachGroupBodies gives g its bodies: today the 128-bit group's, through
// Uint128's methods as a user calls them.
func attachGroupBodies(g *tuneGroup) {
	if !slices.Equal(g.Ops, []string{"cas128", "load128", "store128"}) {
		if g.Error == "" {
			g.Error = "no mixed workload for this group: nothing to time"
		}
		return
	}
	g.Bodies = []string{"mix", "load128", "store128", "cas128"}
	g.bodies = map[string]func(int) func(*testing.B){
		"mix": func(t int) func(*testing.B) {
			return func(b *testing.B) {
				u := new(tuneWord)
				cyclebench.RunLoop(b, t, func(w, n int) {
					var lo, hi uint64
					for i := range n {
						lo, hi = u.U128.Load()
						u.U128.CompareAndSwap(lo, hi, lo+1, hi)
						u.U128.Store(uint64(i), uint64(w))
					}
					tuneSink.Add(lo ^ hi)
				})
			}
		},
		"load128":  func(t int) func(*testing.B) { return api128Body("load128", t) },
		"store128": func(t int) func(*testing.B) { return api128Body("store128", t) },
		"cas128":   func(t int) func(*testing.B) { return api128Body("cas128", t) },
	}
}

// api128Body times one 128-bit op through Uint128's method on one word
// shared by threads goroutines.
func api128Body(op string, threads int) func(*testing.B) {
	return func(b *testing.B) {
		u := new(tuneWord)
		switch op {
		case "load128":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				var s uint64
				for range n {
					lo, hi := u.U128.Load()
					s += lo ^ hi
				}
				tuneSink.Add(s)
			})
		case "store128":
			cyclebench.RunLoop(b, threads, func(w, n int) {
				for i := range n {
					u.U128.Store(uint64(i), uint64(w))
				}
			})
		case "cas128":
			cyclebench.RunLoop(b, threads, func(_, n int) {
				lo, hi := u.U128.Load()
				for range n {
					if u.U128.CompareAndSwap(lo, hi, lo+1, hi) {
						lo++
					} else {
						lo, hi = u.U128.Load()
					}
				}
			})
		default:
			b.Fatalf("no Uint128 body for %s", op)
		}
	}
}

// groupContestants returns g's benchmarks: each side, body and thread
// count, with the side forced while it runs (forcing one op of the group
// sets all of them, to the feature choices or to portable).
func groupContestants(g *tuneGroup, threads []int) []suite.Benchmark {
	var out []suite.Benchmark
	for _, side := range []string{sideHardware, sidePortable} {
		op, variant := g.Ops[0], g.Hardware[g.Ops[0]]
		if side == sidePortable {
			variant = portableVariant
		}
		for _, body := range g.Bodies {
			for _, t := range threads {
				out = append(out, suite.Benchmark{Name: groupBenchName(g.name(), side, body, t), Section: "Tune/group=" + g.name(), Threads: t,
					F: forced(op, variant, g.bodies[body](t))})
			}
		}
	}
	return out
}

// analyzeGroup fills in g's results from the samples.
func analyzeGroup(g *tuneGroup, threads []int, samples map[string][]sample) {
	g.Results = nil
	for _, side := range []string{sideHardware, sidePortable} {
		for _, body := range g.Bodies {
			for _, t := range threads {
				ss := samples[groupBenchName(g.name(), side, body, t)]
				if len(ss) == 0 {
					continue
				}
				r := &tuneGroupResult{Side: side, Body: body, Threads: t, Samples: ss, NsPerOp: summarize(nsOf(ss)), CyclesPerOp: cyclesOf(ss)}
				if h := g.result(sideHardware, body, t); side == sidePortable && h != nil {
					r.Ratio = ratioOf(nsOf(h.Samples), nsOf(ss))
				}
				g.Results = append(g.Results, r)
			}
		}
	}
}

// decideGroup is the group's recommendation: portable for all its ops
// only if, on the mix, portable gains by more than -min-gain with 95%
// confidence (at every thread count of the workload for uncontended and
// contended, at one at least and a loss at none for mixed) and no op of
// the group alone is significantly slower under portable at any thread
// count of the workload: a departure never makes one of the ops it takes
// along slower.
func decideGroup(g *tuneGroup, cfg *tuneConfig) tuneDecision {
	keep := tuneDecision{Variant: sideHardware}
	if g.Error != "" {
		keep.Why = "keep the hardware variants: " + g.Error
		return keep
	}
	ts := workloadThreads(cfg)
	var mixParts, lossParts []string
	var ratios []*ratioJSON
	for _, t := range ts {
		var ratio *ratioJSON
		if r := g.result(sidePortable, "mix", t); r != nil && r.Ratio != nil {
			ratio = r.Ratio
			mixParts = append(mixParts, fmt.Sprintf("%s at %d", ratioShort(*r.Ratio), t))
		}
		ratios = append(ratios, ratio)
	}
	ok, _, _, missing := tally(cfg, ratios)
	for _, body := range g.Bodies[1:] {
		for _, t := range ts {
			r := g.result(sidePortable, body, t)
			if r == nil || r.Ratio == nil || math.IsNaN(float64(r.Ratio.Lo)) {
				missing++
				continue
			}
			if r.Ratio.Significant && float64(r.Ratio.Ratio) > 1 {
				lossParts = append(lossParts, fmt.Sprintf("%s %s at %d", body, ratioShort(*r.Ratio), t))
			}
		}
	}
	mix := "the mix (Load, CompareAndSwap, Store) under portable: " + strings.Join(mixParts, ", ") + " of hardware"
	switch {
	case missing > 0:
		keep.Why = "keep the hardware variants: no verdict, too few samples (" + mix + ")"
	case len(lossParts) > 0:
		keep.Why = fmt.Sprintf("keep the hardware variants: portable would take %s to the striped locks, and %s significantly slower there (%s)",
			strings.Join(g.Ops, ", "), strings.Join(lossParts, "; "), mix)
	case !ok:
		keep.Why = fmt.Sprintf("keep the hardware variants: %s; no gain over %.0f%% proven for the %s workload", mix, 100*cfg.minGain, cfg.workload)
	default:
		return tuneDecision{Variant: sidePortable, Change: true,
			Why: fmt.Sprintf("use portable for %s: %s, faster by more than %.0f%% with %v%% confidence, and none of the ops alone significantly slower",
				strings.Join(g.Ops, ", "), mix, 100*cfg.minGain, confidence)}
	}
	return keep
}
