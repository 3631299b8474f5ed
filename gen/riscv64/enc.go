package riscv64

import (
	"fmt"
	"strings"
)

// Instructions the Go 1.26 assembler lacks, or has only with other
// orderings, are emitted as WORD directives. The encodings are computed
// from their fields here and checked in enc_test.go against constants that
// binutils (riscv64-linux-gnu-as and -objdump) produce and print for the
// same GNU syntax, which the emitter writes as each WORD's comment.
//
// What the Go 1.26 assembler has (cmd/internal/obj/riscv, and its
// testdata cmd/asm/internal/asm/testdata/riscv64.s):
//
//   - LRW/LRD: always LR.aq. No LR.aqrl, which the RVWMO mapping of a
//     sequentially consistent CAS wants: WORD-encoded (lr below).
//   - SCW/SCD: always SC.rl, what that mapping wants: used as is.
//   - AMOADDW/D, AMOSWAPW/D: always .aqrl, what a sequentially consistent
//     read-modify-write wants: used as is.
//   - FENCE: only FENCE IORW,IORW (imm 0x0ff), no operands. The
//     memory-only fences RW,RW / R,RW / RW,W are WORD-encoded (fence).
//   - No PAUSE (Zihintpause): WORD-encoded (pause).
//   - RDTIME: present (CSRRS rd, time, zero).

// reg maps the Go assembler's names of the registers this backend uses to
// their numbers: ZERO = X0, T0-T2 = X5-X7, A0-A7 = X10-X17. The Go
// toolchain reserves X1 (RA), X2 (SP), X3 (GP), X4 (TP), X26 (closure
// context), X27 (g) and X31 (the assembler's temporary).
var reg = map[string]uint32{
	"ZERO": 0, "T0": 5, "T1": 6, "T2": 7,
	"A0": 10, "A1": 11, "A2": 12, "A3": 13, "A4": 14, "A5": 15, "A6": 16, "A7": 17,
}

// gnu returns the register's ABI name as binutils prints it: "a3".
func gnu(r string) string { return strings.ToLower(r) }

// Major opcodes and the A extension's funct5 values.
const (
	opAMO     = 0b0101111 // AMO: LR, SC, AMO*
	opMiscMem = 0b0001111 // MISC-MEM: FENCE, PAUSE

	funct5LR = 0b00010
)

// lr encodes LR.W or LR.D rd, (rs1) with the given aq and rl bits:
//
//	funct5 aq rl rs2=0 rs1 funct3 rd 0101111
//
// funct3 is 010 for W, 011 for D; aq is bit 26, rl bit 25. It returns the
// word and its GNU syntax, "lr.d.aqrl a3, (a0)".
func lr(bits int, aq, rl bool, rd, rs1 string) (uint32, string, error) {
	var funct3 uint32
	var w string
	switch bits {
	case 32:
		funct3, w = 0b010, "w"
	case 64:
		funct3, w = 0b011, "d"
	default:
		return 0, "", fmt.Errorf("lr: bad width %d", bits)
	}
	d, ok1 := reg[rd]
	s, ok2 := reg[rs1]
	if !ok1 || !ok2 || rd == "ZERO" || rs1 == "ZERO" {
		return 0, "", fmt.Errorf("lr: bad registers %q, %q", rd, rs1)
	}
	word := uint32(funct5LR)<<27 | s<<15 | funct3<<12 | d<<7 | opAMO
	ord := ""
	if aq {
		word |= 1 << 26
		ord += "aq"
	}
	if rl {
		word |= 1 << 25
		ord += "rl"
	}
	name := "lr." + w
	if ord != "" {
		name += "." + ord
	}
	return word, fmt.Sprintf("%s %s, (%s)", name, gnu(rd), gnu(rs1)), nil
}

// fenceSet encodes a FENCE predecessor or successor set: i (device input),
// o (device output), r (memory reads), w (memory writes), bits 3 to 0.
func fenceSet(set string) (uint32, error) {
	var v uint32
	prev := -1
	for _, c := range set {
		bit := strings.IndexRune("iorw", c)
		if bit <= prev {
			return 0, fmt.Errorf("fence: bad set %q (want a subsequence of iorw)", set)
		}
		prev = bit
		v |= 1 << (3 - bit)
	}
	return v, nil
}

// fence encodes FENCE pred, succ (fm = 0, rs1 = rd = x0):
//
//	fm pred succ rs1 000 rd 0001111
//
// pred and succ are subsequences of "iorw"; both must be non-empty (an
// empty successor set is the PAUSE hint, see pause).
func fence(pred, succ string) (uint32, string, error) {
	p, err := fenceSet(pred)
	if err != nil {
		return 0, "", err
	}
	s, err := fenceSet(succ)
	if err != nil {
		return 0, "", err
	}
	if p == 0 || s == 0 {
		return 0, "", fmt.Errorf("fence %q, %q: empty set", pred, succ)
	}
	return p<<24 | s<<20 | opMiscMem, fmt.Sprintf("fence %s, %s", pred, succ), nil
}

// pause encodes the Zihintpause PAUSE hint: FENCE with pred = W, succ = 0
// and fm = 0. A FENCE with an empty successor set orders nothing, so a core
// without Zihintpause executes PAUSE as a harmless no-op fence (it is a
// HINT encoding, not an illegal instruction).
func pause() (uint32, string) {
	w, _ := fenceSet("w")
	return w<<24 | opMiscMem, "pause"
}
