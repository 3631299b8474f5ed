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

// Backoff is a sync.Locker, so it can stand in for a sync.Mutex wherever a
// Locker is taken; here it guards a map. Keep the critical section short:
// waiters spin (and yield between budgets of pauses) instead of sleeping.
func ExampleBackoff() {
	var (
		mu    spin.Backoff
		seen  = map[int]int{}
		wg    sync.WaitGroup
		guard sync.Locker = &mu
	)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				guard.Lock()
				seen[i%10] += g
				guard.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println(len(seen), seen[0], seen[9]) // 10 keys, each 10 × (0+1+2+3)
	// Output: 10 60 60
}
