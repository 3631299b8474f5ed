package spin_test

import (
	"fmt"
	"sync"

	"github.com/gohal/gohal/spin"
)

// A spin lock guards a short critical section, like sync.Mutex. The zero
// value is ready to use.
func Example() {
	var (
		mu    spin.TTAS
		total int
		wg    sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				mu.Lock()
				total++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println(total)
	// Output: 4000
}

// Every lock in the package, and sync.Mutex, is a spin.Locker.
func ExampleLocker() {
	for _, l := range []spin.Locker{new(spin.TAS), new(spin.TTAS), new(spin.Backoff), new(spin.Ticket), new(spin.MCS), new(sync.Mutex)} {
		l.Lock()
		again := l.TryLock()
		l.Unlock()
		fmt.Printf("%T: TryLock while held: %v\n", l, again)
	}
	// Output:
	// *spin.TAS: TryLock while held: false
	// *spin.TTAS: TryLock while held: false
	// *spin.Backoff: TryLock while held: false
	// *spin.Ticket: TryLock while held: false
	// *spin.MCS: TryLock while held: false
	// *sync.Mutex: TryLock while held: false
}
