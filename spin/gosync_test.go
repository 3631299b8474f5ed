// Code below adapts Go's own sync.Mutex tests and benchmarks
// (GOROOT/src/sync/mutex_test.go, BSD-style license, Copyright The Go
// Authors) to every lock of the package.

package spin

import (
	"sync"
	"testing"
	"time"
)

// hammerMutex is GOROOT's HammerMutex: every third iteration a TryLock.
func hammerMutex(m Locker, loops int, cdone chan bool) {
	for i := 0; i < loops; i++ {
		if i%3 == 0 {
			if m.TryLock() {
				m.Unlock()
			}
			continue
		}
		m.Lock()
		m.Unlock()
	}
	cdone <- true
}

// TestGoMutex is GOROOT's TestMutex (TryLock, then ten hammering
// goroutines) against every lock.
func TestGoMutex(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		m := k.new()
		m.Lock()
		if m.TryLock() {
			t.Fatalf("TryLock succeeded with mutex locked")
		}
		m.Unlock()
		if !m.TryLock() {
			t.Fatalf("TryLock failed with mutex unlocked")
		}
		m.Unlock()
		c := make(chan bool)
		for i := 0; i < 10; i++ {
			go hammerMutex(m, 1000, c)
		}
		for i := 0; i < 10; i++ {
			<-c
		}
	})
}

// TestGoMutexFairness is GOROOT's TestMutexFairness against every lock:
// a goroutine that locks every 100 µs gets the lock ten times while
// another holds it for 100 µs at a time and re-locks at once.
func TestGoMutexFairness(t *testing.T) {
	forEachLock(t, func(t *testing.T, k lockKind) {
		mu := k.new()
		stop := make(chan bool)
		defer close(stop)
		go func() {
			for {
				mu.Lock()
				time.Sleep(100 * time.Microsecond)
				mu.Unlock()
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
		done := make(chan bool, 1)
		go func() {
			for i := 0; i < 10; i++ {
				time.Sleep(100 * time.Microsecond)
				mu.Lock()
				mu.Unlock()
			}
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("can't acquire the lock in 10 seconds")
		}
	})
}

// BenchmarkGoMutexUncontendedMutex is GOROOT's BenchmarkMutexUncontended
// with a sync.Mutex: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedMutex(b *testing.B) {
	type padded struct {
		mu  sync.Mutex
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexMutex is GOROOT's BenchmarkMutex with a sync.Mutex: one lock,
// every goroutine.
func BenchmarkGoMutexMutex(b *testing.B) {
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedTAS is GOROOT's BenchmarkMutexUncontended
// with a TAS: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedTAS(b *testing.B) {
	type padded struct {
		mu  TAS
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexTAS is GOROOT's BenchmarkMutex with a TAS: one lock,
// every goroutine.
func BenchmarkGoMutexTAS(b *testing.B) {
	var mu TAS
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedTTAS is GOROOT's BenchmarkMutexUncontended
// with a TTAS: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedTTAS(b *testing.B) {
	type padded struct {
		mu  TTAS
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexTTAS is GOROOT's BenchmarkMutex with a TTAS: one lock,
// every goroutine.
func BenchmarkGoMutexTTAS(b *testing.B) {
	var mu TTAS
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedAsm is GOROOT's BenchmarkMutexUncontended
// with a Asm: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedAsm(b *testing.B) {
	type padded struct {
		mu  Asm
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexAsm is GOROOT's BenchmarkMutex with a Asm: one lock,
// every goroutine.
func BenchmarkGoMutexAsm(b *testing.B) {
	var mu Asm
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedBackoff is GOROOT's BenchmarkMutexUncontended
// with a Backoff: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedBackoff(b *testing.B) {
	type padded struct {
		mu  Backoff
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexBackoff is GOROOT's BenchmarkMutex with a Backoff: one lock,
// every goroutine.
func BenchmarkGoMutexBackoff(b *testing.B) {
	var mu Backoff
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedTicket is GOROOT's BenchmarkMutexUncontended
// with a Ticket: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedTicket(b *testing.B) {
	type padded struct {
		mu  Ticket
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexTicket is GOROOT's BenchmarkMutex with a Ticket: one lock,
// every goroutine.
func BenchmarkGoMutexTicket(b *testing.B) {
	var mu Ticket
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkGoMutexUncontendedMCS is GOROOT's BenchmarkMutexUncontended
// with a MCS: a lock per goroutine, nobody waits.
func BenchmarkGoMutexUncontendedMCS(b *testing.B) {
	type padded struct {
		mu  MCS
		pad [128]uint8
	}
	b.RunParallel(func(pb *testing.PB) {
		var mu padded
		for pb.Next() {
			mu.mu.Lock()
			mu.mu.Unlock()
		}
	})
}

// BenchmarkGoMutexMCS is GOROOT's BenchmarkMutex with a MCS: one lock,
// every goroutine.
func BenchmarkGoMutexMCS(b *testing.B) {
	var mu MCS
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}
