// Package suite is the one registry of gohal's benchmark bodies. halbench
// runs them in-process, interleaved, to print its report; the Go benchmarks
// of the module (the root bench_test.go and the packages' own benchmarks)
// run the same bodies through [RunSection], so a number from `go test
// -bench` and one from halbench measure the same code.
//
// A body is an ordinary func(b *testing.B). Single-goroutine bodies use
// `for b.Loop()` bracketed by [cyclebench.Start] and Stop; threaded ones
// use [cyclebench.RunLoop]. Either way the operation under test is written
// inline in the measuring loop — never called through a func value per
// operation — so that comparing ways of binding an operation measures the
// binding and not the harness. Every body reports the "cycles/op" metric.
//
// # Names
//
// A benchmark's name is in Go benchmark form without the "Benchmark"
// prefix: the section, then key=value elements, for example
//
//	Dispatch/op=fetchadd64/mode=inline
//	Contended/op=fetchadd64/mode=api/threads=2
//	Lock/kind=ttas/threads=2/cs=50
//
// The first element is the section: the benchmarks halbench interleaves
// and reports in one table. A threaded body is registered once with the
// element "threads=*" in its name and expanded for every thread count.
//
// # Adding benchmarks
//
// Register with [Add] from an init function in this package, and add a
// question users bring, or a workload or contestant of one, to [Questions]. halbench and the
// Go benchmarks pick new entries up with no change of their own.
package suite

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/cacheline"
)

// ThreadsWildcard is the name element a threaded [Bench] carries in place
// of its thread count; [Expand] replaces it with "threads=N".
const ThreadsWildcard = "threads=*"

// DefaultThreads are the thread counts threaded benchmarks run at unless
// told otherwise.
var DefaultThreads = []int{1, 2, 4, 8}

// Bench is one registered benchmark body.
type Bench struct {
	// Name is the benchmark's name in Go benchmark form without the
	// "Benchmark" prefix. Its first element is the section. A threaded
	// bench has exactly one element "threads=*"; others have none.
	Name string
	// Baseline is the name of the benchmark this one is compared with in
	// its section's table (a ratio of medians); for a threaded bench it
	// may contain "threads=*", which expands to the same thread count.
	// Empty, or equal to Name, marks a baseline.
	Baseline string
	// Full marks a benchmark that only halbench -full runs. The Go
	// benchmarks run it always.
	Full bool
	// F is the body of a single-goroutine benchmark.
	F func(b *testing.B)
	// Threaded is the body of a threaded benchmark, run on threads
	// goroutines. Exactly one of F and Threaded is set.
	Threaded func(b *testing.B, threads int)
}

// Benchmark is a concrete benchmark: a [Bench] with its thread count
// filled in.
type Benchmark struct {
	// Name is the full name without "Benchmark", e.g.
	// "Lock/kind=ttas/threads=2/cs=0".
	Name string
	// Section is the first element of Name.
	Section string
	// Baseline is the name of the benchmark this one is compared with,
	// equal to Name for a baseline.
	Baseline string
	// Threads is the number of goroutines; 1 for single-goroutine
	// bodies.
	Threads int
	// Threaded reports whether the body came from a threaded Bench
	// (so Threads is a parameter of the benchmark, not a given).
	Threaded bool
	// Full is copied from the Bench.
	Full bool
	// F runs the benchmark.
	F func(b *testing.B)
}

// Section describes one section: the benchmarks halbench interleaves
// and reports in one table.
type Section struct {
	// Name is the first element of the names of its benchmarks.
	Name string
	// Title heads the section's table.
	Title string
	// Doc says, in a sentence or two, what is measured and what the
	// ratio column compares.
	Doc string
}

var (
	mu      sync.Mutex
	benches []Bench
	legends []Legend
)

// Legend explains one name element of a section's benchmarks, such as
// "mode=table"; halbench prints a section's legends under its table.
type Legend struct {
	Section string // the section, e.g. "Dispatch"
	Key     string // the element, e.g. "mode=table"
	Text    string // what it means, one line
}

// AddLegend registers the meaning of a name element in a section.
func AddLegend(l Legend) {
	mu.Lock()
	defer mu.Unlock()
	if l.Section == "" || l.Key == "" || l.Text == "" {
		panic(fmt.Sprintf("suite: bad legend %+v", l))
	}
	legends = append(legends, l)
}

// Legends returns the legends registered for section, in order.
func Legends(section string) []Legend {
	mu.Lock()
	defer mu.Unlock()
	var out []Legend
	for _, l := range legends {
		if l.Section == section {
			out = append(out, l)
		}
	}
	return out
}

// The sections, in report order. They are declared here rather than
// registered from the files that fill them, so that no file's init order
// matters.
var sections = []Section{
	{Name: "Dispatch", Title: "Binding modes: one uncontended operation on one goroutine",
		Doc: "How the op is bound to its caller (modes below). Ratio: against the baseline mode of the same op."},
	{Name: "Contended", Title: "Binding modes under contention: every goroutine on one shared word",
		Doc: "Each op on one cache line shared by all goroutines; ns/op is wall time over all operations (the inverse of throughput). Ratio: against the baseline mode of the same op at the same thread count."},
	{Name: "Lock", Title: "Spin locks: Lock + critical section + Unlock",
		Doc: "cs = the critical section's busy work in ns, after it increments the guarded counter; ns/op is wall time per acquisition over all goroutines. Ratio: against sync.Mutex at the same threads and cs."},
	{Name: "Handover", Title: "The floor of a FIFO hand-over: goroutines take strict turns, no lock",
		Doc: "turn = each goroutine waits for its turn on one shared cache line, runs the critical section (cs, ns) and passes the turn to the next goroutine in order; ns/op is wall time per turn over all goroutines. No lock hands over in order to a waiter on another CPU faster. Ratio: against sync.Mutex at the same threads and cs."},
	{Name: "Refcount", Title: "Reference counts: one Inc of a shared count",
		Doc: "plain = unchecked atomic add, checked = Linux refcount_t saturation checks; -inline through sync/atomic, -hal through hal calls. Ratio: against plain at the same thread count."},
	{Name: "Counter", Title: "Shared counters: one Add(1)",
		Doc: "casloop = load + CAS retried (lock-free), fetchadd = one fetch-and-add (wait-free), striped = per-CPU-ish stripes. Ratio: against fetchadd at the same thread count."},
}

// AddSection registers a section after the predefined ones (Dispatch,
// Contended, Lock, Handover, Refcount, Counter). Sections are reported in the order
// they are registered; a benchmark's section must be registered before it.
func AddSection(s Section) {
	mu.Lock()
	defer mu.Unlock()
	if s.Name == "" || strings.ContainsAny(s.Name, "/ \t") {
		panic(fmt.Sprintf("suite: bad section name %q", s.Name))
	}
	for _, t := range sections {
		if t.Name == s.Name {
			panic("suite: section " + s.Name + " registered twice")
		}
	}
	sections = append(sections, s)
}

// Add registers a benchmark. It panics on a malformed name, a name
// registered twice, an unregistered section, or a Bench whose body does
// not match its name (F without "threads=*", Threaded with it).
func Add(b Bench) {
	mu.Lock()
	defer mu.Unlock()
	if err := checkBench(b); err != nil {
		panic(err)
	}
	benches = append(benches, b)
}

func checkBench(b Bench) error {
	if err := CheckName(b.Name); err != nil {
		return err
	}
	sec, _, _ := strings.Cut(b.Name, "/")
	if findSection(sec) == nil {
		return fmt.Errorf("suite: %s: section %q is not registered", b.Name, sec)
	}
	wild := strings.Count(b.Name+"/", "/"+ThreadsWildcard+"/")
	switch {
	case (b.F == nil) == (b.Threaded == nil):
		return fmt.Errorf("suite: %s: set exactly one of F and Threaded", b.Name)
	case b.Threaded != nil && wild != 1:
		return fmt.Errorf("suite: %s: a threaded bench needs one element %q", b.Name, ThreadsWildcard)
	case b.F != nil && strings.Contains(b.Name, "=*"):
		return fmt.Errorf("suite: %s: a single-goroutine bench has no %q", b.Name, ThreadsWildcard)
	}
	if b.Baseline != "" {
		if b.F != nil && strings.Contains(b.Baseline, "=*") {
			return fmt.Errorf("suite: %s: baseline %q of a single-goroutine bench has a wildcard", b.Name, b.Baseline)
		}
		if bs, _, _ := strings.Cut(b.Baseline, "/"); bs != sec {
			return fmt.Errorf("suite: %s: baseline %q is in another section", b.Name, b.Baseline)
		}
	}
	for _, o := range benches {
		if o.Name == b.Name {
			return fmt.Errorf("suite: %s registered twice", b.Name)
		}
	}
	return nil
}

// CheckName reports whether name is a well-formed benchmark name: it
// starts with an upper-case section name, and it has no white space, no
// empty element and no trailing "-N" (which go test appends for
// GOMAXPROCS).
func CheckName(name string) error {
	bad := func(why string) error { return fmt.Errorf("suite: benchmark name %q: %s", name, why) }
	if name == "" {
		return bad("empty")
	}
	if c := name[0]; c < 'A' || c > 'Z' {
		return bad("must start with an upper-case section name")
	}
	if strings.ContainsAny(name, " \t\n\r") {
		return bad("contains white space")
	}
	for _, e := range strings.Split(name, "/") {
		if e == "" {
			return bad("has an empty element")
		}
	}
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return bad("ends in -N, which go test reserves for GOMAXPROCS")
		}
	}
	return nil
}

func findSection(name string) *Section {
	for i := range sections {
		if sections[i].Name == name {
			return &sections[i]
		}
	}
	return nil
}

// Sections returns the registered sections in order.
func Sections() []Section {
	mu.Lock()
	defer mu.Unlock()
	return append([]Section(nil), sections...)
}

// LookupSection returns the section of the given name.
func LookupSection(name string) (Section, bool) {
	mu.Lock()
	defer mu.Unlock()
	if s := findSection(name); s != nil {
		return *s, true
	}
	return Section{}, false
}

// Benches returns the registered benchmarks, unexpanded, in order.
func Benches() []Bench {
	mu.Lock()
	defer mu.Unlock()
	return append([]Bench(nil), benches...)
}

// Body returns the body of the registered benchmark name, in its
// threads=* form for a threaded one; a single-goroutine body ignores the
// goroutine count. Other harnesses (the peers module) time the registry's
// workloads with it.
func Body(name string) func(b *testing.B, threads int) {
	for _, bn := range Benches() {
		switch {
		case bn.Name != name:
		case bn.Threaded != nil:
			return bn.Threaded
		default:
			return func(b *testing.B, _ int) { bn.F(b) }
		}
	}
	panic("suite: no benchmark " + name)
}

// Options selects benchmarks for [Select].
type Options struct {
	// Threads are the thread counts threaded benchmarks expand to; nil
	// means DefaultThreads.
	Threads []int
	// Filter, if not nil, keeps the benchmarks whose full name it
	// matches (unanchored, like regexp.MatchString).
	Filter *regexp.Regexp
	// Full includes the benchmarks marked Full.
	Full bool
}

// Expand returns the concrete benchmarks of b: one per thread count for a
// threaded bench, in the order of threads, or b itself. Thread counts
// must be positive.
func Expand(b Bench, threads []int) []Benchmark {
	sec, _, _ := strings.Cut(b.Name, "/")
	if b.F != nil {
		base := b.Baseline
		if base == "" {
			base = b.Name
		}
		return []Benchmark{{Name: b.Name, Section: sec, Baseline: base, Threads: 1, Full: b.Full, F: b.F}}
	}
	out := make([]Benchmark, 0, len(threads))
	for _, n := range threads {
		if n < 1 {
			panic(fmt.Sprintf("suite: thread count %d", n))
		}
		name := withThreads(b.Name, n)
		base := name
		if b.Baseline != "" {
			base = withThreads(b.Baseline, n)
		}
		body := b.Threaded
		out = append(out, Benchmark{Name: name, Section: sec, Baseline: base, Threads: n, Threaded: true, Full: b.Full,
			F: func(tb *testing.B) { body(tb, n) }})
	}
	return out
}

// withThreads replaces the "threads=*" element of name with "threads=n".
func withThreads(name string, n int) string {
	return strings.Replace(name, ThreadsWildcard, "threads="+strconv.Itoa(n), 1)
}

// Select returns the registered benchmarks chosen by opts, expanded, in
// registration order (a threaded bench's thread counts together, in the
// order of opts.Threads).
func Select(opts Options) []Benchmark {
	threads := opts.Threads
	if threads == nil {
		threads = DefaultThreads
	}
	var out []Benchmark
	for _, b := range Benches() {
		if b.Full && !opts.Full {
			continue
		}
		for _, bm := range Expand(b, threads) {
			if opts.Filter != nil && !opts.Filter.MatchString(bm.Name) {
				continue
			}
			out = append(out, bm)
		}
	}
	return out
}

// RunSection runs every benchmark of section as a sub-benchmark of b,
// named by the rest of its name, so that
//
//	func BenchmarkLock(b *testing.B) { suite.RunSection(b, "Lock", suite.DefaultThreads) }
//
// reports "BenchmarkLock/kind=ttas/threads=2/cs=0", the very name halbench
// writes with -format gobench. Benchmarks marked Full run too.
func RunSection(b *testing.B, section string, threads []int) {
	if _, ok := LookupSection(section); !ok {
		b.Fatalf("suite: no section %q", section)
	}
	for _, bm := range Select(Options{Threads: threads, Full: true}) {
		if bm.Section != section {
			continue
		}
		b.Run(strings.TrimPrefix(bm.Name, section+"/"), bm.F)
	}
}

// cell is a word on a cache line of its own, the shared word of the
// dispatch and contention benchmarks.
type cell struct {
	_ cacheline.Line
	v uint64
	_ [cacheline.Size - unsafe.Sizeof(uint64(0))%cacheline.Size]byte
}

// cell128 is a 128-bit word on cache lines of its own: u for the api
// modes, and w for the table, direct and static modes, which call hal's
// table rows or hal/direct's functions on a raw word. (Uint128.Addr
// panics while the portable 128-bit variants run, as under -race or
// GOHAL=load128=portable, so those modes use a word of their own.)
type cell128 struct {
	_ cacheline.Line
	u hal.Uint128
	w [3]uint64 // word returns its 16-byte-aligned half
	_ cacheline.Line
}

// word returns c's raw 16-byte-aligned word.
func (c *cell128) word() *[2]uint64 {
	if uintptr(unsafe.Pointer(&c.w[0]))&15 == 0 {
		return (*[2]uint64)(c.w[0:2])
	}
	return (*[2]uint64)(c.w[1:3])
}

// sinkHits counts results that matched an impossible value: consuming
// results through use keeps the compiler from dropping an operation whose
// result is unused, at the cost of one compare.
var sinkHits atomic.Uint64

// use consumes v.
func use(v uint64) {
	if v == 0x9e3779b97f4a7c15 {
		sinkHits.Add(1)
	}
}
