package amd64

import (
	"strings"
	"testing"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

func TestAsm(t *testing.T) {
	files, err := backend.Generate(New())
	if err != nil {
		t.Fatal(err)
	}
	api, direct, probe := string(files["asm_amd64.s"]), string(files["direct/zdirect_amd64.s"]), string(files["../lab/probe/zprobe_amd64.s"])
	for _, c := range []struct{ file, name, want string }{
		{api, "asm_amd64.s", "//go:build !purego && !race && !gohal_static\n"},
		{direct, "direct/zdirect_amd64.s", "//go:build !purego\n"},
		// LOCK on its own line before the locked instruction.
		{direct, "direct/zdirect_amd64.s", "\tLOCK\n\tXADDQ AX, (CX)\n"},
		{direct, "direct/zdirect_amd64.s", "\tLOCK\n\tCMPXCHG16B (DI)\n"},
		// The flag binding: one byte compare in memory, one branch.
		{api, "asm_amd64.s", "TEXT ·Fence(SB), NOSPLIT, $0\n"},
		{api, "asm_amd64.s", "CMPB ·selFence+0(SB), $0x00\n\tJNE  mfence\n"},
		{direct, "direct/zdirect_amd64.s", "TEXT ·CyclesLfenceRdtsc(SB), NOSPLIT, $0-8\n"},
		// The flag probe: the same test before the same body twice.
		{probe, "lab/probe/zprobe_amd64.s", "TEXT ·FetchAddUint64Flagged(SB), NOSPLIT, $0-24\n"},
		{probe, "lab/probe/zprobe_amd64.s", "CMPB  ·selFetchadd64+0(SB), $0x00\n\tJNE   flagged\n"},
		// spinlock32: test, PAUSE while held, LOCK CMPXCHGL when free.
		{api, "asm_amd64.s", "TEXT ·spinLockUint32(SB), NOSPLIT, $0-17\n"},
		{api, "asm_amd64.s", "\tDECL  DX\n\tPAUSE\n\tJMP   pause_loop\n"},
		{api, "asm_amd64.s", "\tLOCK\n\tCMPXCHGL BX, (CX)\n\tJNE      pause_held\n"},
	} {
		if !strings.Contains(c.file, c.want) {
			t.Errorf("%s lacks %q", c.name, c.want)
		}
	}
	// The ops bound inline have no entry.
	if strings.Contains(api, "TEXT ·FetchAddUint64(SB)") {
		t.Error("asm_amd64.s has an entry for FetchAddUint64, which is bound inline")
	}
	// No entry calls or jumps to another function, but for the tail jumps
	// of the 128-bit ops: to the Go function that panics on a misaligned
	// word, to the Go variant, and, from a Uint128 entry, to the op's
	// entry or its Go <op>_moved.
	allowed := map[string]bool{"misaligned128": true}
	for _, op := range []string{"cas128", "load128", "store128"} {
		for _, sym := range []string{op, op + "_portable", op + "_moved"} {
			allowed[sym] = true
		}
	}
	// Any op's flag entry may tail-jump to its own Go variant.
	for i := range spec.Ops {
		if op := &spec.Ops[i]; op.HasGoVariant("amd64") {
			allowed[op.Name+"_portable"] = true
		}
	}
	for _, s := range []string{api, direct} {
		for _, line := range strings.Split(s, "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && f[0] == "JMP" && strings.HasPrefix(f[1], "·") && allowed[strings.TrimSuffix(strings.TrimPrefix(f[1], "·"), "+0(SB)")] {
				continue
			}
			if len(f) > 0 && (f[0] == "CALL" || f[0] == "JMP" && strings.Contains(line, "(SB)")) {
				t.Errorf("unexpected call or tail jump: %q", line)
			}
		}
	}
}
