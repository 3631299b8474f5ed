package ppc64le

import "fmt"

// Instructions the Go 1.26 assembler lacks are emitted as WORD directives.
// The encodings are computed from their fields here and checked in
// enc_test.go against constants that binutils (powerpc64le-linux-gnu-as
// -mpower8 -mregnames, and -objdump) produces and prints for the same GNU
// syntax, which the emitter writes as each WORD's comment.
//
// What the Go 1.26 assembler has (cmd/internal/obj/ppc64, and its testdata
// cmd/asm/internal/asm/testdata/ppc64.s):
//
//   - LWAR/LDAR (lwarx/ldarx, EH = 0 unless a third operand is given) and
//     STWCCC/STDCCC (stwcx./stdcx.): used as is.
//   - SYNC (hwsync), LWSYNC, ISYNC: used as is.
//   - MOVD SPR(268), Rx: mfspr Rx, 268, which is mftb Rx (the runtime's
//     cputicks writes it as SPR(TBR)).
//   - OR Rx, Rx, Rx: the program-priority and yield hints.
//   - No quadword instructions: no LQ, STQ, LQARX or STQCCC (obj/ppc64
//     has no opcode for them). They are WORD-encoded below (lq, stq, lqarx,
//     stqcx).
//
// Every quadword instruction names an even-odd pair of registers by its
// even register. Power ISA defines the pair by the quadword's big-endian
// order: in Big-Endian mode the even register holds the doubleword at EA
// and the odd one the doubleword at EA+8; in Little-Endian mode the even
// register holds the doubleword at EA+8 and the odd one that at EA (Power
// ISA v2.07B, Book I "Fixed-Point Load and Store Quadword Instructions"
// for lq and stq, Book II "128-bit Load And Reserve and Store Conditional
// Instructions" for lqarx and stqcx.: the pair is always the quadword as
// one 128-bit big-endian number, even register most significant). The
// backend maps a [2]uint64's lo (at EA) and hi (at EA+8) to the pair with
// (*Backend).pair.

// Primary opcodes and X-form extended opcodes.
const (
	opLQ  = 56 // DQ-form: lq
	opSTQ = 62 // DS-form, XO = 2: stq
	op31  = 31 // X-form: lqarx, stqcx.

	xoSTQ    = 2
	xoLQARX  = 276
	xoSTQCX  = 182
	rcRecord = 1 // the "." of stqcx.: it records the outcome in CR0
)

// gpr returns the GNU name of general-purpose register n, "r4".
func gpr(n int) string { return fmt.Sprintf("r%d", n) }

// checkPair checks that p is the even register of a quadword pair and that
// the base register ra (when it is one, ra > 0) is not in the pair: Power
// ISA makes those instruction forms invalid.
func checkPair(name string, p, ra int) error {
	if p < 0 || p > 30 || p%2 != 0 {
		return fmt.Errorf("%s: register pair r%d is not even", name, p)
	}
	if ra < 0 || ra > 31 {
		return fmt.Errorf("%s: bad base register r%d", name, ra)
	}
	if ra == p || ra == p+1 {
		return fmt.Errorf("%s: base register r%d is in the pair r%d:r%d", name, ra, p, p+1)
	}
	return nil
}

// lq encodes lq RTp, DQ(RA) (DQ-form):
//
//	56 RTp RA DQ 0000
//
// dq is a byte displacement, a multiple of 16 in [-32768, 32752].
func lq(rtp, ra, dq int) (uint32, string, error) {
	if err := checkPair("lq", rtp, ra); err != nil {
		return 0, "", err
	}
	if ra == 0 {
		return 0, "", fmt.Errorf("lq: base register r0 reads as 0, not as a register")
	}
	if dq%16 != 0 || dq < -32768 || dq > 32752 {
		return 0, "", fmt.Errorf("lq: displacement %d is not a multiple of 16 in [-32768, 32752]", dq)
	}
	w := uint32(opLQ)<<26 | uint32(rtp)<<21 | uint32(ra)<<16 | uint32(dq)&0xfff0
	return w, fmt.Sprintf("lq %s, %d(%s)", gpr(rtp), dq, gpr(ra)), nil
}

// stq encodes stq RSp, DS(RA) (DS-form):
//
//	62 RSp RA DS 10
//
// ds is a byte displacement, a multiple of 4 in [-32768, 32764]; the
// quadword itself must be 16-byte aligned.
func stq(rsp, ra, ds int) (uint32, string, error) {
	if err := checkPair("stq", rsp, ra); err != nil {
		return 0, "", err
	}
	if ra == 0 {
		return 0, "", fmt.Errorf("stq: base register r0 reads as 0, not as a register")
	}
	if ds%4 != 0 || ds < -32768 || ds > 32764 {
		return 0, "", fmt.Errorf("stq: displacement %d is not a multiple of 4 in [-32768, 32764]", ds)
	}
	w := uint32(opSTQ)<<26 | uint32(rsp)<<21 | uint32(ra)<<16 | uint32(ds)&0xfffc | xoSTQ
	return w, fmt.Sprintf("stq %s, %d(%s)", gpr(rsp), ds, gpr(ra)), nil
}

// lqarx encodes lqarx RTp, RA, RB, EH (X-form):
//
//	31 RTp RA RB 276 EH
//
// with RA = 0 (the effective address is RB alone). EH = 1 hints that the
// word is a lock the program will release (no hal op sets it).
func lqarx(rtp, rb int, eh bool) (uint32, string, error) {
	if err := checkPair("lqarx", rtp, rb); err != nil {
		return 0, "", err
	}
	if rb == 0 {
		return 0, "", fmt.Errorf("lqarx: address register r0")
	}
	w := uint32(op31)<<26 | uint32(rtp)<<21 | uint32(rb)<<11 | xoLQARX<<1
	asm := fmt.Sprintf("lqarx %s, 0, %s", gpr(rtp), gpr(rb))
	if eh {
		w |= 1
		asm += ", 1"
	}
	return w, asm, nil
}

// stqcx encodes stqcx. RSp, RA, RB (X-form, Rc = 1):
//
//	31 RSp RA RB 182 1
//
// with RA = 0. It stores the pair only if the reservation lqarx took is
// still held, and sets CR0's EQ bit when it stored.
func stqcx(rsp, rb int) (uint32, string, error) {
	if err := checkPair("stqcx.", rsp, rb); err != nil {
		return 0, "", err
	}
	if rb == 0 {
		return 0, "", fmt.Errorf("stqcx.: address register r0")
	}
	w := uint32(op31)<<26 | uint32(rsp)<<21 | uint32(rb)<<11 | xoSTQCX<<1 | rcRecord
	return w, fmt.Sprintf("stqcx. %s, 0, %s", gpr(rsp), gpr(rb)), nil
}
