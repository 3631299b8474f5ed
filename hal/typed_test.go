package hal_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/lab/cyclebench"
)

// Every method of every typed value, from the zero value, with the values
// sync/atomic's typed values would give (And and Or return the old value,
// as atomic.Uint64.And and Or do).
func TestTypedValues(t *testing.T) {
	check := func(t *testing.T, what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	t.Run("Uint64", func(t *testing.T) {
		var x hal.Uint64
		check(t, "zero Load", x.Load(), uint64(0))
		check(t, "Add(5)", x.Add(5), uint64(5))
		check(t, "FetchAdd(3)", x.FetchAdd(3), uint64(5))
		check(t, "LoadAcquire", x.LoadAcquire(), uint64(8))
		check(t, "Swap(1<<63|6)", x.Swap(1<<63|6), uint64(8))
		check(t, "CompareAndSwap(7, 9)", x.CompareAndSwap(7, 9), false)
		check(t, "CompareAndSwap(1<<63|6, 12)", x.CompareAndSwap(1<<63|6, 12), true)
		check(t, "Or(3)", x.Or(3), uint64(12))
		check(t, "And(6)", x.And(6), uint64(15))
		check(t, "Load", x.Load(), uint64(6))
		x.Store(^uint64(0))
		check(t, "Add(1) wraps", x.Add(1), uint64(0))
		x.StoreRelease(42)
		check(t, "Load after StoreRelease", x.Load(), uint64(42))
	})
	t.Run("Int64", func(t *testing.T) {
		var x hal.Int64
		check(t, "Add(-5)", x.Add(-5), int64(-5))
		check(t, "FetchAdd(7)", x.FetchAdd(7), int64(-5))
		check(t, "Swap(-1)", x.Swap(-1), int64(2))
		check(t, "And(-2)", x.And(-2), int64(-1))
		check(t, "Or(1)", x.Or(1), int64(-2))
		check(t, "CompareAndSwap(-1, 3)", x.CompareAndSwap(-1, 3), true)
		check(t, "LoadAcquire", x.LoadAcquire(), int64(3))
		x.StoreRelease(-9)
		check(t, "Load", x.Load(), int64(-9))
		x.Store(1)
		check(t, "Load after Store", x.Load(), int64(1))
	})
	t.Run("Uint32", func(t *testing.T) {
		var x hal.Uint32
		check(t, "Add(^0) wraps", x.Add(^uint32(0)), ^uint32(0))
		check(t, "FetchAdd(2)", x.FetchAdd(2), ^uint32(0))
		check(t, "Swap(0x80000001)", x.Swap(0x80000001), uint32(1))
		check(t, "And(0xff)", x.And(0xff), uint32(0x80000001))
		check(t, "Or(0x10)", x.Or(0x10), uint32(1))
		check(t, "CompareAndSwap(0x11, 0)", x.CompareAndSwap(0x11, 0), true)
		x.StoreRelease(7)
		check(t, "LoadAcquire", x.LoadAcquire(), uint32(7))
		x.Store(8)
		check(t, "Load", x.Load(), uint32(8))
	})
	t.Run("Int32", func(t *testing.T) {
		var x hal.Int32
		check(t, "Add(-1)", x.Add(-1), int32(-1))
		check(t, "FetchAdd(-1)", x.FetchAdd(-1), int32(-1))
		check(t, "Swap(5)", x.Swap(5), int32(-2))
		check(t, "And(4)", x.And(4), int32(5))
		check(t, "Or(-8)", x.Or(-8), int32(4))
		check(t, "CompareAndSwap(-4, 0)", x.CompareAndSwap(-4, 0), true)
		x.StoreRelease(-3)
		check(t, "LoadAcquire", x.LoadAcquire(), int32(-3))
		x.Store(2)
		check(t, "Load", x.Load(), int32(2))
	})
	t.Run("Uintptr", func(t *testing.T) {
		var x hal.Uintptr
		check(t, "Add(3)", x.Add(3), uintptr(3))
		check(t, "FetchAdd(1)", x.FetchAdd(1), uintptr(3))
		check(t, "Swap(0xf0)", x.Swap(0xf0), uintptr(4))
		check(t, "And(0x30)", x.And(0x30), uintptr(0xf0))
		check(t, "Or(1)", x.Or(1), uintptr(0x30))
		check(t, "CompareAndSwap(0x31, ^0)", x.CompareAndSwap(0x31, ^uintptr(0)), true)
		x.StoreRelease(5)
		check(t, "LoadAcquire", x.LoadAcquire(), uintptr(5))
		x.Store(6)
		check(t, "Load", x.Load(), uintptr(6))
	})
}

// The 64-bit values align themselves after a uint32, as atomic.Int64
// does: on 32-bit platforms (GOARCH=arm under qemu-arm in CI) a misaligned
// 64-bit atomic panics, so the ops are run, from several goroutines.
func TestTyped64Aligned(t *testing.T) {
	type s struct {
		flag uint32
		n    hal.Int64
		u    hal.Uint64
	}
	for range 4 {
		p := new(s)
		var arr [3]s
		for _, x := range []*s{p, &arr[1], &arr[2]} {
			if off := uintptr(unsafe.Pointer(&x.n)) % 8; off != 0 {
				t.Fatalf("Int64 after a uint32 at %#x, not 8-byte aligned", uintptr(unsafe.Pointer(&x.n)))
			}
			if off := uintptr(unsafe.Pointer(&x.u)) % 8; off != 0 {
				t.Fatalf("Uint64 after an Int64 at %#x, not 8-byte aligned", uintptr(unsafe.Pointer(&x.u)))
			}
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 1000 {
						x.n.Add(1)
						x.u.Or(1)
						x.u.FetchAdd(2)
					}
				}()
			}
			wg.Wait()
			if x.n.Load() != 4000 || x.u.Load() != 8001 {
				t.Fatalf("after 4×1000: Int64 %d (want 4000), Uint64 %d (want 8001)", x.n.Load(), x.u.Load())
			}
		}
	}
}

func ExampleUint64() {
	var hits hal.Uint64 // the zero value is 0
	hits.Add(3)
	old := hits.FetchAdd(2)
	flags := hits.Or(1 << 8)
	fmt.Println(old, flags, hits.Load())
	// Output: 3 5 261
}

// BenchmarkTyped (ns/op and cycles/op) compares each method of hal.Uint64 with sync/atomic's
// Uint64 doing the same thing (LoadAcquire against Load, StoreRelease
// against Store, FetchAdd against Add minus the delta). Each loop calls the
// method directly, as a caller writes it.
func BenchmarkTyped(b *testing.B) {
	b.Run("type=hal/method=Load", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Load()
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=Load", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Load()
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=LoadAcquire", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.LoadAcquire()
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=LoadAcquire", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Load()
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=Store", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			x.Store(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=Store", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			x.Store(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=StoreRelease", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			x.StoreRelease(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=StoreRelease", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			x.Store(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=Add", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Add(1)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=Add", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Add(1)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=FetchAdd", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.FetchAdd(1)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=FetchAdd", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Add(1) - 1
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=Swap", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Swap(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=Swap", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Swap(i)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=CompareAndSwap", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			if x.CompareAndSwap(i, i+1) {
				sink++
			}
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=CompareAndSwap", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			if x.CompareAndSwap(i, i+1) {
				sink++
			}
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=And", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.And(^uint64(1))
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=And", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.And(^uint64(1))
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=hal/method=Or", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x hal.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Or(1)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
	b.Run("type=atomic/method=Or", func(b *testing.B) {
		m := cyclebench.Start(b)
		var x atomic.Uint64
		var sink, i uint64
		for b.Loop() {
			sink += x.Or(1)
			i++
		}
		m.Stop()
		typedSink.Add(sink)
	})
}

var typedSink atomic.Uint64
