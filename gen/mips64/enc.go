package mips64

// Instructions the Go 1.26 assembler lacks are emitted as WORD directives,
// with the GNU syntax as the WORD's comment, which binutils_test.go
// assembles with mips64-linux-gnuabi64-as and compares.
//
// What the Go 1.26 assembler has (cmd/internal/obj/mips, and its testdata
// cmd/asm/internal/asm/testdata/mips64.s): LL/SC, LLV/SCV (lld/scd), SYNC
// (sync 0, the full barrier), NOOP and SYSCALL, used as is. Not PAUSE.

// pause returns PAUSE (MIPS32/MIPS64 Release 2): SPECIAL, rs = rt = rd = 0,
// sa = 5, function SLL (0), the encoding of sll $0,$0,5, a no-op on every
// earlier MIPS core.
func pause() (uint32, string) {
	const special, sa, fnSLL = 0, 5, 0
	return special<<26 | sa<<6 | fnSLL, "pause"
}
