package suite

import (
	"flag"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
)

func TestRegistry(t *testing.T) {
	all := Select(Options{Full: true})
	if len(all) == 0 {
		t.Fatal("no benchmarks registered")
	}
	names := map[string]Benchmark{}
	secs := map[string]bool{}
	for _, s := range Sections() {
		secs[s.Name] = true
		if s.Title == "" || s.Doc == "" {
			t.Errorf("section %s has no title or doc", s.Name)
		}
	}
	for _, bm := range all {
		if _, dup := names[bm.Name]; dup {
			t.Errorf("%s selected twice", bm.Name)
		}
		names[bm.Name] = bm
		if err := CheckName(bm.Name); err != nil {
			t.Error(err)
		}
		if strings.Contains(bm.Name, "*") {
			t.Errorf("%s: wildcard left after expansion", bm.Name)
		}
		if !secs[bm.Section] || !strings.HasPrefix(bm.Name, bm.Section+"/") {
			t.Errorf("%s: section %q", bm.Name, bm.Section)
		}
		if bm.Threaded != strings.Contains(bm.Name, "/threads=") {
			t.Errorf("%s: Threaded=%v", bm.Name, bm.Threaded)
		}
	}
	for _, bm := range all {
		base, ok := names[bm.Baseline]
		if !ok {
			t.Errorf("%s: baseline %s is not registered", bm.Name, bm.Baseline)
			continue
		}
		if base.Threads != bm.Threads {
			t.Errorf("%s: baseline %s runs on %d goroutines, not %d", bm.Name, base.Name, base.Threads, bm.Threads)
		}
		if base.Baseline != base.Name {
			t.Errorf("%s: baseline %s is not a baseline itself (its baseline is %s)", bm.Name, base.Name, base.Baseline)
		}
	}
	// Every section is filled, and the sections the issue asks for exist.
	for _, want := range []string{"Dispatch", "Contended", "Lock", "Handover", "Refcount", "Counter"} {
		if !slices.ContainsFunc(all, func(bm Benchmark) bool { return bm.Section == want }) {
			t.Errorf("section %s has no benchmarks", want)
		}
	}
	for _, n := range []string{
		"Dispatch/op=fetchadd64/mode=inline", "Dispatch/op=fetchadd64/mode=api", "Dispatch/op=fetchadd64/mode=table",
		"Dispatch/op=fetchadd64/mode=closure", "Dispatch/op=fetchadd64/mode=generic",
		"Dispatch/op=cas64/mode=api", "Dispatch/op=swap64/mode=api", "Dispatch/op=pause/mode=api",
		"Dispatch/op=loadacquire64/mode=api", "Dispatch/op=cas128/mode=api", "Dispatch/op=cycles/mode=api",
		"Contended/op=fetchadd64/mode=api/threads=2", "Lock/kind=ttas/threads=2/cs=50",
		"Refcount/kind=checked-inline/threads=1", "Counter/kind=fetchadd/threads=2",
	} {
		if _, ok := names[n]; !ok {
			t.Errorf("%s is not registered", n)
		}
	}
}

func TestSelect(t *testing.T) {
	quick := Select(Options{})
	full := Select(Options{Full: true})
	if len(quick) >= len(full) {
		t.Errorf("quick selects %d, full %d: want fewer in quick", len(quick), len(full))
	}
	for _, bm := range quick {
		if bm.Full {
			t.Errorf("quick selection has Full benchmark %s", bm.Name)
		}
	}
	re := regexp.MustCompile(`^Lock/kind=ttas/`)
	got := Select(Options{Threads: []int{3, 5}, Filter: re})
	var names []string
	for _, bm := range got {
		names = append(names, bm.Name)
	}
	want := []string{
		"Lock/kind=ttas/threads=3/cs=0", "Lock/kind=ttas/threads=5/cs=0",
		"Lock/kind=ttas/threads=3/cs=50", "Lock/kind=ttas/threads=5/cs=50",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("Select(threads 3,5, %v) = %v, want %v", re, names, want)
	}
	for _, bm := range got {
		if bm.Baseline != strings.Replace(bm.Name, "ttas", "mutex", 1) {
			t.Errorf("%s: baseline %s", bm.Name, bm.Baseline)
		}
	}
	if n := len(Select(Options{Filter: regexp.MustCompile(`^NoSuchSection/`)})); n != 0 {
		t.Errorf("a filter matching nothing selected %d", n)
	}
}

func TestExpand(t *testing.T) {
	ran := map[int]bool{}
	b := Bench{Name: "Lock/kind=x/threads=*/cs=1", Threaded: func(_ *testing.B, n int) { ran[n] = true }}
	got := Expand(b, []int{1, 8})
	if len(got) != 2 || got[0].Name != "Lock/kind=x/threads=1/cs=1" || got[1].Name != "Lock/kind=x/threads=8/cs=1" {
		t.Fatalf("Expand = %+v", got)
	}
	if got[1].Baseline != got[1].Name || got[1].Threads != 8 || !got[1].Threaded {
		t.Errorf("Expand()[1] = %+v", got[1])
	}
	got[0].F(nil)
	got[1].F(nil)
	if !ran[1] || !ran[8] || len(ran) != 2 {
		t.Errorf("bodies ran with %v, want 1 and 8", ran)
	}
}

func TestCheckBench(t *testing.T) {
	f := func(*testing.B) {}
	tf := func(*testing.B, int) {}
	for _, tc := range []struct {
		b    Bench
		want string
	}{
		{Bench{Name: "Dispatch/op=x/mode=y", F: f}, ""},
		{Bench{Name: "dispatch/op=x", F: f}, "upper-case"},
		{Bench{Name: "Nope/op=x", F: f}, "not registered"},
		{Bench{Name: "Dispatch/op=x", F: f, Threaded: tf}, "exactly one"},
		{Bench{Name: "Dispatch/op=x"}, "exactly one"},
		{Bench{Name: "Dispatch/op=x", Threaded: tf}, "needs one element"},
		{Bench{Name: "Dispatch/op=x/threads=*", F: f}, "has no"},
		{Bench{Name: "Dispatch/op=x//y", F: f}, "empty element"},
		{Bench{Name: "Dispatch/op=x y", F: f}, "white space"},
		{Bench{Name: "Dispatch/op=x-2", F: f}, "GOMAXPROCS"},
		{Bench{Name: "Dispatch/op=x", F: f, Baseline: "Lock/op=y"}, "another section"},
		{Bench{Name: "Dispatch/op=fetchadd64/mode=api", F: f}, "twice"},
	} {
		err := checkBench(tc.b)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("checkBench(%q) = %v", tc.b.Name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("checkBench(%q) = %v, want an error containing %q", tc.b.Name, err, tc.want)
		}
	}
}

// TestBodies runs every body briefly: each must finish and report a
// positive cycles/op.
func TestBodies(t *testing.T) {
	setBenchtime(t, "200x")
	for _, bm := range Select(Options{Full: true, Threads: []int{1, 3}}) {
		r := testing.Benchmark(bm.F)
		if r.N != 200 {
			t.Errorf("%s: ran %d iterations, want 200", bm.Name, r.N)
			continue
		}
		if c := r.Extra[cyclebench.CyclesUnit]; !(c > 0) {
			t.Errorf("%s: cycles/op = %v", bm.Name, c)
		}
		if bm.Section == "Lock" || bm.Section == "Handover" {
			if _, ok := r.Extra[cyclebench.FairnessUnit]; !ok {
				t.Errorf("%s: no %s metric", bm.Name, cyclebench.FairnessUnit)
			}
		}
	}
}

// TestHandoverTurns checks that the turn body does every turn, on more
// goroutines than processors too, and that a run cut short by the run cap
// stops every goroutine, although the one whose turn it is may stop
// without passing the turn on.
func TestHandoverTurns(t *testing.T) {
	threads := runtime.GOMAXPROCS(0) + 2
	bm := selectOne(t, fmt.Sprintf("Handover/kind=turn/threads=%d/cs=0", threads), threads)
	setBenchtime(t, "3001x")
	r := testing.Benchmark(bm.F)
	if _, cut := r.Extra[TruncatedUnit]; cut || r.N != 3001 {
		t.Errorf("uncapped run: N=%d, extra %v", r.N, r.Extra)
	}

	setBenchtime(t, "1099511627776x")
	SetLockRunCap(20 * time.Millisecond)
	defer SetLockRunCap(0)
	t0 := time.Now()
	r = testing.Benchmark(bm.F)
	if el := time.Since(t0); el > 5*time.Second {
		t.Errorf("capped run took %v", el)
	}
	if ops := r.Extra[TruncatedUnit]; !(ops > 0) {
		t.Errorf("capped run: %s = %v, want the turns done", TruncatedUnit, ops)
	}
}

// TestLockRunCap checks that a lock benchmark stops at the run cap and
// reports the operations it did, and that without a cap it does all.
func TestLockRunCap(t *testing.T) {
	bm := selectOne(t, "Lock/kind=ttas/threads=2/cs=50", 2)
	const n = 1 << 40 // far more than can run before the test times out
	setBenchtime(t, "1099511627776x")
	SetLockRunCap(20 * time.Millisecond)
	defer SetLockRunCap(0)
	t0 := time.Now()
	r := testing.Benchmark(bm.F)
	if el := time.Since(t0); el > 5*time.Second {
		t.Errorf("capped run took %v", el)
	}
	ops, ok := r.Extra[TruncatedUnit]
	if !ok || ops <= 0 || ops >= n {
		t.Fatalf("capped run: %s = %v (present %v), want in (0, %d)", TruncatedUnit, ops, ok, int64(n))
	}
	if ns := r.Extra["ns/op"]; !(ns > 10) || ns > 1e6 {
		t.Errorf("capped run: ns/op = %v, want the time per operation done (a cs=50 lock takes > 10 ns)", ns)
	}

	SetLockRunCap(0)
	setBenchtime(t, "20000x")
	r = testing.Benchmark(bm.F)
	if _, ok := r.Extra[TruncatedUnit]; ok || r.N != 20000 {
		t.Errorf("uncapped run: N=%d, extra %v", r.N, r.Extra)
	}
}

// setBenchtime sets the test binary's -test.benchtime, which
// testing.Benchmark reads, and restores it when the test ends.
func setBenchtime(t *testing.T, v string) {
	t.Helper()
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set(v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bt.Value.Set(old) })
}

// selectOne returns the registered benchmark named name, run on threads
// goroutines.
func selectOne(t *testing.T, name string, threads int) Benchmark {
	t.Helper()
	for _, b := range Select(Options{Threads: []int{threads}, Filter: regexp.MustCompile("^" + regexp.QuoteMeta(name) + "$")}) {
		return b
	}
	t.Fatalf("%s is not registered", name)
	return Benchmark{}
}

// TestQuestions checks the registry of questions: keys unique, at least
// two contestants, and every workload of every contestant a benchmark the
// default run measures, so that the report answers every question.
func TestQuestions(t *testing.T) {
	def := map[string]bool{}
	for _, bm := range Select(Options{}) {
		def[bm.Name] = true
	}
	keys := map[string]bool{}
	for _, q := range Questions() {
		if keys[q.Key] || q.Ask == "" || len(q.Contestants) < 2 || len(q.Workloads) == 0 {
			t.Errorf("question %+v: want a unique key, a text, two contestants and a workload", q)
		}
		keys[q.Key] = true
		for _, w := range q.Workloads {
			for _, c := range q.Contestants {
				for _, n := range DefaultThreads {
					if w.Single && n > 1 {
						continue
					}
					if name := w.Bench(c.Kind, n); !def[name] {
						t.Errorf("%s, %s, %s: %s is not in the default run", q.Key, w.Name, c.Name, name)
					}
				}
			}
		}
	}
	if b := Body(RWLockTimerName("percpu", 0, RWLockWriters[0])); b == nil {
		t.Error("Body of the timer-writer benchmark is nil")
	}
}
