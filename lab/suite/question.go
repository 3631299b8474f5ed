package suite

import "strconv"

// The registry of questions: what users ask gohal ("which lock?"), each
// with its workloads, its contestants and the standard choice it is
// answered against. halbench's report, tune, peers and results take every
// question from here and judge it by one rule (cmd/halbench/answer.go),
// so that one question on one machine gets one answer, or a tie, whichever
// command asks it.

// Question is one question users bring.
type Question struct {
	// Key names it in flags and JSON: "lock", "rwlock", "counter", …
	Key string
	// Ask is the question in the report's words: "read-mostly data".
	Ask string
	// Contestants are the answers; the first is the standard choice
	// ("instead of": sync.Mutex, sync.RWMutex, …).
	Contestants []Contestant
	// Workloads are the shapes it is timed on, the first the headline.
	Workloads []Workload
}

// Contestant is one type that answers a question.
type Contestant struct {
	// Name is how answers name it: "percpu.RWMutex".
	Name string
	// Kind is the kind= (mode= for hal's ops) element of its suite
	// benchmarks; Peer is its impl= name in the peers module, "" if the
	// peers module does not time it.
	Kind, Peer string
}

// Workload is one shape a question is timed on.
type Workload struct {
	// Name says what the goroutines do: "reads only", "a write every 10 ms".
	Name string
	// Bench names the suite benchmark of a contestant kind at a goroutine
	// count.
	Bench func(kind string, threads int) string
	// Peer is the peers module's task ("rwlock w0"), "" if it has none.
	Peer string
	// Single marks a workload timed on one goroutine only.
	Single bool
}

// RWLockWriters are the write periods of the RWLock section's service
// shape: readers in every goroutine and one more goroutine writing on a
// timer.
var RWLockWriters = []string{"1ms", "10ms"}

// Questions returns the registry, in the order answers are printed.
func Questions() []Question {
	kindName := func(section string) func(string, int) string {
		return func(kind string, threads int) string {
			return section + "/kind=" + kind + "/threads=" + strconv.Itoa(threads)
		}
	}
	lockCS := func(cs int) Workload {
		return Workload{Name: "critical section " + strconv.Itoa(cs) + " ns", Peer: map[int]string{0: "lock"}[cs],
			Bench: func(kind string, threads int) string { return LockName(kind, threads, cs) }}
	}
	rwWrites := func(wpm int, name string) Workload {
		return Workload{Name: name, Peer: "rwlock w" + strconv.Itoa(wpm),
			Bench: func(kind string, threads int) string { return RWLockName(kind, threads, wpm) }}
	}
	rwTimer := func(period string) Workload {
		return Workload{Name: "one writer every " + period, Peer: "rwlock writer" + period,
			Bench: func(kind string, threads int) string { return RWLockTimerName(kind, threads, period) }}
	}
	return []Question{
		{Key: "lock", Ask: "a lock",
			Contestants: []Contestant{{"sync.Mutex", "mutex", "sync-mutex"}, {"spin.TTAS", "ttas", "gohal-ttas"},
				{"spin.Backoff", "backoff", "gohal-backoff"}, {"spin.Asm", "asm", "gohal-asm"}, {"spin.TAS", "tas", "gohal-tas"},
				{"spin.Ticket", "ticket", "gohal-ticket"}, {"spin.MCS", "mcs", "gohal-mcs"}},
			Workloads: []Workload{lockCS(0), lockCS(50)}},
		{Key: "rwlock", Ask: "read-mostly data",
			Contestants: []Contestant{{"sync.RWMutex", "rwmutex", "sync-rwmutex"}, {"percpu.RWMutex", "percpu", "gohal-percpu"},
				{"sync.Mutex", "mutex", "sync-mutex"}},
			Workloads: []Workload{rwWrites(0, "reads only"), rwTimer(RWLockWriters[1]), rwTimer(RWLockWriters[0]),
				rwWrites(1, "0.1 % writes"), rwWrites(10, "1 % writes"), rwWrites(100, "10 % writes")}},
		{Key: "counter", Ask: "a counter",
			Contestants: []Contestant{{"atomic.Int64", "atomic", "atomic-int64"}, {"counter.Adder", "adder", "gohal-adder"},
				{"percpu.Counter", "percpu", "gohal-percpu"}},
			Workloads: []Workload{{Name: "Add(1) from every goroutine", Peer: "counter", Bench: kindName("Counter")}}},
		{Key: "cache", Ask: "an object cache",
			Contestants: []Contestant{{"sync.Pool", "pool", "sync-pool"}, {"percpu.Cache", "percpu", "gohal-percpu"}},
			Workloads:   []Workload{{Name: "Get, touch, Put", Peer: "cache", Bench: kindName("Cache")}}},
		{Key: "pair", Ask: "two words that change together",
			Contestants: []Contestant{{"a mutex pair", ModeGeneric, "mutex-pair"}, {"hal.Uint128", ModeAPI, "gohal-uint128"}},
			Workloads: []Workload{{Name: "CompareAndSwap of both words", Peer: "uint128 cas",
				Bench: func(mode string, threads int) string { return ContendedName("cas128", mode, threads) }}}},
		{Key: "binding", Ask: "how hal's ops are bound",
			Contestants: []Contestant{{"atomic.AddUint64", ModeInline, ""}, {"hal.FetchAddUint64", ModeAPI, ""}},
			Workloads: []Workload{{Name: "fetch-and-add, inlined or hal's call", Single: true,
				Bench: func(mode string, _ int) string { return DispatchName("fetchadd64", mode) }}}},
	}
}

// LookupQuestion returns the question of a key.
func LookupQuestion(key string) (Question, bool) {
	for _, q := range Questions() {
		if q.Key == key {
			return q, true
		}
	}
	return Question{}, false
}
