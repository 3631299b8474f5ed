package counter

import (
	"testing"
	"unsafe"

	"github.com/gohal/gohal/internal/cacheline"
)

// TestEmbeddedAfterUint32 embeds each counter after a uint32 field, the
// layout that misaligns a plain uint64 on 32-bit platforms (issue 10 item
// 2: on GOARCH=arm this panicked with "unaligned 64-bit atomic
// operation"), and uses it. Each counter must align itself as
// atomic.Int64 does. CI runs this under qemu-arm.
func TestEmbeddedAfterUint32(t *testing.T) {
	var s struct {
		flag uint32
		cas  CASLoop
		f2   uint32
		fa   FetchAdd
		f3   uint32
		st   Striped
		f4   uint32
		ad   Adder
	}
	s.cas.Add(1)
	s.cas.AddRetries(1)
	s.cas.AddLimited(1, 10)
	s.fa.Add(1)
	s.fa.AddLimited(1, 10)
	s.fa.AddLimited(1<<40, 1<<41) // the compare-and-swap path
	s.st.Add(1)
	s.ad.Add(1)
	contendAdder(&s.ad)
	if s.ad.Load() != 1+contendTotal {
		t.Fatalf("Adder = %d, want %d", s.ad.Load(), 1+contendTotal)
	}
	if s.cas.Load() != 3 || s.fa.Load() != 1+1+1<<40 || s.st.Load() != 1 {
		t.Fatalf("values %d %d %d", s.cas.Load(), s.fa.Load(), s.st.Load())
	}
	for _, a := range []struct {
		name string
		p    unsafe.Pointer
	}{{"CASLoop", unsafe.Pointer(&s.cas.v)}, {"FetchAdd", unsafe.Pointer(&s.fa.v)}, {"Adder", unsafe.Pointer(&s.ad.base)}} {
		if uintptr(a.p)%8 != 0 {
			t.Errorf("%s's word at %p is not 8-byte aligned", a.name, a.p)
		}
	}
	var st stripe
	if unsafe.Alignof(st) < 8 || unsafe.Offsetof(st.v)%8 != 0 {
		t.Errorf("stripe alignment %d, word offset %d", unsafe.Alignof(st), unsafe.Offsetof(st.v))
	}
}

// TestPaddedSizes checks that every padded type is a whole number of cache
// lines (package cacheline's rule), so that arrays of them and the fields
// after them start on a line of their own.
func TestPaddedSizes(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, want uintptr
	}{
		{"CASLoop", unsafe.Sizeof(CASLoop{}), 2 * cacheline.Size},
		{"FetchAdd", unsafe.Sizeof(FetchAdd{}), 2 * cacheline.Size},
		{"Adder", unsafe.Sizeof(Adder{}), cacheline.Size},
		{"stripe", unsafe.Sizeof(stripe{}), cacheline.Size},
		{"atomicCounter", unsafe.Sizeof(atomicCounter{}), 2 * cacheline.Size},
	} {
		if c.size%cacheline.Size != 0 || c.size != c.want {
			t.Errorf("%s is %d bytes, want %d (lines of %d)", c.name, c.size, c.want, cacheline.Size)
		}
	}
}
