// Command racy is a deliberately racy program: one goroutine writes a word
// with a plain store while another reads it through a gohal op. Built with
// -race, the race detector must report it, which proves that gohal's
// race-build fallback makes its accesses visible to the detector.
package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/gohal/gohal/hal"
)

func main() {
	var word uint64
	var wg sync.WaitGroup
	wg.Add(2)
	op := "load"
	if len(os.Args) > 1 {
		op = os.Args[1]
	}
	go func() {
		defer wg.Done()
		word = 42 // plain write, racing with the hal op below
	}()
	go func() {
		defer wg.Done()
		switch op {
		case "load":
			_ = hal.LoadAcquireUint64(&word)
		case "fetchadd":
			hal.FetchAddUint64(&word, 1)
		case "cas":
			hal.CompareAndSwapUint64(&word, 0, 1)
		case "store":
			hal.StoreReleaseUint64(&word, 7)
		default:
			fmt.Fprintln(os.Stderr, "racy: unknown op", op)
			os.Exit(3)
		}
	}()
	wg.Wait()
	fmt.Println("done")
}
