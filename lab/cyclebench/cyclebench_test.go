package cyclebench

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/testexec"
)

func TestShare(t *testing.T) {
	for _, tc := range []struct{ total, threads int }{{0, 1}, {1, 1}, {7, 2}, {8, 8}, {9, 8}, {1000003, 7}, {3, 8}} {
		sum := 0
		lo, hi := math.MaxInt, 0
		for w := range tc.threads {
			n := Share(tc.total, tc.threads, w)
			sum += n
			lo, hi = min(lo, n), max(hi, n)
		}
		if sum != tc.total {
			t.Errorf("Share(%d, %d, ·) sums to %d", tc.total, tc.threads, sum)
		}
		if hi-lo > 1 {
			t.Errorf("Share(%d, %d, ·) ranges %d..%d, want at most one apart", tc.total, tc.threads, lo, hi)
		}
	}
}

func TestRelStddev(t *testing.T) {
	for _, tc := range []struct {
		xs   []int
		want float64
	}{
		{nil, 0},
		{[]int{5}, 0},
		{[]int{10, 10, 10}, 0},
		{[]int{0, 0}, 0},
		{[]int{50, 150}, 50},                // mean 100, stddev 50
		{[]int{2, 4, 4, 4, 5, 5, 7, 9}, 40}, // mean 5, stddev 2
	} {
		if got := RelStddev(tc.xs); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("RelStddev(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestRunLoopSharesWork(t *testing.T) {
	for _, threads := range []int{1, 2, 5} {
		var total atomic.Int64
		var n int
		testing.Benchmark(func(b *testing.B) {
			total.Store(0)
			RunLoop(b, threads, func(w, k int) {
				if k != Share(b.N, threads, w) {
					t.Errorf("worker %d got %d ops, want %d", w, k, Share(b.N, threads, w))
				}
				total.Add(int64(k))
			})
			n = b.N
		})
		if total.Load() != int64(n) {
			t.Errorf("threads=%d: loops did %d ops in all, b.N = %d", threads, total.Load(), n)
		}
	}
}

// TestCyclesPerOpTracksTime checks that cycles/op converted to time with
// hal.CycleFrequency agrees with ns/op, within 0.8 to 1.25, for an
// operation of known length, through each entry point: RunLoop on one and
// two goroutines, and Start/Stop around b.Loop.
//
// Other processes share the machine, and a run that loses the CPU at the
// wrong moment is off by however long it waited: RunLoop's timer also
// covers the main goroutine's wake-up after the last worker, and a run can
// be descheduled between a clock read and the timer's. (Meter's ticks
// also covered b.Loop's stop-the-world memory statistics reads, 1.05 to
// 1.29 under load, until Meter.Stop scaled them to the timed part.) (Once, on a
// cold go test ./..., a single run read 1.29; under a parallel build 2 of
// 20 single runs failed, one at 1.8.) Such noise only moves a run away
// from 1, so the test judges the run closest to 1 of up to five: a wrong
// tick rate, or a harness that times a different interval from the
// testing package's, fails all five.
func TestCyclesPerOpTracksTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	Calibrate()
	const spinNs = 2000
	freq := hal.CycleFrequency()
	runLoop := func(threads int) func(b *testing.B) {
		return func(b *testing.B) {
			RunLoop(b, threads, func(_, n int) {
				for range n {
					Spin(spinNs)
				}
			})
		}
	}
	for _, m := range []struct {
		name  string
		bench func(b *testing.B)
	}{
		{"RunLoop/threads=1", runLoop(1)},
		{"RunLoop/threads=2", runLoop(2)},
		{"Meter", func(b *testing.B) {
			m := Start(b)
			for b.Loop() {
				Spin(spinNs)
			}
			m.Stop()
		}},
	} {
		best, tries := 0.0, []string{}
		for range 5 {
			res := testing.Benchmark(m.bench)
			nsPerOp := float64(res.T.Nanoseconds()) / float64(res.N)
			viaCycles := res.Extra[CyclesUnit] / freq * 1e9
			ratio := viaCycles / nsPerOp
			tries = append(tries, fmt.Sprintf("cycles %.0f ns/op, timer %.0f ns/op (%.2f)", viaCycles, nsPerOp, ratio))
			if math.Abs(math.Log(ratio)) < math.Abs(math.Log(best)) || best == 0 {
				best = ratio
			}
			if math.Abs(math.Log(ratio)) < math.Log(1.05) {
				break // close enough: no need for more tries
			}
		}
		if best < 0.8 || best > 1.25 {
			t.Errorf("%s: no run within 0.8..1.25 of the timer: %s", m.name, strings.Join(tries, "; "))
		} else {
			t.Logf("%s: %s", m.name, strings.Join(tries, "; "))
		}
	}
}

func TestSpinIsCalibrated(t *testing.T) {
	if ItersPerNs() <= 0 {
		t.Fatalf("ItersPerNs = %v", ItersPerNs())
	}
	const ns = 20000
	// Other processes share the machine: a run that lost the CPU only
	// gets longer, so judge the fastest of many runs, and accept a factor
	// of two either way. Under an emulator (go test -exec, which CI sets
	// in GOHAL_TEST_EXEC) the loop's own speed changes within a run, by
	// more than that: the fastest of 25 took 40.6 µs after calibrating
	// for 20 under qemu-loongarch64 -cpu la464. There the factor is four.
	factor := time.Duration(2)
	if testexec.Emulated() {
		factor = 4
	}
	ds := make([]time.Duration, 25)
	for i := range ds {
		t0 := time.Now()
		Spin(ns)
		ds[i] = time.Since(t0)
	}
	slices.Sort(ds)
	if fastest := ds[0]; fastest < ns/factor || fastest > factor*ns {
		t.Errorf("Spin(%d) took %v (fastest of %d)", ns, fastest, len(ds))
	}
	// Spin(0) and Spin(-5) return at once: the fastest of five tries must
	// be far below a millisecond. (One try alone can take milliseconds
	// under qemu-user, which stalls a thread now and then.)
	fastest := time.Hour
	for range 5 {
		t0 := time.Now()
		Spin(0)
		Spin(-5)
		fastest = min(fastest, time.Since(t0))
	}
	if fastest > time.Millisecond {
		t.Errorf("Spin(0) took %v (fastest of 5)", fastest)
	}
}

func TestTally(t *testing.T) {
	tl := NewTally(3)
	tl.Add(0, 5)
	tl.Add(2, 7)
	tl.Add(0, 1)
	if got := tl.Sum(); got != 13 {
		t.Errorf("Sum = %d, want 13", got)
	}
	res := testing.Benchmark(func(b *testing.B) {
		tl := NewTally(2)
		RunLoop(b, 2, func(w, n int) { tl.Add(w, uint64(2*n)) })
		tl.Report(b, "things/op")
	})
	if got := res.Extra["things/op"]; got != 2 {
		t.Errorf("things/op = %v, want 2", got)
	}
}

func TestRunLoopPanicsOnZeroThreads(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("RunLoop with 0 threads did not panic")
		}
	}()
	RunLoop(&testing.B{}, 0, func(int, int) {})
}

// TestMain shortens testing.Benchmark's runs: the tests check the
// harness's bookkeeping, not the numbers.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.benchtime"); f != nil && f.Value.String() == "1s" {
		f.Value.Set("50ms")
	}
	os.Exit(m.Run())
}

// TestMaxRelStddev: the values the lock table showed for every lock in one
// run of issue 10 (100, 173, 265 at 2, 4, 8 goroutines) are exactly one
// goroutine doing all the work, and no progress vector goes beyond them.
func TestMaxRelStddev(t *testing.T) {
	for k, want := range map[int]float64{1: 0, 2: 100, 4: 173.205, 8: 264.575} {
		xs := make([]int, k)
		xs[0] = 1000
		if got := RelStddev(xs); math.Abs(got-want) > 0.001 || math.Abs(MaxRelStddev(k)-got) > 1e-9 {
			t.Errorf("k=%d: one does all: RelStddev %v, MaxRelStddev %v, want %v", k, got, MaxRelStddev(k), want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		k := 2 + rng.IntN(7)
		xs := make([]int, k)
		for i := range xs {
			xs[i] = rng.IntN(3) * rng.IntN(1000)
		}
		if got := RelStddev(xs); got > MaxRelStddev(k)+1e-9 {
			t.Fatalf("RelStddev(%v) = %v > MaxRelStddev(%d) = %v", xs, got, k, MaxRelStddev(k))
		}
	}
}

// TestMeterShortRun checks that a Meter around a run of a few nanoseconds
// in all still reports a positive cycles/op: the time b.Loop spends
// outside its timer, far longer than such a run, must not swallow it.
func TestMeterShortRun(t *testing.T) {
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("20x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	for range 50 {
		var x int
		res := testing.Benchmark(func(b *testing.B) {
			m := Start(b)
			for b.Loop() {
				x++
			}
			m.Stop()
		})
		if c := res.Extra[CyclesUnit]; res.N != 20 || !(c > 0) {
			t.Fatalf("20 increments: N = %d, cycles/op = %v", res.N, c)
		}
	}
}
