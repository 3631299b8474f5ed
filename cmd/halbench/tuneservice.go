package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/percpu"
)

// The workload tune's check re-measures the RW locks on when a GOHAL line
// changes the pair: the shape services have, readers in every goroutine
// and one writer on a timer. It is self-contained (a name parser and
// bodies over concrete types) so that a registry of workloads shared by
// halbench's commands can take it over whole (lab/suite's RWLock
// writer=1ms and writer=10ms, where that registry has them).

// servicePeriods are the writer's periods of the service-shaped RW lock
// workload: a write every 1 ms and every 10 ms.
var servicePeriods = []time.Duration{time.Millisecond, 10 * time.Millisecond}

// serviceKinds are the RW locks the service workload runs: the suite's
// RWLock kinds (lab/suite/rwlock.go).
var serviceKinds = map[string]func(threads int, period time.Duration) func(*testing.B){
	"rwmutex": serviceSync,
	"percpu":  servicePercpu,
}

// serviceName names a service-shaped benchmark:
// "Service/kind=percpu/threads=8/write=1ms".
func serviceName(kind string, threads int, period time.Duration) string {
	return fmt.Sprintf("Service/kind=%s/threads=%d/write=%s", kind, threads, period)
}

// serviceBench returns the service-shaped benchmark named name.
func serviceBench(name string) (func(*testing.B), int, bool) {
	rest, ok := strings.CutPrefix(name, "Service/kind=")
	if !ok {
		return nil, 0, false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 {
		return nil, 0, false
	}
	body := serviceKinds[parts[0]]
	ts, ok1 := strings.CutPrefix(parts[1], "threads=")
	ps, ok2 := strings.CutPrefix(parts[2], "write=")
	t, err1 := strconv.Atoi(ts)
	p, err2 := time.ParseDuration(ps)
	if body == nil || !ok1 || !ok2 || err1 != nil || err2 != nil || t < 1 || p <= 0 {
		return nil, 0, false
	}
	return body(t, p), t, true
}

// serviceRun runs threads readers over b.N read operations and, beside
// them, one writer that writes every period until they are done. ns/op is
// wall time per read: the writes' cost to the readers is in it.
func serviceRun(b *testing.B, threads int, period time.Duration, read func() int64, write func()) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for !stop.Load() {
			<-t.C
			write()
		}
	}()
	cyclebench.RunLoop(b, threads, func(_, n int) {
		var s int64
		for range n {
			s += read()
		}
		tuneSink.Add(uint64(s))
	})
	stop.Store(true)
	wg.Wait()
}

// serviceData is the data a service's lock guards.
type serviceData struct {
	_ [64]byte
	v int64
	_ [56]byte
}

func serviceSync(threads int, period time.Duration) func(*testing.B) {
	return func(b *testing.B) {
		var l sync.RWMutex
		x := new(serviceData)
		serviceRun(b, threads, period, func() int64 {
			l.RLock()
			s := x.v
			l.RUnlock()
			return s
		}, func() {
			l.Lock()
			x.v++
			l.Unlock()
		})
	}
}

func servicePercpu(threads int, period time.Duration) func(*testing.B) {
	return func(b *testing.B) {
		l := new(percpu.RWMutex)
		x := new(serviceData)
		serviceRun(b, threads, period, func() int64 {
			l.RLock()
			s := x.v
			l.RUnlock()
			return s
		}, func() {
			l.Lock()
			x.v++
			l.Unlock()
		})
	}
}
