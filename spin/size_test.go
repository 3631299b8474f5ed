package spin

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestSizes keeps the sizes the lock types' documentation gives (amd64,
// 386 and arm64) and those of the other GOARCHes in step with the types.
func TestSizes(t *testing.T) {
	want := map[string][3]uintptr{ // TAS family, Ticket, MCS
		"amd64": {128, 664, 200}, "riscv64": {128, 664, 200}, "loong64": {128, 664, 200},
		"386": {128, 664, 200}, "arm": {128, 664, 200},
		"arm64": {256, 792, 392}, "ppc64le": {256, 792, 392},
		"s390x": {512, 1048, 776},
	}
	w, ok := want[runtime.GOARCH]
	if !ok {
		t.Skipf("no sizes recorded for %s", runtime.GOARCH)
	}
	got := map[string][2]uintptr{
		"TAS":     {unsafe.Sizeof(TAS{}), w[0]},
		"TTAS":    {unsafe.Sizeof(TTAS{}), w[0]},
		"Asm":     {unsafe.Sizeof(Asm{}), w[0]},
		"Backoff": {unsafe.Sizeof(Backoff{}), w[0]},
		"Ticket":  {unsafe.Sizeof(Ticket{}), w[1]},
		"MCS":     {unsafe.Sizeof(MCS{}), w[2]},
	}
	for name, g := range got {
		if g[0] != g[1] {
			t.Errorf("%s is %d bytes on %s, its documentation (or this table) says %d", name, g[0], runtime.GOARCH, g[1])
		}
	}
}
