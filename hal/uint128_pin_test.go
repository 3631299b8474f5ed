package hal_test

import (
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/internal/testexec"
	"github.com/gohal/gohal/percpu"
)

// TestUint128FirstAccessPinned is issue 19's reproduction: first accesses
// to fresh Uint128s at an 8-mod-16 offset inside percpu.Pin while six other
// goroutines make first accesses of their own. A first access that can
// block (a shared mutex taken to relocate the value) parks a pinned
// goroutine, which the runtime reports as the fatal error "schedule:
// holding locks"; so the loop runs in a child process and the parent
// checks that it exited cleanly.
func TestUint128FirstAccessPinned(t *testing.T) {
	if os.Getenv("GOHAL_PIN128_CHILD") == "1" {
		pinnedFirstAccesses()
		os.Exit(0)
	}
	cmd := testexec.Self("-test.run=^TestUint128FirstAccessPinned$")
	cmd.Env = append(os.Environ(), "GOHAL_PIN128_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		testexec.SkipUnrunnable(t, err)
		t.Fatalf("pinned first accesses: %v\n%s", err, tail(string(out), 2000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

type padded128 struct {
	_ uint64
	u hal.Uint128
}

func pinnedFirstAccesses() {
	rounds := 300
	if testing.Short() {
		rounds = 100
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ws := make([]padded128, 64)
				for j := range ws {
					ws[j].u.Store(uint64(j), 1)
				}
			}
		}()
	}
	for range rounds {
		ws := make([]padded128, 256)
		for j := range ws {
			percpu.Pin()
			ws[j].u.Store(1, 2)
			percpu.Unpin()
		}
		for j := range ws {
			if lo, hi := ws[j].u.Load(); lo != 1 || hi != 2 {
				panic("pinned Store lost")
			}
		}
		runtime.Gosched()
	}
	close(stop)
	wg.Wait()
}
