package hal_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// TestMisaligned128 gives every 128-bit function that takes a raw word a
// misaligned one: each must panic with a recoverable *hal.AlignmentError
// naming the address and the 16-byte requirement, for every variant.
func TestMisaligned128(t *testing.T) {
	var buf [5]uint64
	base := uintptr(unsafe.Pointer(&buf[0]))
	mis := (*[2]uint64)(unsafe.Pointer(&buf[1]))
	if (base+8)%16 == 0 {
		mis = (*[2]uint64)(unsafe.Pointer(&buf[0]))
	}
	check := func(t *testing.T, name string, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			r := recover()
			if r == nil {
				t.Fatalf("%s on misaligned %p: no panic", name, mis)
			}
			err, ok := r.(error)
			var ae *hal.AlignmentError
			if !ok || !errors.As(err, &ae) {
				t.Fatalf("%s: panic value %T %v, want *hal.AlignmentError", name, r, r)
			}
			if ae.Addr != uintptr(unsafe.Pointer(mis)) {
				t.Fatalf("%s: AlignmentError.Addr = %#x, want %p", name, ae.Addr, mis)
			}
			msg := err.Error()
			for _, want := range []string{"16-byte aligned", strings.TrimPrefix(fmtAddr(mis), "0x")} {
				if !strings.Contains(msg, want) {
					t.Fatalf("%s: message %q does not contain %q", name, msg, want)
				}
			}
		}()
		f()
	}
	for _, op := range []string{"cas128", "load128", "store128"} {
		t.Run(op, func(t *testing.T) {
			eachVariant(t, op, func(t *testing.T, _ calls) {
				tb := haltool.Table()
				switch op {
				case "cas128":
					check(t, "Table().CompareAndSwap128", func() { tb.CompareAndSwap128.Func(mis, 0, 0, 1, 1) })
				case "load128":
					check(t, "Table().Load128", func() { tb.Load128.Func(mis) })
				case "store128":
					check(t, "Table().Store128", func() { tb.Store128.Func(mis, 1, 1) })
				}
			})
		})
	}
	t.Run("direct", func(t *testing.T) { misalignedDirect(t, mis, check) })
	if buf != [5]uint64{} {
		t.Fatalf("a misaligned call wrote memory: %#x", buf)
	}
	runtime.KeepAlive(&buf)
}

func fmtAddr(p *[2]uint64) string {
	const hex = "0123456789abcdef"
	a := uintptr(unsafe.Pointer(p))
	var b []byte
	for a > 0 {
		b = append([]byte{hex[a%16]}, b...)
		a /= 16
	}
	return "0x" + string(b)
}

// misalignedDirect calls hal/direct's 128-bit variants this CPU can run
// (direct128, generated per GOARCH) on a misaligned word.
func misalignedDirect(t *testing.T, mis *[2]uint64, check func(*testing.T, string, func())) {
	if len(direct128.cases)+len(direct128.loads)+len(direct128.stores) == 0 {
		t.Skip("no hal/direct 128-bit assembly in this build")
	}
	for _, v := range runnable("cas128", direct128.cases) {
		check(t, "direct cas128 "+v, func() { direct128.cases[v](mis, 0, 0, 1, 1) })
	}
	for _, v := range runnable("load128", direct128.loads) {
		check(t, "direct load128 "+v, func() { direct128.loads[v](mis) })
	}
	for _, v := range runnable("store128", direct128.stores) {
		check(t, "direct store128 "+v, func() { direct128.stores[v](mis, 1, 1) })
	}
}
