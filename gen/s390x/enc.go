package s390x

import (
	"fmt"
	"strings"
)

// Instructions the Go 1.26 assembler lacks are emitted as raw bytes. The
// encodings are computed from their fields here and checked in enc_test.go
// against the bytes binutils (s390x-linux-gnu-as and -objdump) produce for
// the same GNU syntax, which the emitter writes as each encoding's comment.
//
// What the Go 1.26 assembler has (cmd/internal/obj/s390x, and its
// testdata cmd/asm/internal/asm/testdata/s390x.s):
//
//   - CS, CSG (COMPARE AND SWAP), LAA/LAAG, LAN/LANG, LAO/LAOG (the
//     interlocked-access facility 1's LOAD AND ADD/AND/OR), STCK and STCKF,
//     SYNC (BCR 14,0, the fast-BCR-serialization facility), SYSCALL (SVC 0):
//     used as they are.
//   - No CDSG (COMPARE DOUBLE AND SWAP, 64-bit pair), LPQ (LOAD PAIR FROM
//     QUADWORD) or STPQ (STORE PAIR TO QUADWORD): its op table lists LPQ
//     and STPQ opcodes but no mnemonic assembles to them. Encoded here.
//   - No BCR with a mask other than 14 or 15 and a branch register: BCR 15,0
//     (full serialization) would be "BR R0", which reads as a branch. Encoded
//     here.
//
// s390x instructions are 2, 4 or 6 bytes, big-endian, halfword aligned. The
// Go assembler's WORD emits 4 bytes big-endian and BYTE one, with no
// padding between them (cmd/internal/obj/s390x's spanz concatenates each
// instruction's bytes), so a 6-byte instruction is WORD then two BYTEs and
// a 2-byte one two BYTEs, on one line (the assembler takes ';' between
// statements): see directives.

// reg maps the Go assembler's names of the registers this backend may use to
// their numbers. R0 reads as 0 when it is a base or index register, so it
// never addresses memory here; R10 and R11 are the assembler's temporaries
// (REGTMP, REGTMP2), R12 the closure context, R13 g, R14 the link register
// and R15 the stack pointer (cmd/internal/obj/s390x/a.out.go).
var reg = map[string]uint32{
	"R0": 0, "R1": 1, "R2": 2, "R3": 3, "R4": 4, "R5": 5, "R6": 6, "R7": 7, "R8": 8, "R9": 9,
}

// gnu returns the register as binutils prints it: "%r2".
func gnu(r string) string { return "%" + strings.ToLower(r) }

// Opcodes: the first byte and, for the 6-byte formats, the last.
const (
	opBCR  = 0x07       // RR: BRANCH ON CONDITION (register)
	opCDSG = 0xeb_3e    // RSY-a: COMPARE DOUBLE AND SWAP (64-bit pair)
	opLPQ  = 0xe3_8f    // RXY-a: LOAD PAIR FROM QUADWORD
	opSTPQ = 0xe3_8e    // RXY-a: STORE PAIR TO QUADWORD
	maxD20 = 1<<19 - 1  // largest 20-bit signed displacement
	minD20 = -(1 << 19) // smallest
)

// base checks a base register: one of reg's, not R0 (which means "no
// base", address 0).
func base(b string) (uint32, error) {
	n, ok := reg[b]
	if !ok || n == 0 {
		return 0, fmt.Errorf("bad base register %q", b)
	}
	return n, nil
}

// pair checks the even register of an even/odd pair.
func pair(r string) (uint32, error) {
	n, ok := reg[r]
	if !ok || n%2 != 0 || n == 0 {
		return 0, fmt.Errorf("register %q is not the even register of a pair (R2, R4, R6, R8)", r)
	}
	return n, nil
}

// long20 encodes a 20-bit signed displacement as the RSY/RXY formats split
// it: DL (low 12 bits) and DH (high 8 bits).
func long20(d int) (dl, dh uint32, err error) {
	if d < minD20 || d > maxD20 {
		return 0, 0, fmt.Errorf("displacement %d out of range", d)
	}
	u := uint32(d) & 0xfffff
	return u & 0xfff, u >> 12, nil
}

// rsy encodes the RSY-a format: op1 R1 R3 B2 DL2 DH2 op2 (8, 4, 4, 4, 12,
// 8, 8 bits).
func rsy(op uint32, r1, r3, b2 uint32, d int) ([]byte, error) {
	dl, dh, err := long20(d)
	if err != nil {
		return nil, err
	}
	return []byte{byte(op >> 8), byte(r1<<4 | r3), byte(b2<<4 | dl>>8), byte(dl), byte(dh), byte(op)}, nil
}

// rxy encodes the RXY-a format: op1 R1 X2 B2 DL2 DH2 op2 (8, 4, 4, 4, 12,
// 8, 8 bits).
func rxy(op uint32, r1, x2, b2 uint32, d int) ([]byte, error) {
	dl, dh, err := long20(d)
	if err != nil {
		return nil, err
	}
	return []byte{byte(op >> 8), byte(r1<<4 | x2), byte(b2<<4 | dl>>8), byte(dl), byte(dh), byte(op)}, nil
}

// cdsg encodes CDSG r1, r3, d(b): compare the pair r1, r1+1 with the
// quadword at d(b); if equal store the pair r3, r3+1 there (condition code
// 0), else load the quadword into r1, r1+1 (condition code 1). The even
// register holds the doubleword at the lower address. It returns the bytes
// and the GNU syntax, "cdsg %r2,%r4,0(%r6)".
func cdsg(r1, r3 string, d int, b string) ([]byte, string, error) {
	n1, err := pair(r1)
	if err != nil {
		return nil, "", fmt.Errorf("cdsg: %w", err)
	}
	n3, err := pair(r3)
	if err != nil {
		return nil, "", fmt.Errorf("cdsg: %w", err)
	}
	nb, err := base(b)
	if err != nil {
		return nil, "", fmt.Errorf("cdsg: %w", err)
	}
	w, err := rsy(opCDSG, n1, n3, nb, d)
	if err != nil {
		return nil, "", fmt.Errorf("cdsg: %w", err)
	}
	return w, fmt.Sprintf("cdsg %s,%s,%d(%s)", gnu(r1), gnu(r3), d, gnu(b)), nil
}

// quad encodes LPQ or STPQ r1, d(b) (no index register): the pair r1,
// r1+1 and the quadword at d(b), the even register at the lower address.
func quad(name string, op uint32, r1 string, d int, b string) ([]byte, string, error) {
	n1, err := pair(r1)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	nb, err := base(b)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	w, err := rxy(op, n1, 0, nb, d)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	return w, fmt.Sprintf("%s %s,%d(%s)", name, gnu(r1), d, gnu(b)), nil
}

// lpq encodes LPQ r1, d(b): a block-concurrent 16-byte load of the
// quadword-aligned d(b) into r1 (lower address) and r1+1.
func lpq(r1 string, d int, b string) ([]byte, string, error) { return quad("lpq", opLPQ, r1, d, b) }

// stpq encodes STPQ r1, d(b): a block-concurrent 16-byte store of r1 (to
// the lower address) and r1+1 at the quadword-aligned d(b).
func stpq(r1 string, d int, b string) ([]byte, string, error) { return quad("stpq", opSTPQ, r1, d, b) }

// bcr encodes BCR m, r (RR format: 07 M1 R2). With r = 0 nothing branches:
// m = 15 is a full serialization, m = 14 the fast-BCR serialization (what
// Go's SYNC assembles to). GNU syntax "bcr 15,0".
func bcr(m, r uint32) ([]byte, string, error) {
	if m > 15 || r > 15 {
		return nil, "", fmt.Errorf("bcr: bad fields %d, %d", m, r)
	}
	return []byte{opBCR, byte(m<<4 | r)}, fmt.Sprintf("bcr %d,%d", m, r), nil
}

// directives returns the Go assembler statements that emit b verbatim:
// WORD (4 bytes, big-endian) for each whole word, BYTE for the rest,
// joined by "; " to sit on one line.
func directives(b []byte) string {
	var parts []string
	for len(b) >= 4 {
		parts = append(parts, fmt.Sprintf("WORD $0x%02x%02x%02x%02x", b[0], b[1], b[2], b[3]))
		b = b[4:]
	}
	for _, c := range b {
		parts = append(parts, fmt.Sprintf("BYTE $0x%02x", c))
	}
	return strings.Join(parts, "; ")
}
