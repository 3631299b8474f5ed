package hal_test

import (
	"os/exec"
	"strings"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

// rawCopy copies a Uint128 byte for byte, as append, copy, a struct
// assignment or the runtime's stack growth do, without go vet seeing a
// copy of a lock.
func rawCopy(dst, src *hal.Uint128) {
	*(*[unsafe.Sizeof(hal.Uint128{})]byte)(unsafe.Pointer(dst)) = *(*[unsafe.Sizeof(hal.Uint128{})]byte)(unsafe.Pointer(src))
}

// value128 is the value test words hold: distinct halves for each i, so
// that a read from the wrong offset or with swapped halves shows.
func value128(i int) (lo, hi uint64) {
	return uint64(i)<<32 | 0x1111, ^(uint64(i)<<32 | 0x2222)
}

// TestUint128MovedByAppend grows a slice of Uint128s by append, one element
// at a time, so the elements move many times and each lands at every
// 16-byte alignment (the element size, 32, keeps it constant within one
// backing array, but backing arrays start where the allocator puts them;
// the struct variant below mixes offsets). Every element must keep its
// value across every move, whether or not it was read in between.
func TestUint128MovedByAppend(t *testing.T) {
	var s []hal.Uint128
	for i := range 300 {
		s = append(s, hal.Uint128{})
		s[i].Store(value128(i))
		for j := range s {
			if j%7 != i%7 { // leave some elements unread across moves
				continue
			}
			if lo, hi := s[j].Load(); [2]uint64{lo, hi} != pair(value128(j)) {
				t.Fatalf("after %d appends, element %d loads %#x, %#x; want %#x", i+1, j, lo, hi, pair(value128(j)))
			}
		}
	}
	for j := range s {
		if lo, hi := s[j].Load(); [2]uint64{lo, hi} != pair(value128(j)) {
			t.Fatalf("element %d loads %#x, %#x; want %#x", j, lo, hi, pair(value128(j)))
		}
	}
}

func pair(lo, hi uint64) [2]uint64 { return [2]uint64{lo, hi} }

// slot is a Uint128 inside a struct whose other fields put it at an
// offset that is 8 modulo 16 or 0 modulo 16 depending on the element.
type slot struct {
	tag uint64
	u   hal.Uint128
}

type slot2 struct {
	u   hal.Uint128
	tag uint64
}

// TestUint128StructCopy copies structs holding a Uint128 between places
// of both alignments (an 8-byte field before it, or none) and checks the
// copy loads the original's value, and that the copy and the original are
// then independent words.
func TestUint128StructCopy(t *testing.T) {
	type pad8 struct {
		_ uint64
		s slot2
	}
	srcs := []*slot2{new(slot2), &new(pad8).s}
	dsts := []*slot2{new(slot2), &new(pad8).s}
	for i, src := range srcs {
		for j, dst := range dsts {
			lo, hi := value128(10*i + j)
			src.u.Store(lo, hi)
			rawCopy(&dst.u, &src.u)
			if l, h := dst.u.Load(); l != lo || h != hi {
				t.Fatalf("src %d (addr %% 16 = %d) → dst %d (addr %% 16 = %d): copy loads %#x, %#x; want %#x, %#x",
					i, uintptr(unsafe.Pointer(&src.u))%16, j, uintptr(unsafe.Pointer(&dst.u))%16, l, h, lo, hi)
			}
			dst.u.Store(1, 2)
			if l, h := src.u.Load(); l != lo || h != hi {
				t.Fatalf("storing into the copy changed the original to %#x, %#x", l, h)
			}
			if !dst.u.CompareAndSwap(1, 2, 3, 4) {
				t.Fatal("CompareAndSwap on the copy failed")
			}
			if l, h := dst.u.Swap(5, 6); l != 3 || h != 4 {
				t.Fatalf("Swap on the copy returned %d, %d; want 3, 4", l, h)
			}
		}
	}
}

// TestUint128SliceOfStructs moves a slice of structs (each with a Uint128
// at an 8-mod-16 or 0-mod-16 offset) by copying it into backing arrays
// that start 8 bytes apart, and checks every value, read through each
// method, after each move.
func TestUint128SliceOfStructs(t *testing.T) {
	const n = 64
	a := make([]slot, n)
	for i := range a {
		a[i].tag = uint64(i)
		a[i].u.Store(value128(i))
	}
	for move := range 6 {
		// A backing array one slot larger, used from element move%2:
		// the copies start at alternating alignments.
		b := make([]slot, n+1)[move%2:]
		b = b[:n]
		copy(b, a) // moves every Uint128 (go vet does not see copy)
		for i := range b {
			want := pair(value128(i))
			var got [2]uint64
			switch (i + move) % 3 {
			case 0:
				got[0], got[1] = b[i].u.Load()
			case 1:
				got[0], got[1] = b[i].u.Swap(want[0], want[1])
			case 2:
				if !b[i].u.CompareAndSwap(want[0], want[1], want[0], want[1]) {
					got[0], got[1] = b[i].u.Load()
				} else {
					got = want
				}
			}
			if got != want || b[i].tag != uint64(i) {
				t.Fatalf("move %d: element %d (addr %% 16 = %d) holds %#x, tag %d; want %#x, tag %d",
					move, i, uintptr(unsafe.Pointer(&b[i].u))%16, got, b[i].tag, want, i)
			}
		}
		a = b
	}
}

// TestUint128StackGrowth keeps a Uint128 on a goroutine stack that grows
// (a deep recursion copies the stack to a larger one): the word moves with
// the stack and must keep its value.
func TestUint128StackGrowth(t *testing.T) {
	done := make(chan [2]uint64)
	go func() {
		var u hal.Uint128
		u.Store(value128(42))
		deep(100)
		lo, hi := u.Load()
		done <- [2]uint64{lo, hi}
	}()
	if got := <-done; got != pair(value128(42)) {
		t.Fatalf("after stack growth: %#x, want %#x", got, pair(value128(42)))
	}
}

//go:noinline
func deep(n int) int {
	var buf [256]byte
	buf[n%256] = byte(n)
	if n == 0 {
		return int(buf[0])
	}
	return deep(n-1) + int(buf[n%256])
}

// TestUint128AddrAligned: the word Addr returns (WordOf, which the portable
// variants allow) is 16-byte aligned wherever the Uint128 is (the hardware
// variants would fault otherwise).
func TestUint128AddrAligned(t *testing.T) {
	type pad4 struct {
		_ uint32
		u hal.Uint128
	}
	type pad8 struct {
		_ uint64
		u hal.Uint128
	}
	for range 4 {
		var u hal.Uint128
		for _, p := range []*hal.Uint128{&new(pad4).u, &new(pad8).u, &u, new(hal.Uint128)} {
			if a := addrOf(hal.WordOf(p)); a%16 != 0 {
				t.Fatalf("Addr() = %#x, not 16-byte aligned", a)
			}
		}
	}
}

// TestVetCatchesUint128Copy runs go vet on a program that copies a
// Uint128 by assignment: the copylocks check must still report it.
func TestVetCatchesUint128Copy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "vet", "./testdata/copy128").CombinedOutput()
	if err == nil {
		t.Fatalf("go vet passed a program that copies a Uint128:\n%s", out)
	}
	if !strings.Contains(string(out), "copies lock value") && !strings.Contains(string(out), "passes lock by value") {
		t.Fatalf("go vet failed, but not with copylocks:\n%s", out)
	}
}
