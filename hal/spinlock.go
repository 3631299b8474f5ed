package hal

import "runtime"

// spinLockCap is the largest budget SpinLockUint32 hands to one call of
// its assembly loop: 1024 pauses. The Go scheduler cannot preempt
// assembly, so a garbage collection that must stop the world waits at most
// one such call for a goroutine in SpinLockUint32, whatever its budget:
// the cap bounds that wait by a count of pauses, whatever one pause costs
// on the machine (Pause's variants differ tenfold across cores; halbench
// measures them). It is a power of two well above spin.Asm's chunk, so
// that a caller that spins for longer pays one Gosched per many pauses.
const spinLockCap = 1024

// SpinLockUint32 tries to take the spin lock word *addr (0 free, 1 held),
// spinning at most spins pauses: it reads *addr; while the word is held it
// pauses (the architecture's spin hint, as Pause) and reads it again; when
// it reads 0 it tries a compare-and-swap from 0 to 1, and a CAS that loses
// counts as one more pause. It returns true once the CAS has taken the
// lock (sequentially consistent, so the caller's critical section cannot
// move before it, as with sync.Mutex.Lock) and false when the budget runs
// out first, without having changed *addr. With spins 0 it is a TryLock.
// Release the lock with StoreReleaseUint32(addr, 0).
//
// The loop is assembly, which the Go scheduler cannot preempt, so a budget
// above 1024 is spent in calls of at most 1024 pauses each, with
// runtime.Gosched between them (each call starts with
// one more read of *addr): a garbage collection or another goroutine waits
// for at most one call. A budget of at most 1024 is a single call.
// spin.Asm calls it with at most 16 pauses at a time.
func SpinLockUint32(addr *uint32, spins uint32) (acquired bool) {
	if spins <= spinLockCap {
		return spinLockUint32(addr, spins)
	}
	return spinChunks(addr, spins, spinLockUint32)
}

// spinChunks spends spins in calls of chunk with at most spinLockCap
// each, yielding between them, until one acquires.
func spinChunks(addr *uint32, spins uint32, chunk func(addr *uint32, spins uint32) bool) bool {
	for {
		n := min(spins, spinLockCap)
		if chunk(addr, n) {
			return true
		}
		spins -= n
		if spins == 0 {
			return false
		}
		runtime.Gosched()
	}
}
