package amd64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
)

func TestAsm(t *testing.T) {
	files, err := backend.Generate(New())
	if err != nil {
		t.Fatal(err)
	}
	s := string(files["asm_amd64.s"])
	for _, want := range []string{
		"//go:build !purego && !race\n",
		// LOCK on its own line before the locked instruction.
		"\tLOCK\n\tXADDQ AX, (CX)\n",
		"\tLOCK\n\tCMPXCHG16B (DI)\n",
		// The flag binding: one byte compare in memory, one branch.
		"TEXT ·Fence(SB), NOSPLIT, $0\n",
		"CMPB ·selFence+0(SB), $0x00\n\tJNE  mfence\n",
		"TEXT ·cycles_lfence_rdtsc(SB), NOSPLIT, $0-8\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("asm_amd64.s lacks %q", want)
		}
	}
	// No entry calls or jumps to another function.
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "CALL") || (strings.Contains(line, "JMP") && strings.Contains(line, "(SB)")) {
			t.Errorf("unexpected call or tail jump: %q", line)
		}
	}
}
