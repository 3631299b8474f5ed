package hal

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohal/gohal/dispatch"
)

// A CPU with none of the optional features still gets a variant for every
// op: each op's last resort needs nothing (on amd64 that is cas128's
// portable variant, for CPUs without CMPXCHG16B).
func TestBaselineCPUHasEveryOp(t *testing.T) {
	bare := &dispatch.Features{GOARCH: runtime.GOARCH, Flags: map[string]bool{}}
	choices, err := selectFor(bare, nil)
	if err != nil {
		t.Fatalf("a CPU without optional features: %v", err)
	}
	for _, c := range choices {
		t.Logf("%-15s %-13s %s", c.Op, c.Variant, c.Reason)
	}
}

// hasVariant reports whether op has a variant called name in this build.
func hasVariant(op, name string) bool {
	if o := findOp(op); o != nil {
		for _, v := range o.variants {
			if v.name == name {
				return true
			}
		}
	}
	return false
}

// cas128Blocks reports whether a cas128 through the entry waits for the
// portable variant's stripe lock: it does exactly when the entry runs the
// portable variant.
func cas128Blocks(t *testing.T) bool {
	t.Helper()
	var u Uint128
	s := stripeFor(u.word())
	// Hold the stripe as a holder would, without pinning the test
	// goroutine (it waits on a timer below).
	atomic.StoreUint32(&s.v, 1)
	done := make(chan struct{})
	go func() {
		cas128(u.word(), 0, 0, 1, 2)
		close(done)
	}()
	var blocked bool
	select {
	case <-done:
	case <-time.After(200 * time.Millisecond):
		blocked = true
	}
	atomic.StoreUint32(&s.v, 0)
	<-done
	if lo, hi := u.Load(); lo != 1 || hi != 2 {
		t.Fatalf("after cas128(0, 0 → 1, 2): %d, %d", lo, hi)
	}
	return blocked
}

// The entry of an op with a Go variant beside assembly ones reads the flag
// in assembly and tail-jumps to the Go variant when it is chosen (an op
// with only a Go variant has a Go entry): forcing the portable variant
// must route the entry to it, and forcing another variant away from it.
func TestGoEntryFollowsFlag(t *testing.T) {
	if !hasVariant("cas128", "portable") {
		t.Skip("cas128 has no portable variant in this build")
	}
	for _, v := range findOp("cas128").variants {
		t.Run(v.name, func(t *testing.T) {
			if ok, missing := runnable("cas128", v.name); !ok {
				t.Skipf("this CPU lacks %q", missing)
			}
			if staticBuild && v.name != staticVariant("cas128") {
				t.Skipf("static build: cas128/%s is compiled in", staticVariant("cas128"))
			}
			restore, err := force("cas128", v.name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			if got, want := cas128Blocks(t), v.name == "portable"; got != want {
				t.Errorf("with %s forced, the entry waited for the stripe lock: %v, want %v", v.name, got, want)
			}
		})
	}
}
