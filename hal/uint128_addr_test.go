package hal_test

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
)

// direct128Funcs holds hal/direct's 128-bit functions of this build by
// variant name (zdirect128_<arch>_test.go, generated from the spec).
type direct128Funcs struct {
	loads  map[string]func(*[2]uint64) (uint64, uint64)
	stores map[string]func(*[2]uint64, uint64, uint64)
	cases  map[string]func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool)
}

// runnable returns the names of m's variants of op this CPU can run, sorted.
func runnable[F any](op string, m map[string]F) []string {
	var out []string
	for name := range m {
		if ok, _ := haltool.Runnable(op, name); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// portable128Choice returns the choice of a 128-bit op that runs the
// portable variant, if any.
func portable128Choice() (hal.Choice, bool) {
	for _, c := range hal.Selected() {
		if (c.Op == "load128" || c.Op == "store128" || c.Op == "cas128") && c.Variant == "portable" {
			return c, true
		}
	}
	return hal.Choice{}, false
}

// TestUint128AddrDirect: Uint128.Addr and hal/direct never meet silently
// on one word. While the 128-bit ops run hardware variants (the default
// build on a CPU with them), Addr works and a hammer mixing direct calls
// and methods on one word sees no torn value and loses no CAS. While they
// run the portable variant (every -race build, GOHAL=…=portable, which
// TestUint128AddrUnderGOHAL runs this test with, or a CPU without them),
// Addr panics, and the message names the op, the variant and why.
func TestUint128AddrDirect(t *testing.T) {
	if c, ok := portable128Choice(); ok {
		checkAddrPanics(t, c)
		return
	}
	loads, stores := runnable("load128", direct128.loads), runnable("store128", direct128.stores)
	cases := runnable("cas128", direct128.cases)
	if len(loads) == 0 || len(stores) == 0 || len(cases) == 0 {
		t.Fatalf("hardware 128-bit variants run, but hal/direct has none this CPU can run (loads %v, stores %v, cas %v)", loads, stores, cases)
	}
	n := 20000
	if testing.Short() {
		n = 5000
	}
	for _, ln := range loads {
		for _, sn := range stores {
			for _, cn := range cases {
				t.Run(ln+"/"+sn+"/"+cn, func(t *testing.T) {
					hammerAddrDirect(t, n, direct128.loads[ln], direct128.stores[sn], direct128.cases[cn])
				})
			}
		}
	}
}

// hammerAddrDirect runs, on one Uint128 and the word Addr returns: a
// storer alternating the method and the direct store of pairs (i, ^i); a
// loader alternating the method and the direct load, which must always
// see hi == ^lo; and two incrementers of the pair (k, ^k) by CAS loops,
// one through CompareAndSwap and one through the direct CAS, taking over
// once the storer is done. Every increment must count.
func hammerAddrDirect(t *testing.T, n int, load func(*[2]uint64) (uint64, uint64),
	store func(*[2]uint64, uint64, uint64), cas func(*[2]uint64, uint64, uint64, uint64, uint64) (uint64, uint64, bool)) {
	var u hal.Uint128
	a := u.Addr()
	var torn struct {
		sync.Mutex
		n        int
		lo, hi   uint64
		firstVia string
	}
	report := func(via string, lo, hi uint64) {
		if hi != ^lo {
			torn.Lock()
			if torn.n == 0 {
				torn.lo, torn.hi, torn.firstVia = lo, hi, via
			}
			torn.n++
			torn.Unlock()
		}
	}
	u.Store(0, ^uint64(0))
	stop := make(chan struct{})
	var loaders, writers sync.WaitGroup
	loaders.Add(1)
	go func() {
		defer loaders.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for range 64 {
				lo, hi := load(a)
				report("direct load", lo, hi)
				lo, hi = u.Load()
				report("method Load", lo, hi)
			}
		}
	}()
	writers.Add(1)
	go func() {
		defer writers.Done()
		for i := range uint64(n) {
			if i%2 == 0 {
				u.Store(i, ^i)
			} else {
				store(a, i, ^i)
			}
		}
	}()
	writers.Wait()
	// Both storers are done: restart the count from zero for the CASes.
	store(a, 0, ^uint64(0))
	writers.Add(2)
	go func() {
		defer writers.Done()
		for range n {
			for lo, hi := u.Load(); !u.CompareAndSwap(lo, hi, lo+1, ^(lo + 1)); lo, hi = u.Load() {
				report("method Load in a CAS loop", lo, hi)
			}
		}
	}()
	go func() {
		defer writers.Done()
		for range n {
			lo, hi := load(a)
			for {
				report("direct load in a CAS loop", lo, hi)
				var ok bool
				if lo, hi, ok = cas(a, lo, hi, lo+1, ^(lo + 1)); ok {
					break
				}
			}
		}
	}()
	writers.Wait()
	close(stop)
	loaders.Wait()
	if torn.n > 0 {
		t.Errorf("%d torn loads (first by %s: %#x, %#x)", torn.n, torn.firstVia, torn.lo, torn.hi)
	}
	if lo, hi := u.Load(); lo != uint64(2*n) || hi != ^lo {
		t.Errorf("after %d increments by method CAS and %d by direct CAS: %d, %#x", n, n, lo, hi)
	}
}

// checkAddrPanics calls Addr while c's op runs its portable variant and
// checks it panics with a message naming the op, the variant and the
// reason.
func checkAddrPanics(t *testing.T, c hal.Choice) {
	t.Helper()
	var u hal.Uint128
	u.Store(1, 2)
	var got any
	func() {
		defer func() { got = recover() }()
		a := u.Addr()
		t.Errorf("Addr returned %p while %s runs %q (%s): hal/direct would tear its Stores", a, c.Op, c.Variant, c.Reason)
	}()
	if got == nil {
		return
	}
	err, ok := got.(error)
	if !ok {
		t.Fatalf("Addr panicked with %T %v, want an error", got, got)
	}
	msg := err.Error()
	want := []string{"Uint128.Addr", `"portable"`, "striped lock", "hal/direct", "half of a Store"}
	switch {
	case hal.RaceBuild:
		want = append(want, "race build (-race)")
	case hal.PuregoBuild:
		want = append(want, "purego")
	case onlyVariant(c.Op):
		want = append(want, "hal has no 128-bit assembly for GOARCH="+runtime.GOARCH)
	case os.Getenv("GOHAL") != "":
		want = append(want, "GOHAL="+os.Getenv("GOHAL"))
	default:
		want = append(want, c.Reason) // e.g. "fallback: ... needs cx16"
	}
	if !strings.Contains(msg, "op load128 ") && !strings.Contains(msg, "op store128 ") && !strings.Contains(msg, "op cas128 ") {
		t.Errorf("Addr's panic %q names no 128-bit op", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("Addr's panic %q does not say %q", msg, w)
		}
	}
	if lo, hi := u.Load(); lo != 1 || hi != 2 {
		t.Errorf("after Addr's panic Load = %d, %d, want 1, 2", lo, hi)
	}
	fmt.Println("Addr panicked as it must:", msg)
}

// TestUint128AddrUnderGOHAL re-runs TestUint128AddrDirect with GOHAL
// forcing each 128-bit op's portable variant: Addr must panic there, and
// the message must name the op the override named. Under qemu-user set
// GOHAL_TEST_EXEC as for the other subprocess tests.
func TestUint128AddrUnderGOHAL(t *testing.T) {
	if os.Getenv("GOHAL_ADDR_CHILD") == "1" {
		t.Skip("inside the child")
	}
	if c, ok := portable128Choice(); ok {
		t.Skipf("%s runs %q already (%s): TestUint128AddrDirect checks the panic", c.Op, c.Variant, c.Reason)
	}
	if hal.StaticBuild {
		t.Skip("a static build accepts only its compiled-in variants in GOHAL")
	}
	for _, op := range []string{"load128", "store128", "cas128"} {
		t.Run(op, func(t *testing.T) {
			if !offersVariant(op, "portable") {
				t.Skipf("%s has no portable variant on %s (every CPU of it has the 128-bit instructions): GOHAL cannot select one", op, runtime.GOARCH)
			}
			if onlyVariant(op) {
				t.Skipf("portable is %s's only variant on %s: TestUint128AddrDirect checks the panic without GOHAL", op, runtime.GOARCH)
			}
			cmd := testexec.Self("-test.run=^TestUint128AddrDirect$", "-test.v", "-test.short")
			cmd.Env = append(os.Environ(), "GOHAL_ADDR_CHILD=1", "GOHAL="+op+"=portable")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				testexec.SkipUnrunnable(t, err)
				t.Fatalf("GOHAL=%s=portable: %v\n%s", op, err, out.String())
			}
			s := out.String()
			if !strings.Contains(s, "Addr panicked as it must:") {
				t.Fatalf("GOHAL=%s=portable: the child did not see Addr panic:\n%s", op, s)
			}
			if !hal.RaceBuild && !hal.PuregoBuild && !strings.Contains(s, "op "+op+" ") {
				t.Errorf("GOHAL=%s=portable: the panic does not name %s:\n%s", op, op, s)
			}
		})
	}
}

// offersVariant reports whether hal has variant v of op on this GOARCH.
func offersVariant(op, v string) bool {
	vs, _ := haltool.Variants(op)
	for _, x := range vs {
		if x.Name == v {
			return true
		}
	}
	return false
}

// onlyVariant reports whether op has a single variant on this GOARCH.
func onlyVariant(op string) bool {
	vs, _ := haltool.Variants(op)
	return len(vs) == 1
}
