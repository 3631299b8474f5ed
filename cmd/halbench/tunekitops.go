package main

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/internal/pin"
	"github.com/gohal/gohal/lab/suite"
)

// Which kit types a GOHAL line can slow down, and what tune's check
// re-measures them on (tunecheck.go).

// kitTypeOps names, for every type the kit questions and tune's check
// compare, the hal ops its code runs in this build: the one list that
// says which kit types a GOHAL line can slow down. A type of the standard
// library runs none. TestKitTypeOpsCoverSource derives each gohal type's
// ops from its source, for this build and the fallback build, and fails
// when the type runs one its list does not name.
var kitTypeOps = kitTypeOpsFor(pin.Pinned)

// kitTypeOpsFor is kitTypeOps for a build whose pins hold the P (pinned)
// or ask hal.CPU (the fallback build: gohal_nolinkname, purego), which a
// spin lock's parked waiter then runs.
func kitTypeOpsFor(pinned bool) map[string][]string {
	tas := []string{"cas32", "fetchadd32", "loadacquire32", "pause", "spinlock32", "storerelease32"}
	if !pinned {
		tas = append(tas, "cpu")
	}
	return map[string][]string{
		"sync.Mutex":   nil,
		"spin.TAS":     tas,
		"spin.TTAS":    tas,
		"spin.Asm":     tas,
		"spin.Backoff": tas,
		"spin.Ticket":  {"cas32", "fetchadd32", "loadacquire32", "pause", "storerelease32", "swap32"},
		"spin.MCS":     {"cas32", "loadacquire32", "pause", "storerelease32"},

		"atomic.Int64":     nil,
		"counter.FetchAdd": {"cas64", "fetchadd64", "loadacquire64"},
		"counter.CASLoop":  {"cas64", "loadacquire64"},
		"counter.Striped":  {"cas64", "fetchadd64", "loadacquire64"},
		"counter.Adder":    {"loadacquire32", "loadacquire64", "storerelease32"},
		// percpu's types read hal.CPU's choice in every build (whether a
		// slot is worth finding).
		"percpu.Counter": {"cpu", "fetchadd64", "loadacquire64", "storerelease64"},

		"sync.RWMutex": nil,
		// The pair (fenceheavy) sets both FenceLight and FenceHeavy, and
		// whether the lock biases toward readers at all.
		"percpu.RWMutex": {"cas64", "cpu", "fence", "fenceheavy", "loadacquire32", "loadacquireuintptr", "pause",
			"storerelease32", "storerelease64", "storereleaseuintptr", "swap64"},

		"percpu.Cache": {"cpu", "loadacquire32"},
		"sync.Pool":    nil,

		"hal.Uint128": {"cas128", "load128", "store128"},
	}
}

// kitOtherKinds are gohal's types that run hal ops but answer no kit
// question (suite.Questions), by the kind= of the suite benchmarks that
// time them: tune's check re-measures them too, on their section's
// workload, since a GOHAL line reaches them as much as the contestants.
var kitOtherKinds = map[string]string{"counter.FetchAdd": "Counter/kind=fetchadd", "counter.CASLoop": "Counter/kind=casloop",
	"counter.Striped": "Counter/kind=striped"}

// kitUint128Mix names the mixed Uint128 workload (a Load, a
// CompareAndSwap, a Store per iteration) that tune's check re-measures
// for hal.Uint128.
func kitUint128Mix(threads int) string { return fmt.Sprintf("Uint128/body=mix/threads=%d", threads) }

// kitTypeBenchs returns, in order, every type of the kit questions (the
// contestants of kitKinds) with the benchmarks it is timed on there at
// threads (the RW locks' include the registry's writer-on-a-timer
// workloads): what tune's check re-measures a kit type on. It is the one
// place that reads the kit questions' layout.
func kitTypeBenchs(threads []int) (types []string, benchs map[string][]string) {
	benchs = map[string][]string{}
	for _, q := range kitKinds() {
		for _, c := range q.Contestants {
			for _, w := range q.Workloads {
				for _, t := range threads {
					if w.Single && t != 1 {
						continue
					}
					if !slices.Contains(types, c.Name) {
						types = append(types, c.Name)
					}
					benchs[c.Name] = append(benchs[c.Name], w.Bench(c.Kind, t))
				}
			}
		}
	}
	return types, benchs
}

// kitUsers returns the kit types among typeOps that run one of ops, and
// for each the benchmarks tune's check re-measures it on: its kit
// questions' benchmarks (kitTypeBenchs), the mixed workload for Uint128,
// at the goroutine counts threads.
func kitUsers(ops []string, typeOps map[string][]string, threads []int) (types []string, benchs map[string][]string) {
	benchs = map[string][]string{}
	uses := func(name string) bool {
		return slices.ContainsFunc(typeOps[name], func(op string) bool { return slices.Contains(ops, op) })
	}
	add := func(name, bench string) {
		if !slices.Contains(types, name) {
			types = append(types, name)
		}
		benchs[name] = append(benchs[name], bench)
	}
	kitTypes, kitBenchs := kitTypeBenchs(threads)
	for _, name := range kitTypes {
		if uses(name) {
			for _, b := range kitBenchs[name] {
				add(name, b)
			}
		}
	}
	if uses("hal.Uint128") {
		for _, t := range threads {
			add("hal.Uint128", kitUint128Mix(t))
		}
	}
	// Types named in typeOps but in no kit question: gohal's other
	// types (kitOtherKinds), or a test's fake.
	for _, name := range slices.Sorted(maps.Keys(typeOps)) {
		if _, ok := benchs[name]; ok || !uses(name) {
			continue
		}
		prefix, ok := kitOtherKinds[name]
		if !ok {
			prefix = "Kit/type=" + strings.ReplaceAll(name, " ", "_")
		}
		for _, t := range threads {
			add(name, fmt.Sprintf("%s/threads=%d", prefix, t))
		}
	}
	return types, benchs
}

// kitCheckBody returns the body of a benchmark kitUsers named, for a
// worker of tune's check.
func kitCheckBody(name string) (func(*testing.B), int, error) {
	if rest, ok := strings.CutPrefix(name, "Uint128/body=mix/threads="); ok {
		t, err := strconv.Atoi(rest)
		if err != nil || t < 1 {
			return nil, 0, fmt.Errorf("kit benchmark %q: bad goroutine count", name)
		}
		g := &tuneGroup{Ops: []string{"cas128", "load128", "store128"}}
		attachGroupBodies(g)
		return g.bodies["mix"](t), t, nil
	}
	for _, bm := range suite.Select(suite.Options{Threads: kitThreads(), Full: true, Filter: regexp.MustCompile("^" + regexp.QuoteMeta(name) + "$")}) {
		return bm.F, bm.Threads, nil
	}
	return nil, 0, fmt.Errorf("no kit benchmark %q", name)
}
