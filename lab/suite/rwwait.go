package suite

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohal/gohal/percpu"
)

// The reader/writer lock-wait measurement (issue 40.3): how long RLock and
// Lock wait, as distributions, for percpu.RWMutex beside sync.RWMutex, in
// two shapes.
//
// Writers: g goroutines each Lock, hold the lock Hold (busy), Unlock,
// again, beside one reader that RLocks, RUnlocks and reads again at once:
// does a reader that meets a stream of writers get in?
//
// Readers: g goroutines each RLock, hold it Hold, RUnlock, again, beside
// one writer that writes again at once: does a writer among continuous
// readers get in, and what do the readers pay for it?
//
// Every cell (shape, g) runs each kind for Window per round, the kinds'
// order rotated by the round, so that load from other processes falls on
// both alike, each round on a fresh lock and fresh goroutines. Each
// round's figures are kept, as well as their sum per kind: with few CPUs a
// run of a cell settles into one of a few schedules (whether the lone
// reader or writer runs on while the other side waits for a P, or they
// take turns), drawn anew each round for either lock, and a round in the
// schedule where the lone side runs on makes many times the calls, so
// the sum's percentiles are mostly that round's. A wait is read as in
// lockwait.go (one clock read on a fixed base).

// RWWaitShapes are the two shapes, in the order they run.
var RWWaitShapes = []string{"writers", "readers"}

// RWWaitKinds are the locks measured, sync.RWMutex (the baseline) last.
var RWWaitKinds = []string{"percpu", "rwmutex"}

// RWWaitControl is the kind a Control run adds before the baseline: a
// second sync.RWMutex, measured as the others are, so that the rule that
// compares percpu with the baseline can be tried on a lock against itself.
const RWWaitControl = "control"

// RWWaitConfig sets the sizes of a [MeasureRWWait] run; zero fields take
// the defaults.
type RWWaitConfig struct {
	Goroutines []int         // the continuous side's goroutines per cell (default 2, 4, 8)
	Window     time.Duration // each kind's run of a cell in a round (default 100 ms)
	Hold       time.Duration // how long the continuous side holds the lock (default 20 µs)
	Rounds     int           // interleaved rounds (default 3)
	Control    bool          // also run RWWaitControl, a second sync.RWMutex
}

// kinds returns the kinds a run measures, in RWWaitKinds' order, with
// RWWaitControl before the baseline if c.Control.
func (c *RWWaitConfig) kinds() []string {
	ks := append([]string(nil), RWWaitKinds...)
	if c.Control {
		ks = append(ks[:len(ks)-1], RWWaitControl, ks[len(ks)-1])
	}
	return ks
}

// RWWaitResult is one kind's measurement in one cell: all rounds merged,
// and each round's.
type RWWaitResult struct {
	Shape      string // "writers" or "readers"
	Goroutines int    // the continuous side's goroutines
	Kind       string // "percpu" or "rwmutex"

	RWWaitRound // all rounds merged

	// PerRound holds each round's figures, in the order they ran.
	PerRound []RWWaitRound
}

// RWWaitRound is one kind's run of a cell: in one round, or merged.
type RWWaitRound struct {
	// Read and Write are the waits of RLock and of Lock. Reads and
	// Writes count the calls made; Seconds is the time the runs took.
	Read, Write   WaitHist
	Reads, Writes uint64
	Seconds       float64
}

// add merges o into r.
func (r *RWWaitRound) add(o *RWWaitRound) {
	r.Read.Merge(&o.Read)
	r.Write.Merge(&o.Write)
	r.Reads += o.Reads
	r.Writes += o.Writes
	r.Seconds += o.Seconds
}

func (c *RWWaitConfig) fill() error {
	if len(c.Goroutines) == 0 {
		c.Goroutines = []int{2, 4, 8}
	}
	if c.Window == 0 {
		c.Window = 100 * time.Millisecond
	}
	if c.Hold == 0 {
		c.Hold = 20 * time.Microsecond
	}
	if c.Rounds == 0 {
		c.Rounds = 3
	}
	for _, g := range c.Goroutines {
		if g < 1 {
			return fmt.Errorf("suite: RWWaitConfig.Goroutines: %d goroutines: want at least 1", g)
		}
	}
	if c.Window < 0 || c.Hold < 0 || c.Rounds < 0 {
		return fmt.Errorf("suite: RWWaitConfig: Window %v, Hold %v and Rounds %d must not be negative", c.Window, c.Hold, c.Rounds)
	}
	return nil
}

// MeasureRWWait runs the reader/writer lock-wait measurement (see the
// comment at the top of rwwait.go) and returns a result per shape,
// goroutine count and kind (cfg.kinds()), in that order. progress, if
// not nil, is called as each round starts.
func MeasureRWWait(cfg RWWaitConfig, progress func(round, rounds int)) ([]RWWaitResult, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	kinds := cfg.kinds()
	var out []RWWaitResult
	for _, shape := range RWWaitShapes {
		for _, g := range cfg.Goroutines {
			for _, k := range kinds {
				out = append(out, RWWaitResult{Shape: shape, Goroutines: g, Kind: k})
			}
		}
	}
	nk := len(kinds)
	for r := range cfg.Rounds {
		if progress != nil {
			progress(r+1, cfg.Rounds)
		}
		for cell := 0; cell < len(out); cell += nk {
			for i := range nk {
				res := &out[cell+(i+r)%nk]
				var one RWWaitRound
				rwWaitRun(&one, res.Shape, res.Kind, res.Goroutines, cfg.Window, cfg.Hold)
				res.PerRound = append(res.PerRound, one)
				res.add(&one)
			}
		}
	}
	return out, nil
}

// rwWaitRun runs the cell (shape, g goroutines) once on a fresh lock of
// kind for window, adding to res. Every kind but percpu is a
// sync.RWMutex.
func rwWaitRun(res *RWWaitRound, shape, kind string, g int, window, hold time.Duration) {
	var l rwLocker = new(sync.RWMutex)
	if kind == "percpu" {
		l = new(percpu.RWMutex)
	}
	writers := shape == "writers"
	base := time.Now()
	var stop atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Each goroutine makes at least one call, even if it first runs
	// after the window (a loaded machine can keep a new goroutine off
	// the CPUs for longer): every kind then has waits to report.
	run := func(write bool, hold time.Duration) {
		var h WaitHist
		var n uint64
		for n == 0 || !stop.Load() {
			t0 := time.Since(base)
			if write {
				l.Lock()
			} else {
				l.RLock()
			}
			t1 := time.Since(base)
			h.Record(t1 - t0)
			for hold > 0 && time.Since(base)-t1 < hold {
			}
			if write {
				l.Unlock()
			} else {
				l.RUnlock()
			}
			n++
		}
		mu.Lock()
		if write {
			res.Write.Merge(&h)
			res.Writes += n
		} else {
			res.Read.Merge(&h)
			res.Reads += n
		}
		mu.Unlock()
	}
	for range g {
		wg.Go(func() { run(writers, hold) })
	}
	wg.Go(func() { run(!writers, 0) })
	time.Sleep(window)
	stop.Store(true)
	wg.Wait()
	res.Seconds += time.Since(base).Seconds()
}
