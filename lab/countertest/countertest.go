// Package countertest holds the concurrent check the counter packages'
// tests share.
//
// Goroutines add and subtract at once, and the total must be exact
// (Concurrency Kit's validation for counters, which have no critical section
// to check for exclusion).
package countertest

import (
	"sync"
	"testing"
)

// Iterations returns short under go test -short and long otherwise.
func Iterations(long, short int) int {
	if testing.Short() {
		return short
	}
	return long
}

// AddSubtract runs threads goroutines; goroutine g calls add(g+1) iters
// times and add(-1) after every third of those. It then fails t unless
// load returns the exact sum.
func AddSubtract(t testing.TB, add func(int64), load func() int64, threads, iters int) {
	t.Helper()
	var wg sync.WaitGroup
	for g := range threads {
		wg.Go(func() {
			for i := range iters {
				add(int64(g + 1))
				if i%3 == 0 {
					add(-1)
				}
			}
		})
	}
	wg.Wait()
	var want int64
	for g := range threads {
		want += int64(g+1)*int64(iters) - int64((iters+2)/3)
	}
	if got := load(); got != want {
		t.Fatalf("Load = %d, want %d", got, want)
	}
}
