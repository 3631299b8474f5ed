package hal_test

import (
	"go/importer"
	"go/token"
	"go/types"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
)

// TestSyncAtomicSurface walks sync/atomic's exported functions, as the
// toolchain's source has them, and fails on any that hal lacks or spells
// with another signature, except the unsafe.Pointer forms, which stay
// sync/atomic's (see syncatomic.go).
func TestSyncAtomicSurface(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		// The source importer resolves the module's packages with the
		// go command (go/build in module mode).
		t.Skip("needs the go command to type-check the packages from source:", err)
	}
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil).(types.ImporterFrom)
	std, err := imp.ImportFrom("sync/atomic", ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := imp.ImportFrom("github.com/gohal/gohal/hal", ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range std.Scope().Names() {
		f, ok := std.Scope().Lookup(name).(*types.Func)
		if !ok || !f.Exported() || strings.Contains(name, "Pointer") {
			continue
		}
		checked++
		want := f.Type().(*types.Signature)
		got, ok := ours.Scope().Lookup(name).(*types.Func)
		if !ok {
			t.Errorf("hal lacks sync/atomic's %s%s", name, strings.TrimPrefix(want.String(), "func"))
			continue
		}
		if !types.Identical(got.Type(), want) {
			t.Errorf("hal.%s is %v, sync/atomic's is %v", name, got.Type(), want)
		}
	}
	// 5 each of Load, Store, Add, Swap, CompareAndSwap, And, Or in Go 1.23+.
	if checked < 35 {
		t.Errorf("found only %d non-pointer functions in sync/atomic; the walk is broken", checked)
	}
}

// TestSyncAtomicSameMeaning runs each function beside sync/atomic's on the
// same values, the signed ones with negative operands, and compares both
// the result and the word afterwards.
func TestSyncAtomicSameMeaning(t *testing.T) {
	vals32 := []int32{0, 1, -1, 7, -8, 1 << 30, -1 << 31}
	for _, a := range vals32 {
		for _, b := range vals32 {
			type op struct {
				name      string
				hal, want func(*int32) int32
			}
			ops := []op{
				{"AddInt32", func(p *int32) int32 { return hal.AddInt32(p, b) }, func(p *int32) int32 { return atomic.AddInt32(p, b) }},
				{"SwapInt32", func(p *int32) int32 { return hal.SwapInt32(p, b) }, func(p *int32) int32 { return atomic.SwapInt32(p, b) }},
				{"AndInt32", func(p *int32) int32 { return hal.AndInt32(p, b) }, func(p *int32) int32 { return atomic.AndInt32(p, b) }},
				{"OrInt32", func(p *int32) int32 { return hal.OrInt32(p, b) }, func(p *int32) int32 { return atomic.OrInt32(p, b) }},
				{"CompareAndSwapInt32(a)", func(p *int32) int32 { return b2i(hal.CompareAndSwapInt32(p, a, b)) }, func(p *int32) int32 { return b2i(atomic.CompareAndSwapInt32(p, a, b)) }},
				{"CompareAndSwapInt32(b)", func(p *int32) int32 { return b2i(hal.CompareAndSwapInt32(p, b, a)) }, func(p *int32) int32 { return b2i(atomic.CompareAndSwapInt32(p, b, a)) }},
				{"LoadInt32", func(p *int32) int32 { return hal.LoadInt32(p) }, func(p *int32) int32 { return atomic.LoadInt32(p) }},
				{"StoreInt32", func(p *int32) int32 { hal.StoreInt32(p, b); return 0 }, func(p *int32) int32 { atomic.StoreInt32(p, b); return 0 }},
			}
			for _, o := range ops {
				x, y := a, a
				if g, w := o.hal(&x), o.want(&y); g != w || x != y {
					t.Errorf("%s on %d, %d: hal returned %d leaving %d; sync/atomic %d leaving %d", o.name, a, b, g, x, w, y)
				}
			}
		}
	}
	vals64 := []int64{0, 1, -1, -8, 1 << 40, -1 << 63}
	for _, a := range vals64 {
		for _, b := range vals64 {
			type op struct {
				name      string
				hal, want func(*int64) int64
			}
			ops := []op{
				{"AddInt64", func(p *int64) int64 { return hal.AddInt64(p, b) }, func(p *int64) int64 { return atomic.AddInt64(p, b) }},
				{"SwapInt64", func(p *int64) int64 { return hal.SwapInt64(p, b) }, func(p *int64) int64 { return atomic.SwapInt64(p, b) }},
				{"AndInt64", func(p *int64) int64 { return hal.AndInt64(p, b) }, func(p *int64) int64 { return atomic.AndInt64(p, b) }},
				{"OrInt64", func(p *int64) int64 { return hal.OrInt64(p, b) }, func(p *int64) int64 { return atomic.OrInt64(p, b) }},
				{"CompareAndSwapInt64", func(p *int64) int64 { return b2i64(hal.CompareAndSwapInt64(p, a, b)) }, func(p *int64) int64 { return b2i64(atomic.CompareAndSwapInt64(p, a, b)) }},
				{"AddUint64", func(p *int64) int64 {
					return int64(hal.AddUint64(ptr64(p), uint64(b)))
				}, func(p *int64) int64 { return int64(atomic.AddUint64(ptr64(p), uint64(b))) }},
				{"AndUintptr", func(p *int64) int64 {
					u := uintptr(*p)
					old := hal.AndUintptr(&u, uintptr(b))
					*p = int64(u)
					return int64(old)
				}, func(p *int64) int64 {
					u := uintptr(*p)
					old := atomic.AndUintptr(&u, uintptr(b))
					*p = int64(u)
					return int64(old)
				}},
				{"OrUintptr", func(p *int64) int64 {
					u := uintptr(*p)
					old := hal.OrUintptr(&u, uintptr(b))
					*p = int64(u)
					return int64(old)
				}, func(p *int64) int64 {
					u := uintptr(*p)
					old := atomic.OrUintptr(&u, uintptr(b))
					*p = int64(u)
					return int64(old)
				}},
			}
			for _, o := range ops {
				x, y := a, a
				if g, w := o.hal(&x), o.want(&y); g != w || x != y {
					t.Errorf("%s on %d, %d: hal returned %d leaving %d; sync/atomic %d leaving %d", o.name, a, b, g, x, w, y)
				}
			}
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func b2i64(b bool) int64 { return int64(b2i(b)) }

func ptr64(p *int64) *uint64 { return (*uint64)(unsafe.Pointer(p)) }

// TestSyncAtomicHammer checks the signed and uintptr forms under
// contention: the adds' total, and And/Or on one shared word where each
// goroutine owns one bit, sets it and clears it, and must always find it
// as it left it.
func TestSyncAtomicHammer(t *testing.T) {
	const goroutines = 4
	n := 20000
	if testing.Short() {
		n = 2000
	}
	var sum64 int64
	var sum32 int32
	var bits uintptr
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bit := uintptr(1) << g
			for range n {
				hal.AddInt64(&sum64, -3)
				hal.AddInt32(&sum32, 5)
				if old := hal.OrUintptr(&bits, bit); old&bit != 0 {
					errs <- "OrUintptr found the goroutine's own bit already set"
					return
				}
				if old := hal.AndUintptr(&bits, ^bit); old&bit == 0 {
					errs <- "AndUintptr found the goroutine's own bit clear after setting it"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if want := int64(-3 * goroutines * n); hal.LoadInt64(&sum64) != want {
		t.Errorf("AddInt64 total %d, want %d", sum64, want)
	}
	if want := int32(5 * goroutines * n); hal.LoadInt32(&sum32) != want {
		t.Errorf("AddInt32 total %d, want %d", sum32, want)
	}
	if bits != 0 {
		t.Errorf("bits %#x left set", bits)
	}
}
