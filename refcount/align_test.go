package refcount

import "testing"

// TestEmbeddedAfterUint32 embeds a Count after a uint32 field and uses it:
// the layout that misaligned the counter package's 64-bit words on 32-bit
// platforms (issue 10 item 2). Count holds one int32, so it needs no more
// than 4-byte alignment; CI runs this under qemu-arm to keep it that way.
func TestEmbeddedAfterUint32(t *testing.T) {
	var s struct {
		flag uint32
		c    Count
		f2   uint8
		c2   Count
	}
	s.c.Set(1)
	s.c.Inc()
	s.c2.Set(1)
	if !s.c2.IncNotZero() || s.c.DecAndTest() || s.c.Load() != 1 || s.c2.Load() != 2 {
		t.Fatalf("counts %d %d", s.c.Load(), s.c2.Load())
	}
}
