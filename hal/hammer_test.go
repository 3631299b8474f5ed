package hal_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

func addrOf(p *[2]uint64) uintptr { return uintptr(unsafe.Pointer(p)) }

// hammerSize returns the goroutine count and the operations per goroutine.
func hammerSize() (goroutines, perG int) {
	if testing.Short() {
		return 8, 20000
	}
	return 8, 500000
}

// hammer runs body(g) on goroutines goroutines at once and waits. The
// goroutines meet at a barrier first, so that their bodies overlap as much
// as the machine allows.
func hammer(goroutines int, body func(g int)) {
	var ready atomic.Int32
	var done sync.WaitGroup
	for g := range goroutines {
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Add(1)
			for ready.Load() < int32(goroutines) {
				runtime.Gosched()
			}
			body(g)
		}()
	}
	done.Wait()
}

// checkPermutation asserts that olds holds every value in [0, n) exactly
// once: every fetch-add saw a distinct old value, so none was lost or
// duplicated.
func checkPermutation(t *testing.T, olds [][]uint64, n int) {
	t.Helper()
	seen := make([]bool, n)
	count := 0
	for _, s := range olds {
		for _, v := range s {
			if v >= uint64(n) || seen[v] {
				t.Fatalf("fetch-add returned old value %d twice or out of range [0, %d)", v, n)
			}
			seen[v] = true
			count++
		}
	}
	if count != n {
		t.Fatalf("%d old values, want %d", count, n)
	}
}

func TestHammerFetchAdd64(t *testing.T) {
	eachVariant(t, "fetchadd64", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uint64
		olds := make([][]uint64, G)
		hammer(G, func(g int) {
			s := make([]uint64, 0, N)
			for range N {
				s = append(s, b.fetchadd64(&x, 1))
			}
			olds[g] = s
		})
		if x != uint64(G*N) {
			t.Fatalf("total = %d, want %d", x, G*N)
		}
		checkPermutation(t, olds, G*N)
	})
}

func TestHammerFetchAdd32(t *testing.T) {
	eachVariant(t, "fetchadd32", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uint32
		olds := make([][]uint64, G)
		hammer(G, func(g int) {
			s := make([]uint64, 0, N)
			for range N {
				s = append(s, uint64(b.fetchadd32(&x, 1)))
			}
			olds[g] = s
		})
		if x != uint32(G*N) {
			t.Fatalf("total = %d, want %d", x, G*N)
		}
		checkPermutation(t, olds, G*N)
	})
}

// CAS-based increments: each goroutine retries until it has made N
// successful increments, so the total must be exactly G*N.
func TestHammerCAS64(t *testing.T) {
	eachVariant(t, "cas64", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uint64
		var failures atomic.Int64
		hammer(G, func(int) {
			for ok := 0; ok < N; {
				v := atomic.LoadUint64(&x)
				if b.cas64(&x, v, v+1) {
					ok++
				} else {
					failures.Add(1)
				}
			}
		})
		if x != uint64(G*N) {
			t.Fatalf("total = %d, want %d", x, G*N)
		}
		t.Logf("%d failed CAS attempts", failures.Load())
	})
}

func TestHammerCAS32(t *testing.T) {
	eachVariant(t, "cas32", func(t *testing.T, b calls) {
		G, N := hammerSize()
		// Start just below the top bit so the count crosses it.
		const base = 1<<31 - 1000
		x := uint32(base)
		hammer(G, func(int) {
			for ok := 0; ok < N; {
				v := atomic.LoadUint32(&x)
				if b.cas32(&x, v, v+1) {
					ok++
				}
			}
		})
		if x != uint32(base+G*N) {
			t.Fatalf("total = %d, want %d", x-base, G*N)
		}
	})
}

func TestHammerCASUintptr(t *testing.T) {
	eachVariant(t, "casuintptr", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uintptr
		hammer(G, func(int) {
			for ok := 0; ok < N; {
				v := atomic.LoadUintptr(&x)
				if b.casuintptr(&x, v, v+1) {
					ok++
				}
			}
		})
		if x != uintptr(G*N) {
			t.Fatalf("total = %d, want %d", x, G*N)
		}
	})
}

// Swap: every value put in is taken out exactly once, by some swap or as
// the final value.
func TestHammerSwap64(t *testing.T) {
	eachVariant(t, "swap64", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uint64 // initial value 0
		taken := make([]uint64, G)
		hammer(G, func(g int) {
			var sum uint64
			for i := range N {
				// Values 1..G*N, distinct; the high bits exercise
				// the full width.
				v := uint64(g*N+i+1) | 1<<63
				sum += b.swap64(&x, v) &^ (1 << 63)
			}
			taken[g] = sum
		})
		var sum uint64
		for _, s := range taken {
			sum += s
		}
		sum += x &^ (1 << 63)
		n := uint64(G * N)
		if want := n * (n + 1) / 2; sum != want {
			t.Fatalf("sum of values taken + final = %d, want %d", sum, want)
		}
	})
}

func TestHammerSwap32(t *testing.T) {
	eachVariant(t, "swap32", func(t *testing.T, b calls) {
		G, N := hammerSize()
		var x uint32
		taken := make([]uint64, G)
		hammer(G, func(g int) {
			var sum uint64
			for i := range N {
				sum += uint64(b.swap32(&x, uint32(g*N+i+1)))
			}
			taken[g] = sum
		})
		sum := uint64(x)
		for _, s := range taken {
			sum += s
		}
		n := uint64(G * N)
		if want := n * (n + 1) / 2; sum != want {
			t.Fatalf("sum of values taken + final = %d, want %d", sum, want)
		}
	})
}

// Load/store: one writer publishes an increasing counter with
// StoreRelease; readers LoadAcquire it. Each reader must see a value that
// never goes back (coherence) and is never torn (both halves of the 64-bit
// word agree).
func TestHammerLoadStore64(t *testing.T) {
	for _, op := range []string{"loadacquire64", "storerelease64"} {
		t.Run(op, func(t *testing.T) { hammerLoadStore64(t, op) })
	}
}

func hammerLoadStore64(t *testing.T, op string) {
	eachVariant(t, op, func(t *testing.T, b calls) {
		_, N := hammerSize()
		G := 4
		var x uint64
		var bad atomic.Value
		hammer(G, func(g int) {
			if g == 0 {
				for i := uint64(1); i <= uint64(N); i++ {
					b.storerelease64(&x, i<<32|i)
				}
				return
			}
			var prev uint64
			for {
				v := b.loadacquire64(&x)
				if v>>32 != v&0xffffffff {
					bad.Store("torn value")
					return
				}
				if v < prev {
					bad.Store("value went back")
					return
				}
				prev = v
				if v&0xffffffff == uint64(N) {
					return
				}
				runtime.Gosched()
			}
		})
		if s := bad.Load(); s != nil {
			t.Fatal(s)
		}
	})
}

func TestHammerLoadStore32(t *testing.T) {
	for _, op := range []string{"loadacquire32", "storerelease32"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				_, N := hammerSize()
				last := uint32(min(N, 0xffff))
				var x uint32
				var bad atomic.Value
				hammer(3, func(g int) {
					if g == 0 {
						for i := uint32(1); i <= last; i++ {
							b.storerelease32(&x, i<<16|i)
						}
						return
					}
					var prev uint32
					for {
						v := b.loadacquire32(&x)
						if v>>16 != v&0xffff || v < prev {
							bad.Store("torn or non-monotonic value")
							return
						}
						prev = v
						if v == last<<16|last {
							return
						}
						runtime.Gosched()
					}
				})
				if s := bad.Load(); s != nil {
					t.Fatal(s)
				}
			})
		})
	}
}

// Message passing through the ops under test: the writer fills a payload
// with plain stores and publishes it with StoreRelease; a reader that sees
// the flag with LoadAcquire must see the whole payload.
func TestHammerMessagePassing(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	for _, op := range []string{"loadacquire64", "storerelease64"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				_, N := hammerSize()
				N /= 10
				type msg struct {
					flag    uint64
					payload [4]uint64
				}
				msgs := make([]msg, N)
				var bad atomic.Int64
				hammer(2, func(g int) {
					for i := range msgs {
						m := &msgs[i]
						if g == 0 {
							for j := range m.payload {
								m.payload[j] = uint64(i + j + 1)
							}
							b.storerelease64(&m.flag, 1)
							continue
						}
						for b.loadacquire64(&m.flag) == 0 {
						}
						for j := range m.payload {
							if m.payload[j] != uint64(i+j+1) {
								bad.Add(1)
							}
						}
					}
				})
				if n := bad.Load(); n != 0 {
					t.Fatalf("%d payload words seen stale after the acquire load", n)
				}
			})
		})
	}
}

// cas128: every Load must see hi == ^lo, and the count of successful
// increments must be exact.
func TestHammerCAS128(t *testing.T) {
	eachVariant(t, "cas128", func(t *testing.T, b calls) {
		G, N := hammerSize()
		N /= 4
		var u hal.Uint128
		u.Store(0, ^uint64(0))
		var torn atomic.Int64
		hammer(G, func(int) {
			lo, hi := b.load128(&u)
			for ok := 0; ok < N; {
				if hi != ^lo {
					torn.Add(1)
				}
				foundLo, foundHi, swapped := b.cas128(&u, lo, hi, lo+1, ^(lo + 1))
				if swapped {
					ok++
					lo, hi = lo+1, ^(lo + 1)
				} else {
					lo, hi = foundLo, foundHi
				}
			}
		})
		if n := torn.Load(); n != 0 {
			t.Fatalf("%d values with hi != ^lo", n)
		}
		lo, hi := u.Load()
		if lo != uint64(G*N) || hi != ^lo {
			t.Fatalf("final = %d, %#x; want %d, ^%d", lo, hi, G*N, G*N)
		}
	})
}

// Fence, pause and cycles from many goroutines at once: they must not
// crash, and each goroutine's counter must not go back.
func TestHammerFencePauseCycles(t *testing.T) {
	for _, op := range []string{"fence", "pause", "cycles"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, b calls) {
				G, N := hammerSize()
				N /= 50 // the portable Pause is a runtime.Gosched
				var back atomic.Int64
				hammer(G, func(int) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					prev := b.cycles()
					for range N {
						switch op {
						case "fence":
							b.fence()
						case "pause":
							b.pause()
						}
						c := b.cycles()
						if c < prev {
							back.Add(1)
						}
						prev = c
					}
				})
				if n := back.Load(); n != 0 {
					t.Errorf("counter went back %d times", n)
				}
			})
		})
	}
}

// spinLock takes the lock word with b's spinlock32 as spin.Asm does: a
// budget of pauses per call, and runtime.Gosched between calls, so that
// more goroutines than processors still make progress.
func spinLock(b calls, w *uint32) {
	for !b.spinlock32(w, 128) {
		runtime.Gosched()
	}
}

// spinlock32 as a lock: goroutines increment a plain counter inside it,
// and a flag that nobody else may see set on entry checks mutual
// exclusion. Every increment must survive (the total is exact), which also
// needs the acquire of the CAS and the release of the store: a critical
// section that leaked past either would lose increments.
func TestHammerSpinLock32(t *testing.T) {
	eachVariant(t, "spinlock32", func(t *testing.T, b calls) {
		G, N := hammerSize()
		G, N = max(G, 4), N/4
		var (
			word    uint32
			counter int // guarded by word; plain accesses on purpose
			inside  atomic.Bool
			overlap atomic.Int64
		)
		hammer(G, func(int) {
			for range N {
				spinLock(b, &word)
				if inside.Swap(true) {
					overlap.Add(1)
				}
				counter++
				inside.Store(false)
				b.storerelease32(&word, 0)
			}
		})
		if n := overlap.Load(); n != 0 {
			t.Fatalf("%d critical sections overlapped", n)
		}
		if counter != G*N {
			t.Fatalf("counter = %d, want %d", counter, G*N)
		}
		if word != 0 {
			t.Fatalf("lock word %d after the last release", word)
		}
	})
}

// A caller spinning on a held word takes it once another goroutine
// releases it within the budget: the loop really reads the word again
// after each pause.
func TestSpinLock32WaitsForRelease(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	eachVariant(t, "spinlock32", func(t *testing.T, b calls) {
		for range 20 {
			word := uint32(1)
			var started atomic.Bool
			done := make(chan bool)
			go func() {
				started.Store(true)
				// Short budgets, yielding between them: one long
				// assembly loop cannot be preempted and would hold
				// up a stop-the-world (and this goroutine's release).
				deadline := time.Now().Add(20 * time.Second)
				for time.Now().Before(deadline) {
					if b.spinlock32(&word, 1<<12) {
						done <- true
						return
					}
					runtime.Gosched()
				}
				done <- false
			}()
			for !started.Load() {
				runtime.Gosched()
			}
			b.storerelease32(&word, 0)
			if !<-done {
				t.Fatal("the lock was released, yet no call took it in 20 s")
			}
			if word != 1 {
				t.Fatalf("word = %d after acquiring", word)
			}
		}
	})
}
